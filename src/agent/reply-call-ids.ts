// The ids a reply's tool calls are kept under. A model names its calls, but not every server keeps
// the names unique: some number them from call_0 in every reply, some give two calls of one reply
// the same id. The conversation, the approvals asked, the results matched to their calls and the
// editor's tool cards all go by that id, so a call whose id is already taken gets one of its own
// (call_0_2, call_0_3...), used from its first streamed part on. A unique id is kept as it is.

import type { Message } from "../types/messages.js";

/** The tool-call ids a conversation already holds. */
export function callIdsOf(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const part of message.parts) {
        if (part.type === "tool-call") {
          ids.add(part.toolCallId);
        }
      }
    }
  }
  return ids;
}

export class ReplyCallIds {
  private taken: Set<string> | undefined;
  /** The id each call being streamed was given, by the id the model sent. */
  private readonly streaming = new Map<string, string>();

  /** `taken` is asked for only when a reply makes its first call. */
  constructor(private readonly readTaken: () => Set<string> = () => new Set()) {}

  /** A call starts streaming its input. */
  started(modelId: string): string {
    const id = this.claim(modelId);
    this.streaming.set(modelId, id);
    return id;
  }

  /** A part of the input of a call that is streaming. */
  during(modelId: string): string {
    return this.streaming.get(modelId) ?? modelId;
  }

  /** A call is complete: the id it streamed under, or, for one that did not stream, a new one. */
  completed(modelId: string): string {
    const id = this.streaming.get(modelId);
    if (id !== undefined) {
      this.streaming.delete(modelId);
      return id;
    }
    return this.claim(modelId);
  }

  private claim(modelId: string): string {
    this.taken ??= this.readTaken();
    const base = modelId === "" ? "call" : modelId;
    let id = base;
    for (let copy = 2; this.taken.has(id); copy++) {
      id = `${base}_${copy}`;
    }
    this.taken.add(id);
    return id;
  }
}
