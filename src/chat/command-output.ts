// A command's output as `weft chat` shows it under its tool call: indented, dimmed, at most a screen's
// worth of lines per command (the rest counted), then how it ended. Live output arrives in chunks
// that may split lines; a replay has the whole text at once.

import type * as acp from "@agentclientprotocol/sdk";

import type { Style } from "./terminal-style.js";

/** Lines of one command's output shown before the rest is only counted. */
export const SHOWN_OUTPUT_LINES = 40;

export class CommandOutput {
  private partial = "";
  private shown = 0;
  private hidden = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly style: Style,
  ) {}

  /** Shows the whole lines of a chunk; a line's unfinished end waits for the next chunk. */
  add(chunk: string): void {
    const lines = (this.partial + chunk).split("\n");
    this.partial = lines.pop() ?? "";
    lines.forEach((line) => this.line(line));
  }

  /** Shows the unfinished last line, what was left out, and the exit status. */
  end(status: acp.TerminalExitStatus | undefined): void {
    if (this.partial !== "") {
      this.line(this.partial);
      this.partial = "";
    }
    if (this.hidden > 0) {
      this.write(`    ${this.style.dim(`│ … ${this.hidden} more line${this.hidden === 1 ? "" : "s"}`)}\n`);
      this.hidden = 0;
    }
    if (status) {
      const ok = status.exitCode === 0 && !status.signal;
      const how = status.signal ? `killed by ${status.signal}` : `exit ${status.exitCode ?? "unknown"}`;
      this.write(`    ${this.style.dim("└")} ${ok ? this.style.green(how) : this.style.red(how)}\n`);
    }
  }

  private line(line: string): void {
    if (this.shown >= SHOWN_OUTPUT_LINES) {
      this.hidden++;
      return;
    }
    this.shown++;
    // eslint-disable-next-line no-control-regex -- a command's own colours and cursor moves are dropped
    this.write(`    ${this.style.dim(`│ ${line.replace(/\u001b\[[0-9;?]*[A-Za-z]|\r/g, "")}`)}\n`);
  }
}
