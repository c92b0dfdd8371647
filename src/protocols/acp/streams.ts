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
  off?(event: "drain" | "close", listener: () => void): unknown;
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
  return ndJsonStream(isNodeWritable(output) ? batchedWritable(output) : textWritable(output), input, { maxMessageBytes });
}

/**
 * Writes to a Node stream, gathering the lines written in one turn of the event loop into one
 * write: a replay or a fast stream sends thousands of lines, and one system call each is the
 * largest cost of sending them. Waits for 'drain' when the stream's buffer is full.
 */
function batchedWritable(output: AcpStreams["output"] & NodeWritable): WritableStream<Uint8Array> {
  let broken: Error | undefined;
  // An editor that goes away (EPIPE) must end the connection, not crash the process.
  output.on("error", (error) => {
    broken = error;
  });
  let pending: Uint8Array[] = [];
  let flushing: Promise<void> | undefined;
  const flush = (): Promise<void> => {
    const chunks = pending;
    pending = [];
    flushing = undefined;
    if (broken) {
      return Promise.reject(broken);
    }
    if (output.write(chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks))) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        output.off?.("drain", done);
        output.off?.("close", done);
        resolve();
      };
      output.once("drain", done);
      output.once("close", done);
    });
  };
  return new WritableStream<Uint8Array>({
    write(chunk) {
      if (broken) {
        throw broken;
      }
      pending.push(chunk);
      if (!flushing) {
        flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(flush);
        // A failed write shows up as `broken` on the next one; nobody may be waiting on this batch.
        flushing.catch(() => undefined);
      }
      // Resolving at once lets the next line join this batch; a full buffer makes later writes wait.
      return pending.length >= 512 ? flushing : undefined;
    },
    close() {
      return flushing;
    },
  });
}

function textWritable(output: AcpStreams["output"]): WritableStream<Uint8Array> {
  const decoder = new TextDecoder();
  return new WritableStream<Uint8Array>({
    write(chunk) {
      output.write(decoder.decode(chunk));
    },
  });
}
