// Compaction of a conversation: which older messages a summary stands for, the conversation as the
// model then sees it ([summary, recent messages]), and where the conversation may be cut: never
// between a tool call and its result. The conversation itself is never changed; the compaction is
// kept beside it, in the agent's state.

import type { Message, UserMessage } from "../types/messages.js";
import { estimateTokens } from "./context-window.js";

/** A summary of the start of a conversation, kept in the agent's state (checkpointed with it). */
export interface Compaction {
  id: string;
  /** What the model wrote of the messages it stands for (and of the compaction before it). */
  summary: string;
  /** How many of the conversation's first messages it stands for. */
  covered: number;
  /** The id of the last of them, so a conversation that changed before it is noticed. */
  through: string;
  createdAt: string;
}

/** Where a compaction's messages end in `messages`, or undefined when it no longer fits them. */
export function coveredCount(messages: readonly Message[], compaction: Compaction | null | undefined): number | undefined {
  if (!compaction) {
    return undefined;
  }
  if (messages[compaction.covered - 1]?.id === compaction.through) {
    return compaction.covered;
  }
  // Messages before it were taken out or changed (a refused prompt, a failed turn settled): find its last by id.
  const index = messages.findIndex((message) => message.id === compaction.through);
  return index >= 0 ? index + 1 : undefined;
}

/** The message that stands for a compaction's messages in what the model is sent. */
export function summaryMessage(compaction: Compaction): UserMessage {
  return {
    id: `summary_${compaction.id}`,
    role: "user",
    parts: [{ type: "text", text: `The start of this conversation was summarised to save room. The summary:\n\n${compaction.summary}` }],
    createdAt: compaction.createdAt,
  };
}

/**
 * The conversation as the model sees it: the summary, then the messages after the ones it stands
 * for. A compaction that no longer fits the conversation is left out (the whole conversation, to
 * be compacted again when it does not fit).
 */
export function compactedView(messages: readonly Message[], compaction: Compaction | null | undefined): Message[] {
  const covered = coveredCount(messages, compaction);
  return covered === undefined || !compaction ? messages.slice() : [summaryMessage(compaction), ...messages.slice(covered)];
}

/**
 * The places the conversation may be cut, as the index of the first message kept: a cut keeps
 * every tool call with its result (both before it or both after), and never starts the kept part
 * with a tool message. Ascending, from 1 to `messages.length` (everything summarised).
 */
export function cutPoints(messages: readonly Message[]): number[] {
  const calledAt = new Map<string, number>();
  // The furthest result each index's calls reach: a cut at i is fine when no call before i has its result at i or later.
  const answeredAt = new Array<number>(messages.length).fill(-1);
  messages.forEach((message, index) => {
    for (const part of message.parts) {
      if (part.type === "tool-call") {
        calledAt.set(part.toolCallId, index);
      } else if (part.type === "tool-result") {
        const call = calledAt.get(part.toolCallId);
        if (call !== undefined) {
          answeredAt[call] = Math.max(answeredAt[call] as number, index);
        }
      }
    }
  });
  const cuts: number[] = [];
  let reach = -1;
  for (let index = 1; index <= messages.length; index++) {
    reach = Math.max(reach, answeredAt[index - 1] as number);
    if (reach < index && messages[index]?.role !== "tool") {
      cuts.push(index);
    }
  }
  return cuts;
}

/** How a compaction is chosen: what it may leave as it is, in tokens (see chooseCut). */
export interface CutOptions {
  /** The first message not yet summarised (0 without a compaction). */
  start: number;
  /** At most this many tokens of recent messages are kept as they are (unless the last turn alone is more). */
  keep: number;
  /** Summarise everything that can be (on demand): no recent messages are kept. */
  all?: boolean | undefined;
}

/**
 * Where to cut the conversation for a compaction: the first message kept as it is, or undefined
 * when there is nothing to summarise. Kept are as many whole recent turns (from a person's
 * message on) as fit in `keep` tokens; when even the last turn does not fit (a long run of tool
 * calls), as many of its recent steps as fit; when not even its last step does, only that step.
 * At least one message is kept, unless `all`.
 */
export function chooseCut(messages: readonly Message[], options: CutOptions): number | undefined {
  const cuts = cutPoints(messages).filter((cut) => cut > options.start && (options.all || cut < messages.length));
  if (cuts.length === 0) {
    return undefined;
  }
  if (options.all) {
    return cuts.at(-1);
  }
  // The tokens of messages from each cut on, computed from the end.
  const tail = new Array<number>(messages.length + 1).fill(0);
  for (let index = messages.length - 1; index >= 0; index--) {
    tail[index] = (tail[index + 1] as number) + estimateTokens(messages[index]);
  }
  const fits = (cut: number) => (tail[cut] as number) <= options.keep;
  const turns = cuts.filter((cut) => messages[cut]?.role === "user");
  return turns.find(fits) ?? cuts.find(fits) ?? cuts.at(-1);
}

/**
 * The last resort when no summary can be had: the conversation from the oldest place it may be cut
 * (at or after `from`) whose prompt fits, as `fits` says; undefined when not even the last step does.
 * Whole turns go first, as cuts fall between them.
 */
export function dropOldest(messages: readonly Message[], from: number, fits: (kept: Message[]) => boolean): number | undefined {
  const cuts = [from, ...cutPoints(messages).filter((cut) => cut > from && cut < messages.length)];
  return cuts.find((cut) => fits(messages.slice(cut)));
}
