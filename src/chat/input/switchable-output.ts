// The output readline writes to: the terminal, except while chat mutes it, so keys typed while a
// turn streams are edited in readline's buffer without being echoed into the agent's answer.

import { Writable } from "node:stream";

export class SwitchableOutput extends Writable {
  /** While true, what readline writes (echo, prompt redraws) is dropped. */
  muted = false;

  constructor(private readonly target: NodeJS.WritableStream & { columns?: number | undefined }) {
    super();
    // readline lays out long lines by the terminal's width and redraws when it changes.
    target.on("resize", () => this.emit("resize"));
  }

  get columns(): number | undefined {
    return this.target.columns;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.muted) {
      this.target.write(chunk);
    }
    callback();
  }
}
