// What the person types into `weft chat`, never lost: lines entered while a turn streams (or before
// the session is ready) are shown below the output as they are typed, queued and handed out as the
// next prompts; a paste, or a run of lines that arrive together, is one prompt; a trailing
// backslash or Alt+Enter starts another line. The history holds whole prompts, one entry each. A question asked by key takes only a key pressed on
// purpose: none while a line is being typed, none in its first moment on screen.

import { createInterface, type Completer, type Interface, type Key } from "node:readline";

import { visibleWidth } from "../markdown.js";
import type { PendingArea } from "./pending-area.js";
import { SwitchableOutput } from "./switchable-output.js";

export interface ChatInputOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean | undefined };
  output: NodeJS.WritableStream & { isTTY?: boolean | undefined; columns?: number | undefined };
  /** A terminal: raw keys, line editing, bracketed paste. */
  terminal: boolean;
  /** Earlier prompts, newest first. */
  history?: string[] | undefined;
  /** Called with the whole history (newest first) whenever it changes. */
  onHistory?: ((history: string[]) => void) | undefined;
  completer?: Completer | undefined;
  /** On a terminal: where what is typed while chat is busy is shown, below the output. */
  area?: PendingArea | undefined;
  /** How text is dimmed (hints, the label of the line being typed). */
  dim?: ((text: string) => string) | undefined;
  /** How long a question asked by key takes no key after it is shown, in milliseconds (default 400). */
  keyGuardMs?: number | undefined;
}

const continuationPrompt = "… ";
/** The label of the line being typed while chat is busy: it is the next prompt. */
const pendingPrompt = "next › ";
const pasteOn = "\u001b[?2004h";
const pasteOff = "\u001b[?2004l";

/**
 * Owns the readline interface. Chat asks it for the next prompt with `next()`, for a typed answer
 * with `ask()`, or for one key with `askKey()`; in between it stays muted and queues what is typed.
 */
export class ChatInput {
  readonly readline: Interface;
  private readonly echo: SwitchableOutput;
  private readonly queue: string[] = [];
  /** Lines of a prompt still being written (after a backslash, Alt+Enter, or inside a paste). */
  private draft: string[] = [];
  /** Lines that arrived in the same burst of input; sent together as one prompt. */
  private burst: string[] = [];
  private pasting = false;
  private closed = false;
  private prompt = "";
  private waiting: ((text: string | undefined) => void) | undefined;
  private lineAnswer: ((text: string | undefined) => void) | undefined;
  private keyAnswer: ((key: Key) => void) | undefined;
  /** The question waiting for a key, drawn in the area, and whether it takes keys yet. */
  private question: { text: string; ready: boolean } | undefined;
  /** The edit line as it was before readline took the key being handled. */
  private before = { line: "", drafted: 0 };
  /**
   * The prompts sent, newest first, one entry per prompt however many lines it has. readline adds
   * each line it reads to its own history; that is put back to this list after every line.
   */
  private history: string[];

