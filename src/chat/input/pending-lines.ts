// What the pending area shows while chat is busy (input/pending-area.ts draws it): the prompts
// queued, the question waiting for a key, and the prompt being typed, under the labels the input
// gives a prompt's lines.

import { visibleWidth } from "../markdown.js";
import type { AreaCursor } from "./pending-area.js";

/** The label of a prompt's later lines. */
export const continuationPrompt = "… ";
/** The label of the line being typed while chat is busy: it is the next prompt. */
export const pendingPrompt = "next › ";

export interface Pending {
  /** The prompts queued, oldest first. */
  queue: readonly string[];
  /** The question waiting for a key, and whether it takes keys yet. */
  question: { text: string; ready: boolean } | undefined;
  /** Lines of the prompt being written, before the one being edited. */
  draft: readonly string[];
  /** The line being edited, and where the cursor is in it. */
  typed: string;
  cursor: number;
  dim(text: string): string;
}

/** The area's lines, and where its cursor goes (undefined: the end of the last line). */
export function pendingLines({ queue, question, draft, typed, cursor, dim }: Pending): { lines: string[]; cursor: AreaCursor | undefined } {
  const lines: string[] = [];
  const typing = typed !== "" || draft.length > 0;
  for (const text of queue) {
    const [first, ...more] = text.split("\n");
    lines.push(dim(`⧗ queued: ${first ?? ""}${more.length > 0 ? ` (+${more.length} more line${more.length > 1 ? "s" : ""})` : ""}`));
  }
  if (question) {
    lines.push(`${question.text}${question.ready && !typing ? " › " : ""}`);
    if (typing) {
      lines.push(dim("    (to answer: Enter queues the line you are typing, Ctrl-U clears it)"));
    }
  }
  if (!typing) {
    return { lines, cursor: undefined };
  }
  draft.forEach((line, index) => lines.push(`${dim(index === 0 ? pendingPrompt : continuationPrompt)}${line}`));
  const label = draft.length === 0 ? pendingPrompt : continuationPrompt;
  // A recalled prompt of several lines is one line here, its breaks shown as ↵.
  const shown = (text: string) => text.replaceAll("\n", "↵");
  lines.push(`${dim(label)}${shown(typed)}`);
  return { lines, cursor: { line: lines.length - 1, column: visibleWidth(label) + visibleWidth(shown(typed.slice(0, cursor))) } };
}
