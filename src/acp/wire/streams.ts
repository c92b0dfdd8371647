// Adapts the agent's byte streams (process.stdin and process.stdout, or any pair like them) to the
// message streams the ACP SDK's connection reads and writes, so that no input ends the connection.
//
// Reading holds every line to the line limits (line-limits.ts) before the SDK's own newline-delimited
// JSON framing parses it, with its answers to malformed lines. A line over the limits never reaches
// the SDK: it is answered here (refused-line.ts), and reading goes on at the next newline; so is a
// request with an id ACP does not allow, which the SDK would echo.
// Writing turns each message into one line with messageLine(), which never throws (an error's `data`
// is bounded), and hands it to a LineWriter (line-writer.ts), which gathers lines into few writes
// and waits when the editor reads slowly. A replay's lines, already written as JSON, can be handed
// over whole (`writeLines`).

import { type AnyMessage, type JsonRpcId, ndJsonStream, RequestError, type Stream } from "@agentclientprotocol/sdk";

import { silentLogger, type Logger } from "../../types/logger.js";
import { AcpConnectionError } from "./connection-error.js";
import { DEFAULT_LINE_LIMITS, LineScanner, type LineLimits, type ScannedLine } from "./line-limits.js";
import { type LineSink, LineWriter } from "./line-writer.js";
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
