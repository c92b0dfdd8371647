// The stored form of one message of a conversation: the item `m:<index>:<write>`, which names the
// write (segment) it belongs to, the segment's first index and the segment it follows. Version 1
// items, `m:<index>`, have neither and are read as one segment named "".

import { jsonCopy } from "../../store-core/json-copy.js";
import type { JsonObject, JsonValue } from "../../types/json.js";
import type { Message } from "../../types/messages.js";

/** A message item's value. */
export interface MessageItem {
  index: number;
  message: Message;
  /** The write (segment) it belongs to; "" for version 1. */
  write: string;
  /** The segment's first index (0 for version 1). */
  from: number;
  /** The segment before it, which holds the indexes below `from`. */
  after?: string | undefined;
}

/** The key of a message of a segment (version 1's, named "", has none after the index). */
export function messageKey(index: number, write: string): string {
  const position = `m:${String(index).padStart(9, "0")}`;
  return write === "" ? position : `${position}:${write}`;
}

/** A message item as the store keeps it. The message goes in as JSON makes it, as any store would keep it. */
export function encodeMessageItem(item: MessageItem): JsonObject {
  const value: JsonObject = { index: item.index, message: jsonCopy(item.message) ?? null, write: item.write, from: item.from };
  if (item.after !== undefined) {
    value.after = item.after;
  }
  return value;
}

/** The message item an item of a session's namespace holds, or undefined when it holds none (`meta`, `lease`, a foreign item). */
export function decodeMessageItem(key: string, value: JsonValue): MessageItem | undefined {
  if (!key.startsWith("m:") || typeof value !== "object" || value === null || Array.isArray(value)) {
    return undefined;
  }
  const { index, message, write, from, after } = value;
  if (typeof index !== "number" || !isMessage(message)) {
    return undefined;
  }
  const item: MessageItem = { index, message, write: typeof write === "string" ? write : "", from: typeof from === "number" ? from : 0 };
  if (typeof after === "string") {
    item.after = after;
  }
  return item;
}

/**
 * True for a kept message: an id, a role and a list of parts. The parts are as the encoder wrote
 * them (a message is kept whole, and checking every part on every read would cost the conversation).
 */
export function isMessage(value: unknown): value is Message {
  if (typeof value !== "object" || value === null || !("id" in value) || !("role" in value) || !("parts" in value)) {
    return false;
  }
  return typeof value.id === "string" && typeof value.role === "string" && ["system", "user", "assistant", "tool"].includes(value.role) && Array.isArray(value.parts);
}
