// readline's interface as chat's input drives it: its echo muted between questions (so keys typed
// while a turn streams are edited in its buffer unseen), the line being edited taken and put back,
// and its history kept to whole prompts. Two fields it relies on are readline's own, undocumented
// (see `resetHistory` and `unmute`).

import { createInterface, type Completer, type Interface } from "node:readline";

import { SwitchableOutput } from "./switchable-output.js";

export interface EditLineOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean | undefined };
  output: NodeJS.WritableStream & { isTTY?: boolean | undefined; columns?: number | undefined };
  /** A terminal: raw keys, line editing, bracketed paste. */
  terminal: boolean;
  /** Earlier prompts, newest first. */
  history?: string[] | undefined;
  /** Called with the whole history (newest first) whenever it changes. */
  onHistory?: ((history: string[]) => void) | undefined;
  completer?: Completer | undefined;
}

export class EditLine {
  readonly readline: Interface;
  private readonly echo: SwitchableOutput;
  private ended = false;
  /**
   * The prompts sent, newest first, one entry per prompt however many lines it has. readline adds
   * each line it reads to its own history; that is put back to this list after every line.
   */
  private history: string[];

  constructor(
    private readonly options: EditLineOptions,
    handlers: {
      /** A line entered (a recalled entry of several lines with its breaks as "\n"). */
      line(line: string): void;
      /** The input has ended. */
      close(): void;
    },
  ) {
    this.history = [...(options.history ?? [])];
    this.echo = new SwitchableOutput(options.output);
    this.echo.muted = true;
    this.readline = createInterface({
      input: options.input,
      output: this.echo,
      terminal: options.terminal,
      history: options.history ?? [],
      historySize: 500,
      removeHistoryDuplicates: true,
      ...(options.completer ? { completer: options.completer } : {}),
    });
    this.readline.on("line", (line) => {
      this.resetHistory();
      // Node 24's readline hands back a recalled multi-line entry with its lines joined by "\r".
      handlers.line(line.replace(/\r\n?/g, "\n"));
    });
    this.readline.on("close", () => {
      this.ended = true;
      handlers.close();
    });
  }

  /** True once the input has ended. */
  get closed(): boolean {
    return this.ended;
  }

  /** While true, readline's echo (and its prompt redraws) does not reach the screen. */
  get muted(): boolean {
    return this.echo.muted;
  }

  set muted(muted: boolean) {
    this.echo.muted = muted;
  }

  /** Adds a sent prompt to the history, whole (an earlier copy of it moves up), and saves it. */
  remember(text: string): void {
    if (text.trim() === "") {
      return;
    }
    this.history = [text, ...this.history.filter((entry) => entry !== text)].slice(0, 500);
    this.resetHistory();
    this.options.onHistory?.(this.history);
  }

  /**
   * Shows readline's echo again. What it drew while muted never reached the screen, and the cursor
   * is at the start of a fresh line, so its count of rows drawn above the cursor (an undocumented
   * field, used to redraw a wrapped line) starts again at zero rather than climbing into the answer.
   */
  unmute(): void {
    const layout = this.readline as unknown as { prevRows?: unknown };
    if (this.echo.muted && typeof layout.prevRows === "number") {
      layout.prevRows = 0;
    }
    this.echo.muted = false;
  }

  /** Takes what is typed on the edit line so far, leaving it empty. */
  take(): string {
    const line = this.options.terminal ? this.readline.line : "";
    this.clear();
    return line;
  }

  /** Puts `text` back on the edit line, as if typed. */
  restore(text: string): void {
    if (text !== "" && !this.ended) {
      this.readline.write(text);
    }
  }

  /** Empties the edit line. */
  clear(): void {
    if (this.options.terminal && !this.ended) {
      this.readline.write(null, { ctrl: true, name: "e" });
      this.readline.write(null, { ctrl: true, name: "u" });
    }
  }

  /** Empties the edit line without a redraw: what was typed stays on screen as it is. */
  clearUnseen(): void {
    const muted = this.echo.muted;
    this.echo.muted = true;
    this.clear();
    this.echo.muted = muted;
  }

  /** Moves the echo to a new line, when it shows. */
  echoNewLine(): void {
    if (!this.echo.muted) {
      this.echo.write("\n");
    }
  }

  /**
   * Puts readline's history (an undocumented field it edits in place) back to the prompts sent:
   * the lines of a prompt still being written, and answers to questions, are not entries of it.
   */
  private resetHistory(): void {
    const history = (this.readline as unknown as { history?: unknown }).history;
    if (Array.isArray(history)) {
      history.splice(0, history.length, ...this.history);
    }
  }
}
