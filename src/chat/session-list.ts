// How chat lists an agent's sessions (`weft chat --list`, `/sessions`): in the agent's order, each
// with when it was last used in words, and the sessions one-shot runs started kept apart, so a
// script's hundred runs do not bury a person's conversations: one line counts them, and `--all`
// shows them too, marked.

import type * as acp from "@agentclientprotocol/sdk";

import type { ChatSessionEntry } from "./chat-sessions.js";
import type { Style } from "./terminal-style.js";

export interface SessionListOptions {
  /** Show the sessions one-shot runs started too. */
  all: boolean;
  style: Style;
  /** The time the list is made at, for "5 minutes ago". */
  now: Date;
}

/**
 * The lines that list `sessions` (without line ends): each session's id, when it was used and its
 * title; a session in `startedByRuns` is left out and counted, or with `all` shown with a mark
 * (and the name its run gave it). Empty when there is nothing at all to list.
 */
export function sessionListLines(sessions: readonly acp.SessionInfo[], startedByRuns: ReadonlyMap<string, ChatSessionEntry>, options: SessionListOptions): string[] {
  const { style } = options;
  const lines: string[] = [];
  let left = 0;
  for (const session of sessions) {
    const run = startedByRuns.get(session.sessionId);
    if (run && !options.all) {
      left++;
      continue;
    }
    const mark = run ? `  ${style.dim(`(weft chat -p${run.name === undefined ? "" : `, --session ${run.name}`})`)}` : "";
    lines.push(`${session.sessionId}  ${style.dim(whenUsed(session.updatedAt, options.now).padEnd(16))}  ${session.title ?? ""}${mark}`);
  }
  if (left > 0) {
    const more = lines.length > 0 ? " more" : "";
    lines.push(style.dim(`(${left}${more} started by one-shot runs (weft chat -p); weft chat --list --all shows ${left === 1 ? "it" : "them"})`));
  }
  return lines;
}

/** When a session was used, in words: "just now", "5 minutes ago", "3 hours ago", or its local date and time. */
export function whenUsed(time: string | null | undefined, now: Date): string {
  const then = time ? new Date(time) : undefined;
  if (!then || Number.isNaN(then.getTime())) {
    return "";
  }
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) {
    return "just now";
  }
  if (minutes < 60) {
    return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  }
  const two = (value: number) => String(value).padStart(2, "0");
  return `${then.getFullYear()}-${two(then.getMonth() + 1)}-${two(then.getDate())} ${two(then.getHours())}:${two(then.getMinutes())}`;
}
