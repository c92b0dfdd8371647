// Adapts the agent's byte streams (process.stdin and process.stdout, or any pair like them) to the
// message streams the ACP SDK's connection reads and writes.
//
// Reading uses the SDK's own newline-delimited JSON framing, with its answers to malformed lines.
// Writing serialises each message to one line itself and gathers the lines of one turn of the event
// loop into one write: measured on a replay of 3,000 updates, the SDK's per-line writer (a text
// encoder and a stream writer per line) and one system call per line were most of the agent's time.
// A full output buffer makes writes wait for 'drain', so a slow editor slows the agent instead of
// growing its memory.

import { type AnyMessage, ndJsonStream, type Stream } from "@agentclientprotocol/sdk";

/** Where the agent reads and writes: `process.stdin` and `process.stdout`, or any pair like them. */
export interface AcpStreams {
  /** What the editor writes. */
  input: AsyncIterable<string | Uint8Array>;
  /** Where the agent writes. */
  output: { write(chunk: string): unknown };
}

interface NodeWritable {
  write(chunk: string): boolean;
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
  const lines = new LineWriter(streams.output);
  const decoder = new TextDecoder();
  // The SDK's framing writes here only its own answers to lines it could not parse.
  const bytes = new WritableStream<Uint8Array>({ write: (chunk) => lines.write(decoder.decode(chunk)) });
  const framed = ndJsonStream(bytes, input, { maxMessageBytes });
  const messages = new WritableStream<AnyMessage>({
    write: (message) => lines.write(`${JSON.stringify(message)}\n`),
    close: () => lines.flushed(),
  });
  return { readable: framed.readable, writable: messages };
}

/**
 * Gathers text written in one turn of the event loop into one write. `write` returns a promise
 * only when the caller should wait (a full buffer, or many lines queued), so the common case costs
 * no promise per line.
 */
class LineWriter {
  private pending: string[] = [];
  private scheduled: Promise<void> | undefined;
  private broken: Error | undefined;

  constructor(private readonly output: AcpStreams["output"]) {
    if (isNodeWritable(output)) {
      // An editor that goes away (EPIPE) must end the connection, not crash the process.
      output.on("error", (error) => {
        this.broken = error;
      });
    }
  }

  write(text: string): Promise<void> | undefined {
    if (this.broken) {
      throw this.broken;
    }
    this.pending.push(text);
    if (!this.scheduled) {
      this.scheduled = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
      // A failed write shows up as `broken` on the next one; nobody may be waiting on this batch.
      this.scheduled.catch(() => undefined);
    }
    return this.pending.length >= 512 ? this.scheduled : undefined;
  }

  /** Resolves once everything written so far has been handed to the output. */
  flushed(): Promise<void> | undefined {
    return this.scheduled;
  }

  private flush(): Promise<void> {
    const text = this.pending.join("");
    this.pending = [];
    this.scheduled = undefined;
    if (this.broken) {
      return Promise.reject(this.broken);
    }
    const output = this.output;
    if (!isNodeWritable(output)) {
      output.write(text);
      return Promise.resolve();
    }
    if (output.write(text)) {
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
  }
}
