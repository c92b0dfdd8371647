// Reading a session's conversation from its message items: the segments of the writes, walked
// back from the one `meta` names as its head, each index taken from the newest segment that covers
// it; and which items no committed record reaches (left for the next write that commits to remove).

import type { Message } from "../../types/messages.js";
import type { Namespace, Store } from "../../types/store.js";
import type { StoredMeta } from "./stored-meta-codec.js";
import { decodeMessageItem } from "./stored-message-codec.js";

/** A conversation as read. */
export interface Conversation {
  history: Message[];
  /** The segment each message was read from. */
  segments: string[];
  /** The keys of the message items no committed record reaches. */
  garbage: string[];
}

/** The conversation `meta` commits to, from its segments; undefined when an item it reaches is missing. */
export async function readConversation(store: Store, namespace: Namespace, meta: StoredMeta): Promise<Conversation | undefined> {
  const segments = new Map<string, { from: number; after: string | undefined; messages: Map<number, Message> }>();
  const keys: Array<{ key: string; write: string; index: number }> = [];
  // One read for the whole conversation (its messages, `meta`, `lease`, and a few leftovers).
  const limit = meta.count + 64;
  for (let offset = 0; ; offset += limit) {
    const page = await store.search(namespace, { limit, offset });
    for (const item of page) {
      const entry = decodeMessageItem(item.key, item.value);
      if (!entry) {
        continue;
      }
      const write = entry.write;
      let segment = segments.get(write);
      if (!segment) {
        segment = { from: entry.from, after: entry.after, messages: new Map() };
        segments.set(write, segment);
      }
      segment.messages.set(entry.index, entry.message);
      keys.push({ key: item.key, write, index: entry.index });
    }
    if (page.length < limit) {
      break;
    }
  }
  const history: Message[] = new Array<Message>(meta.count);
  const from: string[] = new Array<string>(meta.count);
  let write: string | undefined = meta.head ?? "";
  let segment = segments.get(write);
  for (let index = meta.count - 1; index >= 0; index--) {
    while (segment && index < segment.from) {
      write = segment.after;
      segment = write === undefined ? undefined : segments.get(write);
    }
    const message = segment?.messages.get(index);
    if (!message || write === undefined) {
      return undefined;
    }
    history[index] = message;
    from[index] = write;
  }
  const garbage = keys.filter(({ write, index }) => from[index] !== write).map(({ key }) => key);
  return { history, segments: from, garbage };
}
