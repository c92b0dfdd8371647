// Adapts the agent's byte streams (process.stdin and process.stdout, or any pair like them) to the
// message streams the ACP SDK's connection reads and writes, so that no input ends the connection.
//
// Reading holds every line to the line limits (line-limits.ts) before the SDK's own newline-delimited
// JSON framing parses it, with its answers to malformed lines. A line over the limits never reaches
// the SDK: it is answered here (refused-line.ts), and reading goes on at the next newline; so is a
// request with an id ACP does not allow, which the SDK would echo.
// Writing turns each message into one line with messageLine(), which never throws (an error's `data`
// is bounded), and gathers the lines of one turn of the event loop into one write, or into writes of
// 64 KiB when there is more: measured on a replay of 3,000 updates, the SDK's per-line writer (a
// text encoder and a stream writer per line) and one system call per line were most of the agent's
// time. A replay's lines, already written as JSON, can be handed over whole (`writeLines`). When
// more than 1 MiB waits in the output's buffer, writes wait for 'drain', so a slow editor slows the
// agent instead of growing its memory; below that the agent goes on making lines while the editor
// reads.

import { type AnyMessage, type JsonRpcId, ndJsonStream, RequestError, type Stream } from "@agentclientprotocol/sdk";

import { silentLogger, type Logger } from "../../types/logger.js";
import { AcpConnectionError } from "./connection-error.js";
import { DEFAULT_LINE_LIMITS, LineScanner, type LineLimits, type ScannedLine } from "./line-limits.js";
import { messageLine } from "./message-line.js";
import { refusedLineOutcome, unusableIdAnswer } from "./refused-line.js";

/** Where the agent reads and writes: `process.stdin` and `process.stdout`, or any pair like them. */
export interface AcpStreams {
  /** What the editor writes. */
  input: AsyncIterable<string | Uint8Array>;
  /** Where the agent writes. */
  output: { write(chunk: string): unknown };
}

export interface AcpWireOptions {
  limits?: Partial<LineLimits> | undefined;
  /** Where refused lines and messages that could not be written are reported. */
  logger?: Logger | undefined;
}

/** The SDK's stream over the agent's byte streams, and what broke it if something did. */
export interface AcpWire {
  stream: Stream;
  /** Writes lines straight to the output, after what was written before; see `LineSink`. */
  writeLines: LineSink;
  /** Why the wire broke (reading from the editor failed, or writing to it), once it has. */
  failure(): AcpConnectionError | undefined;
  /** Whether the editor ended its input cleanly. */
  ended(): boolean;
}

/**
 * Writes text that is whole lines of JSON (each with its newline) to the output, after everything
 * handed to the output before. Returns a promise when the caller should wait before writing more
 * (the output's buffer is full); throws once the output has broken.
 */
export type LineSink = (text: string) => Promise<void> | undefined;

/** The most characters gathered before they are written out, without waiting for the turn to end. */
export const OUTPUT_CHUNK_CHARS = 64 * 1024;
/** The most bytes left waiting in a Node output's buffer before writes wait for it to drain. */
export const OUTPUT_BUFFER_BYTES = 1024 * 1024;

