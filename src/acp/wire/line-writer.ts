// LineWriter: the agent's output, written as whole lines of JSON. It gathers the lines of one turn
// of the event loop into one write, or into writes of 64 KiB when there is more: measured on a
// replay of 3,000 updates, the SDK's per-line writer (a text encoder and a stream writer per line)
// and one system call per line were most of the agent's time. When more than 1 MiB waits in the
// output's buffer, writes wait for 'drain', so a slow editor slows the agent instead of growing its
// memory; below that the agent goes on making lines while the editor reads.

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

/** Where the lines go: the `output` of AcpStreams. */
interface TextOutput {
  write(chunk: string): unknown;
}

interface NodeWritable {
  write(chunk: string): boolean;
  readonly writableLength: number;
  once(event: "drain" | "close", listener: () => void): unknown;
  off?(event: "drain" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

function isNodeWritable(output: TextOutput): output is TextOutput & NodeWritable {
  return typeof (output as { once?: unknown }).once === "function" && typeof (output as { writableHighWaterMark?: unknown }).writableHighWaterMark === "number";
}

/**
 * Gathers text written in one turn of the event loop into one write, or into writes of
 * OUTPUT_CHUNK_CHARS when more comes. `write` returns a promise only when the caller should wait (a
 * full buffer, or many lines queued), so the common case costs no promise per line.
 */
export class LineWriter {
  private pending: string[] = [];
  private pendingChars = 0;
  private scheduled: Promise<void> | undefined;
  /** Set while a write waits for the output to drain: what later writers wait on too. */
  private draining: Promise<void> | undefined;
  /** What broke the output, once something has. */
  broken: Error | undefined;

  constructor(
    private readonly output: TextOutput,
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
