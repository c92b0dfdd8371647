// Adapts the agent's byte streams (process.stdin and process.stdout, or any pair like them) to the
// newline-delimited JSON stream the ACP SDK reads and writes. Writes wait for a full output buffer
// to drain, so a slow editor slows the agent down instead of growing its memory.

import { ndJsonStream, type Stream } from "@agentclientprotocol/sdk";

/** Where the agent reads and writes: `process.stdin` and `process.stdout`, or any pair like them. */
export interface AcpStreams {
  /** What the editor writes. */
  input: AsyncIterable<string | Uint8Array>;
  /** Where the agent writes. */
  output: { write(chunk: string): unknown };
}

interface NodeWritable {
  write(chunk: Uint8Array | string): boolean;
  once(event: "drain" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

function isNodeWritable(output: AcpStreams["output"]): output is AcpStreams["output"] & NodeWritable {
  return typeof (output as { once?: unknown }).once === "function" && typeof (output as { writableHighWaterMark?: unknown }).writableHighWaterMark === "number";
}

export function toSdkStream(streams: AcpStreams, maxMessageBytes: number): Stream {
  const encoder = new TextEncoder();
  const iterator = streams.input[Symbol.asyncIterator]();
  const input = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) {
          controller.close();
        } else {
          controller.enqueue(typeof value === "string" ? encoder.encode(value) : value);
        }
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const output = streams.output;
  const decoder = new TextDecoder();
  let broken: Error | undefined;
  if (isNodeWritable(output)) {
    // An editor that goes away (EPIPE) must end the connection, not crash the process.
    output.on("error", (error) => {
      broken = error;
    });
  }
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      if (broken) {
        throw broken;
      }
      if (isNodeWritable(output)) {
        // Node streams take bytes as they are; wait for 'drain' when the buffer is full.
        if (!output.write(chunk)) {
          return new Promise<void>((resolve) => {
            output.once("drain", resolve);
            output.once("close", resolve);
          });
        }
        return undefined;
      }
      output.write(decoder.decode(chunk));
      return undefined;
    },
  });
  return ndJsonStream(writable, input, { maxMessageBytes });
}