interface NodeWritable {
  write(chunk: string): boolean;
  readonly writableLength: number;
  once(event: "drain" | "close", listener: () => void): unknown;
  off?(event: "drain" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

function isNodeWritable(output: AcpStreams["output"]): output is AcpStreams["output"] & NodeWritable {
  return typeof (output as { once?: unknown }).once === "function" && typeof (output as { writableHighWaterMark?: unknown }).writableHighWaterMark === "number";
}

export function toSdkStream(streams: AcpStreams, options: AcpWireOptions = {}): AcpWire {
  const limits: LineLimits = { ...DEFAULT_LINE_LIMITS, ...options.limits };
  const logger = options.logger ?? silentLogger;
  const scanner = new LineScanner(limits);
  const iterator = streams.input[Symbol.asyncIterator]();
  // Set while the SDK reads the input: lines are handed to it here.
  let reading: ReadableStreamDefaultController<Uint8Array> | undefined;
  // Output that breaks (the editor went away) ends the connection at once, as failed input would,
  // rather than on the agent's next write, which may never come.
  const lines = new LineWriter(streams.output, (error) => {
    const controller = reading;
    reading = undefined;
    controller?.error(error);
    // The SDK does not cancel a stream that errored, so the input is let go of here.
    void release(streams.input, iterator).catch(() => undefined);
  });
  const encoder = new TextEncoder();
  let inputFailure: AcpConnectionError | undefined;
  let ended = false;

  const hand = (line: Uint8Array) => reading?.enqueue(line);
  const send = (message: AnyMessage): Promise<void> | undefined => {
    const written = messageLine(message);
    if (written.note) {
      logger[written.note.level](written.note.message);
    }
    if (written.unsent !== undefined) {
      // What waits for the answer to the agent's own request gets an error instead of waiting on.
      hand(errorLine(written.unsent, "the agent's request could not be written as JSON"));
    }
    return written.line === undefined ? undefined : lines.write(written.line);
  };
  /** Hands a line to the SDK or answers it here; says whether the SDK got a line, and what to wait for. */
  const take = (line: ScannedLine): { handed: boolean; wait?: Promise<void> | undefined } => {
    let answer: AnyMessage | undefined;
    if (line.kind === "accepted") {
      answer = unusableIdAnswer(line);
      if (!answer) {
        hand(line.bytes);
        return { handed: true };
      }
    } else {
      const outcome = refusedLineOutcome(line, limits);
      logger.warn(outcome.description);
      if (outcome.replacement) {
        hand(encoder.encode(`${JSON.stringify(outcome.replacement)}\n`));
        return { handed: true };
      }
      answer = outcome.answer;
    }
    if (answer) {
      try {
        const wait = send(answer);
        return wait ? { handed: false, wait } : { handed: false };
      } catch {
        // The output is broken: the connection finds out on its next write.
      }
    }
    return { handed: false };
  };

  const input = new ReadableStream<Uint8Array>({
    start: (controller) => {
      reading = controller;
    },
    pull: async (controller) => {
      // A pull that hands the SDK nothing is not called again, so this reads until a line goes through.
      for (;;) {
        let next: IteratorResult<string | Uint8Array>;
        try {
          next = await iterator.next();
        } catch (error) {
          if (reading === controller) {
            inputFailure = new AcpConnectionError("input_failed", "Reading from the editor failed", { cause: error });
            reading = undefined;
            controller.error(error);
            void release(streams.input, iterator).catch(() => undefined);
          }
          return;
        }
        if (reading !== controller) {
          return;
        }
        const scanned = next.done ? [scanner.end()] : scanner.push(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
        let handed = false;
        for (const line of scanned) {
          if (line) {
            const taken = take(line);
            handed ||= taken.handed;
            await taken.wait?.catch(() => undefined);
          }
        }
        if (next.done) {
          ended = true;
          reading = undefined;
          controller.close();
          return;
        }
        if (handed) {
          return;
        }
      }
    },
    cancel: async () => {
      reading = undefined;
      await release(streams.input, iterator);
    },
  });
  const decoder = new TextDecoder();
  // The SDK's framing writes here only its own answers to lines it could not parse: one message a write.
  const framing = new WritableStream<Uint8Array>({
    write: (chunk) => {
      const text = decoder.decode(chunk);
      let message: AnyMessage;
      try {
        message = JSON.parse(text) as AnyMessage;
      } catch {
        return lines.write(text);
      }
      return send(message);
    },
  });
  const framed = ndJsonStream(framing, input, { maxMessageBytes: limits.maxBytes });
  const messages = new WritableStream<AnyMessage>({
    write: (message) => send(message),
    close: () => lines.flushed(),
  });
  return {
    stream: { readable: framed.readable, writable: messages },
    writeLines: (text) => lines.write(text),
    failure: () => inputFailure ?? (lines.broken ? new AcpConnectionError("output_failed", "Writing to the editor failed", { cause: lines.broken }) : undefined),
    ended: () => ended,
  };
}

function errorLine(id: JsonRpcId, message: string): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify({ jsonrpc: "2.0", id, error: RequestError.internalError(undefined, message).toErrorResponse() })}\n`);
}

/**
 * Stops reading the input. A Node stream is destroyed: ending its iterator would wait for the read
 * in progress, that is for the editor's next line, and keep the process alive until then.
 */
async function release(input: AcpStreams["input"], iterator: AsyncIterator<string | Uint8Array>): Promise<void> {
  const destroy = (input as { destroy?: unknown }).destroy;
  if (typeof destroy === "function") {
    (destroy as () => void).call(input);
    return;
  }
  await iterator.return?.();
}

/**
 * Gathers text written in one turn of the event loop into one write, or into writes of
 * OUTPUT_CHUNK_CHARS when more comes. `write` returns a promise only when the caller should wait (a
 * full buffer, or many lines queued), so the common case costs no promise per line.
 */
class LineWriter {
  private pending: string[] = [];
  private pendingChars = 0;
  private scheduled: Promise<void> | undefined;
  /** Set while a write waits for the output to drain: what later writers wait on too. */
  private draining: Promise<void> | undefined;
  /** What broke the output, once something has. */
  broken: Error | undefined;

  constructor(
    private readonly output: AcpStreams["output"],
    private readonly onBroken: (error: Error) => void,
  ) {
    if (isNodeWritable(output)) {
      // An editor that goes away (EPIPE) must end the connection, not crash the process.
      output.on("error", (error) => this.break(error));
    }
  }

  private break(error: Error): void {
    if (!this.broken) {
      this.broken = error;
      this.onBroken(error);
    }
  }

  write(text: string): Promise<void> | undefined {
    if (this.broken) {
      throw this.broken;
    }
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= OUTPUT_CHUNK_CHARS) {
      // Enough for a write of its own: out now, so the editor reads while more lines are made.
      // A failed write shows up as `broken` on the next one.
      this.flush().catch(() => undefined);
      return this.draining;
    }
    if (!this.scheduled) {
      this.scheduled = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.scheduled = undefined;
        return this.flush();
      });
      // A failed write shows up as `broken` on the next one; nobody may be waiting on this batch.
      this.scheduled.catch(() => undefined);
    }
    return this.draining ?? (this.pending.length >= 512 ? this.scheduled : undefined);
  }

  /** Resolves once everything written so far has been handed to the output. */
  flushed(): Promise<void> | undefined {
    return this.scheduled;
  }

  private flush(): Promise<void> {
    if (this.pending.length === 0) {
      return this.draining ?? Promise.resolve();
    }
    const text = this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join("");
    this.pending = [];
    this.pendingChars = 0;
    if (this.broken) {
      return Promise.reject(this.broken);
    }
    const output = this.output;
    let flowing: unknown;
    try {
      flowing = output.write(text);
    } catch (error) {
      this.break(error instanceof Error ? error : new Error(String(error)));
      return Promise.reject(error);
    }
    if (!isNodeWritable(output) || flowing || output.writableLength <= OUTPUT_BUFFER_BYTES) {
      return this.draining ?? Promise.resolve();
    }
    this.draining ??= new Promise<void>((resolve) => {
      const done = () => {
        output.off?.("drain", done);
        output.off?.("close", done);
        this.draining = undefined;
        resolve();
      };
      output.once("drain", done);
      output.once("close", done);
    });
    return this.draining;
  }
}