  constructor(private readonly options: ChatInputOptions) {
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
      this.onLine(line.replace(/\r\n?/g, "\n"));
    });
    this.readline.on("close", () => this.onClose());
    if (options.terminal) {
      // readline's own listener edits the line first; this one sees the line as it was.
      options.input.prependListener("keypress", () => {
        this.before = { line: this.readline.line, drafted: this.draft.length };
      });
      options.input.on("keypress", (_text: string | undefined, key: Key | undefined) => {
        if (key) {
          this.onKey(key);
        }
      });
      options.output.write(pasteOn);
    }
  }

  /**
   * The next prompt: a queued one at once (shown after `prompt` as if typed now), or whatever the
   * person enters next. Undefined once the input has ended and nothing is queued.
   */
  next(prompt: string): Promise<string | undefined> {
    const queued = this.queue.shift();
    if (queued !== undefined) {
      this.options.area?.show([]);
      this.print(`${prompt}${queued.replaceAll("\n", `\n${continuationPrompt}`)}\n`);
      this.refresh();
      return Promise.resolve(queued);
    }
    if (this.closed) {
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      this.prompt = prompt;
      this.waiting = (text) => {
        this.echo.muted = true;
        // readline ended the line with Enter: the cursor is at the start of the next.
        this.options.area?.atLineStart();
        resolve(text);
      };
      const area = this.options.area;
      if (area?.shown && this.draft.length > 0) {
        // The lines written so far were in the area: they stay on screen above the one being edited.
        area.show([]);
        this.print(`${prompt}${this.draft.join(`\n${continuationPrompt}`)}\n`);
      } else {
        area?.show([]);
      }
      this.showPrompt();
    });
  }

  /** One typed line as the answer to a question (a form field, a permission without a terminal). */
  ask(question: string): Promise<string | undefined> {
    if (this.closed) {
      return Promise.resolve(undefined);
    }
    const kept = this.takeLine();
    return new Promise((resolve) => {
      this.lineAnswer = (text) => {
        this.lineAnswer = undefined;
        this.echo.muted = true;
        this.options.area?.atLineStart();
        this.readline.setPrompt(this.draft.length > 0 ? continuationPrompt : this.prompt);
        this.restoreLine(kept);
        this.refresh();
        resolve(text);
      };
      this.options.area?.show([]);
      this.unmute();
      this.readline.setPrompt(question);
      this.readline.prompt();
    });
  }

  /**
   * One key from `keys`, without Enter (a terminal only). The question is drawn below the output,
   * and takes a key only once it has been on screen for a moment (`keyGuardMs`, when it ends the
   * question shows `›`) and only while no line is being typed: keys pressed before that, or that
   * belong to a word being typed, go to the line being typed, which Enter queues. Other keys are
   * typed too. Undefined when withdrawn by `cancel()` or when the input ends.
   */
  askKey(question: string, keys: readonly string[]): Promise<string | undefined> {
    if (this.closed) {
      return Promise.resolve(undefined);
    }
    const asked = { text: question, ready: false };
    this.question = asked;
    this.refresh();
    const guard = setTimeout(() => {
      asked.ready = true;
      this.refresh();
    }, this.options.keyGuardMs ?? 400);
    return new Promise((resolve) => {
      const finish = (answer: string | undefined) => {
        clearTimeout(guard);
        this.keyAnswer = undefined;
        this.cancelAnswer = undefined;
        this.question = undefined;
        this.options.area?.show([]);
        this.print(`${question} › ${answer ?? ""}\n`);
        this.refresh();
        resolve(answer);
      };
      this.cancelAnswer = () => finish(undefined);
      this.keyAnswer = (key) => {
        const name = key.sequence?.toLowerCase();
        const typing = this.before.line !== "" || this.before.drafted > 0;
        if (asked.ready && !typing && !key.ctrl && !key.meta && name !== undefined && keys.includes(name)) {
          // readline has put the key on the edit line too: it was an answer, not typing.
          this.clearLine();
          finish(name);
        }
      };
    });
  }

  /** Withdraws an open question (`ask` or `askKey`): it resolves undefined. */
  cancel(): void {
    this.lineAnswer?.(undefined);
    this.cancelAnswer?.();
  }

  /** Stops reading and leaves the terminal as it was. */
  close(): void {
    this.options.area?.show([]);
    if (this.options.terminal) {
      this.options.output.write(pasteOff);
    }
    this.readline.close();
  }

  private cancelAnswer: (() => void) | undefined;

  private onLine(line: string): void {
    if (this.lineAnswer) {
      this.lineAnswer(line);
      return;
    }
    if (this.pasting) {
      this.draft.push(line);
      this.continueDraft();
      return;
    }
    if (line.endsWith("\\")) {
      this.draft.push(line.slice(0, -1));
      this.continueDraft();
      return;
    }
    this.burst.push(line);
    if (this.burst.length === 1) {
      // Lines that came in one read (a paste without bracketed paste mode) make one prompt.
      setImmediate(() => this.flushBurst());
    }
  }

  private onKey(key: Key): void {
    this.keyAnswer?.(key);
    if (key.name === "paste-start") {
      this.pasting = true;
    } else if (key.name === "paste-end") {
      // Each pasted line already moved on to a continuation line; the rest stays to be edited.
      this.pasting = false;
    } else if (key.name === "return" && key.meta && !this.lineAnswer) {
      // Alt+Enter: readline ignores it; it ends this line of the prompt without sending.
      this.draft.push(this.readline.line);
      // The line stays on screen as typed; only readline's buffer is emptied.
      const muted = this.echo.muted;
      this.echo.muted = true;
      this.clearLine();
      this.echo.muted = muted;
      if (!this.echo.muted) {
        this.echo.write("\n");
      }
      this.continueDraft();
    }
    // Typed while chat is busy: shown below the output (after the line event a key may have sent).
    setImmediate(() => this.refresh());
  }

  /** Draws what is pending while chat is busy: the question waiting for a key and the line being typed. */
  private refresh(): void {
    const area = this.options.area;
    if (!area || this.closed) {
      return;
    }
    if (this.waiting || this.lineAnswer) {
      // readline shows the line itself.
      return;
    }
    const dim = this.options.dim ?? ((text: string) => text);
    const lines: string[] = [];
    const typed = this.readline.line;
    const typing = typed !== "" || this.draft.length > 0;
    for (const text of this.queue) {
      const [first, ...more] = text.split("\n");
      lines.push(dim(`⧗ queued: ${first ?? ""}${more.length > 0 ? ` (+${more.length} more line${more.length > 1 ? "s" : ""})` : ""}`));
    }
    if (this.question) {
      lines.push(`${this.question.text}${this.question.ready && !typing ? " › " : ""}`);
      if (typing) {
        lines.push(dim("    (to answer: Enter queues the line you are typing, Ctrl-U clears it)"));
      }
    }
    let cursor: { line: number; column: number } | undefined;
    if (typing) {
      this.draft.forEach((line, index) => lines.push(`${dim(index === 0 ? pendingPrompt : continuationPrompt)}${line}`));
      const label = this.draft.length === 0 ? pendingPrompt : continuationPrompt;
      // A recalled prompt of several lines is one line here, its breaks shown as ↵.
      const shown = (text: string) => text.replaceAll("\n", "↵");
      lines.push(`${dim(label)}${shown(typed)}`);
      cursor = { line: lines.length - 1, column: visibleWidth(label) + visibleWidth(shown(typed.slice(0, this.readline.cursor))) };
    }
    area.show(lines, cursor);
  }

  private print(text: string): void {
    if (this.options.area) {
      this.options.area.write(text);
    } else {
      this.options.output.write(text);
    }
  }

  private onClose(): void {
    this.closed = true;
    this.flushBurst();
    if (this.draft.length > 0) {
      this.submit(this.draft.join("\n"));
      this.draft = [];
    }
    this.lineAnswer?.(undefined);
    this.cancelAnswer?.();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(this.queue.shift());
  }

  private flushBurst(): void {
    if (this.burst.length === 0) {
      return;
    }
    const text = [...this.draft, ...this.burst].join("\n");
    this.draft = [];
    this.burst = [];
    this.readline.setPrompt(this.prompt);
    this.submit(text);
  }

  private submit(text: string): void {
    this.remember(text);
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting(text);
      return;
    }
    if (text.trim() === "") {
      return;
    }
    // Shown below the output until its turn comes (refresh()), never in the middle of a reply.
    this.queue.push(text);
    this.refresh();
  }

  /**
   * Takes the queued prompts back into the prompt being written, to be edited or sent with Enter
   * (a cancelled turn's queue is not sent on its own: it was written for a turn that did not finish).
   */
  unqueue(): void {
    if (this.queue.length === 0) {
      return;
    }
    const typed = this.options.terminal ? this.readline.line : "";
    const lines = this.queue.splice(0).flatMap((text) => text.split("\n"));
    if (typed !== "") {
      // What was being typed stays the line being edited, below the queued ones.
      this.draft.push(...lines);
    } else {
      const last = lines.pop() ?? "";
      this.draft.push(...lines);
      this.restoreLine(last);
    }
    this.readline.setPrompt(this.draft.length > 0 ? continuationPrompt : this.prompt);
    this.refresh();
  }

  private continueDraft(): void {
    this.readline.setPrompt(continuationPrompt);
    if (!this.echo.muted) {
      this.readline.prompt(true);
    }
  }

  private showPrompt(): void {
    this.readline.setPrompt(this.draft.length > 0 ? continuationPrompt : this.prompt);
    this.unmute();
    this.readline.prompt(true);
  }

  /** Adds a sent prompt to the history, whole (an earlier copy of it moves up), and saves it. */
  private remember(text: string): void {
    if (text.trim() === "") {
      return;
    }
    this.history = [text, ...this.history.filter((entry) => entry !== text)].slice(0, 500);
    this.resetHistory();
    this.options.onHistory?.(this.history);
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

  /**
   * Shows readline's echo again. What it drew while muted never reached the screen, and the cursor
   * is at the start of a fresh line, so its count of rows drawn above the cursor (an undocumented
   * field, used to redraw a wrapped line) starts again at zero rather than climbing into the answer.
   */
  private unmute(): void {
    const layout = this.readline as unknown as { prevRows?: unknown };
    if (this.echo.muted && typeof layout.prevRows === "number") {
      layout.prevRows = 0;
    }
    this.echo.muted = false;
  }

  /** Takes what is typed on the edit line so far, leaving it empty. */
  private takeLine(): string {
    const line = this.options.terminal ? this.readline.line : "";
    this.clearLine();
    return line;
  }

  private restoreLine(text: string): void {
    if (text !== "" && !this.closed) {
      this.readline.write(text);
    }
  }

  private clearLine(): void {
    if (this.options.terminal && !this.closed) {
      this.readline.write(null, { ctrl: true, name: "e" });
      this.readline.write(null, { ctrl: true, name: "u" });
    }
  }
}
