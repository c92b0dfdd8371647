// The conversation channel and small helpers for messages. Writes append messages, replace a
// message that has the same id, or (with `replaceMessages`) set the whole conversation, which is
// how a caller that keeps its own history hands it to a run.

import { randomUUID } from "node:crypto";

import { jsonEqual } from "../store-core/json-equal.js";
import type { JsonValue } from "../types/json.js";
import type { Message } from "../types/messages.js";
import type { Channel } from "./channels.js";

/** A write that makes the conversation exactly this list. */
export interface ReplaceMessages {
  replaceMessages: Message[];
}

export type MessagesWrite = Message | Message[] | ReplaceMessages;

export function replaceMessages(messages: Message[]): ReplaceMessages {
  return { replaceMessages: messages };
}

/** The messages channel: appends, replaces by id, and stores only a step's new messages. */
export function messagesChannel(): Channel<Message[], MessagesWrite> {
  return {
    storage: "list",
    initial: () => [],
    reduce: (current, writes) => {
      let next = current;
      for (const write of writes) {
        if (!Array.isArray(write) && "replaceMessages" in write) {
          next = write.replaceMessages.slice();
          continue;
        }
        next = mergeById(next, Array.isArray(write) ? write : [write]);
      }
      return next;
    },
    same: (left, right) => {
      if (left === right) {
        return true;
      }
      const a = left as Message;
      const b = right as Message;
      return a.id === b.id && jsonEqual(a as unknown as JsonValue, b as unknown as JsonValue);
    },
  };
}

/**
 * Where each id sits, shared by a list and the lists appended from it (entries are checked against
 * the list before use, so a stale one is harmless). Appending to a long conversation stays cheap.
 */
const positionsOf = new WeakMap<readonly Message[], Map<string, number>>();

function positions(list: readonly Message[]): Map<string, number> {
  let known = positionsOf.get(list);
  if (!known) {
    known = new Map(list.map((message, index) => [message.id, index]));
    positionsOf.set(list, known);
  }
  return known;
}

function mergeById(current: Message[], incoming: Message[]): Message[] {
  if (incoming.length === 0) {
    return current;
  }
  const known = positions(current);
  const next = current.slice();
  for (const message of incoming) {
    const position = known.get(message.id);
    if (position !== undefined && next[position]?.id === message.id) {
      next[position] = message;
    } else {
      known.set(message.id, next.length);
      next.push(message);
    }
  }
  positionsOf.set(next, known);
  return next;
}

/** A fresh message id. */
export function createMessageId(prefix = "msg"): string {
  return `${prefix}_${randomUUID().replaceAll("-", "")}`;
}

/** The text of a message's text parts, joined. */
export function messageText(message: Message): string {
  let text = "";
  for (const part of message.parts) {
    if (part.type === "text") {
      text += part.text;
    }
  }
  return text;
}

/** A user message with one text part. */
export function userMessage(text: string, id = createMessageId()): Message {
  return { id, role: "user", parts: [{ type: "text", text }], createdAt: new Date().toISOString() };
}
