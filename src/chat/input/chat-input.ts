// What the person types into `weft chat`, never lost: lines entered while a turn streams (or before
// the session is ready) are shown below the output as they are typed, queued and handed out as the
// next prompts; a paste, or a run of lines that arrive together, is one prompt; a trailing
// backslash or Alt+Enter starts another line. A question asked by key takes only a key pressed on
// purpose: none while a line is being typed, none in its first moment on screen. readline itself,
// with its echo, edit line and history of whole prompts, is input/edit-line.ts; what is drawn below
// the output while chat is busy, input/pending-lines.ts.

import type { Interface, Key } from "node:readline";

import { EditLine, type EditLineOptions } from "./edit-line.js";
import type { PendingArea } from "./pending-area.js";
import { continuationPrompt, pendingLines } from "./pending-lines.js";

export interface ChatInputOptions extends EditLineOptions {
  /** On a terminal: where what is typed while chat is busy is shown, below the output. */
  area?: PendingArea | undefined;
  /** How text is dimmed (hints, the label of the line being typed). */
  dim?: ((text: string) => string) | undefined;
  /** How long a question asked by key takes no key after it is shown, in milliseconds (default 400). */
  keyGuardMs?: number | undefined;
}

const pasteOn = "\u001b[?2004h";
const pasteOff = "\u001b[?2004l";

/**
 * Owns the readline interface. Chat asks it for the next prompt with `next()`, for a typed answer
 * with `ask()`, or for one key with `askKey()`; in between it stays muted and queues what is typed.
 */
export class ChatInput {
  readonly readline: Interface;
  private readonly edit: EditLine;
  private readonly queue: string[] = [];
  /** Lines of a prompt still being written (after a backslash, Alt+Enter, or inside a paste). */
  private draft: string[] = [];
  /** Lines that arrived in the same burst of input; sent together as one prompt. */
  private burst: string[] = [];
  private pasting = false;
  private prompt = "";
  private waiting: ((text: string | undefined) => void) | undefined;
  private lineAnswer: ((text: string | undefined) => void) | undefined;
  private keyAnswer: ((key: Key) => void) | undefined;
  private cancelAnswer: (() => void) | undefined;
  /** The question waiting for a key, drawn in the area, and whether it takes keys yet. */
  private question: { text: string; ready: boolean } | undefined;
  /** The edit line as it was before readline took the key being handled. */
  private before = { line: "", drafted: 0 };

  constructor(private readonly options: ChatInputOptions) {
    this.edit = new EditLine(options, { line: (line) => this.onLine(line), close: () => this.onClose() });
    this.readline = this.edit.readline;
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
    if (this.edit.closed) {
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      this.prompt = prompt;
      this.waiting = (text) => {
        this.edit.muted = true;
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
    if (this.edit.closed) {
      return Promise.resolve(undefined);
    }
    const kept = this.edit.take();
    return new Promise((resolve) => {
      this.lineAnswer = (text) => {
        this.lineAnswer = undefined;
        this.edit.muted = true;
        this.options.area?.atLineStart();
        this.readline.setPrompt(this.draft.length > 0 ? continuationPrompt : this.prompt);
        this.edit.restore(kept);
        this.refresh();
        resolve(text);
      };
      this.options.area?.show([]);
      this.edit.unmute();
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
    if (this.edit.closed) {
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
          this.edit.clear();
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
      this.edit.clearUnseen();
      this.edit.echoNewLine();
      this.continueDraft();
    }
    // Typed while chat is busy: shown below the output (after the line event a key may have sent).
    setImmediate(() => this.refresh());
  }

  /** Draws what is pending while chat is busy: the question waiting for a key and the line being typed. */
  private refresh(): void {
    const area = this.options.area;
    if (!area || this.edit.closed) {
      return;
    }
    if (this.waiting || this.lineAnswer) {
      // readline shows the line itself.
      return;
    }
    const dim = this.options.dim ?? ((text: string) => text);
    const { lines, cursor } = pendingLines({ queue: this.queue, question: this.question, draft: this.draft, typed: this.readline.line, cursor: this.readline.cursor, dim });
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
    this.edit.remember(text);
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
      this.edit.restore(last);
    }
    this.readline.setPrompt(this.draft.length > 0 ? continuationPrompt : this.prompt);
    this.refresh();
  }

  private continueDraft(): void {
    this.readline.setPrompt(continuationPrompt);
    if (!this.edit.muted) {
      this.readline.prompt(true);
    }
  }

  private showPrompt(): void {
    this.readline.setPrompt(this.draft.length > 0 ? continuationPrompt : this.prompt);
    this.edit.unmute();
    this.readline.prompt(true);
  }
}
