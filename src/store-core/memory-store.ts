// The in-process store: the reference driver for the contract suite, and the default for tests
// and for runs that need no durability. It sits here, below graph/ and stores/, because a graph
// compiled without a store keeps its threads in one.

import type { JsonValue } from "../types/json.js";
import type { CompareAndPutOptions, ListNamespacesOptions, Namespace, PutOptions, SearchOptions, Store, StoreItem } from "../types/store.js";
import { jsonCopy } from "./json-copy.js";
import { selectNamespaces } from "./list-namespaces.js";
import { takePage } from "./page.js";
import {
  checkKey,
  checkNamespace,
  compareCodePoints,
  decodeNamespace,
  encodeNamespace,
} from "./namespace.js";

interface Entry {
  /** A copy of the value as JSON would make it, which nothing outside the store holds. */
  value: JsonValue;
  createdAt: string;
  updatedAt: string;
  expiresAt?: number | undefined;
  revision: number;
}

/**
 * Keeps items in this process. Values are copied on the way in and out, as JSON would copy them,
 * so callers never share objects with it; strings are shared, not copied (see jsonCopy), and a
 * large value costs no JSON text.
 */
export class MemoryStore implements Store {
  private readonly namespaces = new Map<string, Map<string, Entry>>();

  async get(namespace: Namespace, key: string): Promise<StoreItem | undefined> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const encoded = encodeNamespace(namespace);
    const entry = this.live(encoded, key);
    return entry && toItem(namespace, key, entry);
  }

  async put(namespace: Namespace, key: string, value: JsonValue, options: PutOptions = {}): Promise<void> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    this.write(encodeNamespace(namespace), key, value, options);
  }

  async compareAndPut(
    namespace: Namespace,
    key: string,
    value: JsonValue,
    options: CompareAndPutOptions,
  ): Promise<number | undefined> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const encoded = encodeNamespace(namespace);
    const current = this.live(encoded, key);
    if ((current?.revision ?? 0) !== options.expected) {
      return undefined;
    }
    return this.write(encoded, key, value, options);
  }

  async delete(namespace: Namespace, key: string): Promise<void> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const encoded = encodeNamespace(namespace);
    const entries = this.namespaces.get(encoded);
    entries?.delete(key);
    if (entries?.size === 0) {
      this.namespaces.delete(encoded);
    }
  }

  async search(prefix: Namespace, options: SearchOptions = {}): Promise<StoreItem[]> {
    checkNamespace(prefix, { allowEmpty: true });
    const encodedPrefix = encodeNamespace(prefix);
    const matching = [...this.namespaces.keys()].filter((encoded) => encoded.startsWith(encodedPrefix)).sort(compareCodePoints);
    const live = (encoded: string, key: string) => this.live(encoded, key);
    const keysOf = (encoded: string) => [...(this.namespaces.get(encoded)?.keys() ?? [])].sort(compareCodePoints);
    const items = function* () {
      for (const encoded of matching) {
        const namespace = decodeNamespace(encoded);
        for (const key of keysOf(encoded)) {
          const entry = live(encoded, key);
          if (entry) {
            yield toItem(namespace, key, entry);
          }
        }
      }
    };
    return takePage(items(), options);
  }

  async listNamespaces(options: ListNamespacesOptions = {}): Promise<string[][]> {
    const live: string[][] = [];
    for (const [encoded, entries] of this.namespaces) {
      if ([...entries.keys()].some((key) => this.live(encoded, key))) {
        live.push(decodeNamespace(encoded));
      }
    }
    return selectNamespaces(live, options);
  }

  private live(encoded: string, key: string): Entry | undefined {
    const entries = this.namespaces.get(encoded);
    const entry = entries?.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      entries?.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(encoded: string, key: string, value: JsonValue, options: PutOptions): number {
    const now = new Date();
    let entries = this.namespaces.get(encoded);
    if (!entries) {
      entries = new Map();
      this.namespaces.set(encoded, entries);
    }
    const current = this.live(encoded, key);
    const entry: Entry = {
      value: jsonCopy(value) ?? null,
      createdAt: current?.createdAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
      revision: (current?.revision ?? 0) + 1,
    };
    if (options.ttlMs !== undefined) {
      entry.expiresAt = now.getTime() + options.ttlMs;
    }
    entries.set(key, entry);
    return entry.revision;
  }
}

function toItem(namespace: Namespace, key: string, entry: Entry): StoreItem {
  const item: StoreItem = {
    namespace: [...namespace],
    key,
    value: jsonCopy(entry.value) as JsonValue,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    revision: entry.revision,
  };
  if (entry.expiresAt !== undefined) {
    item.expiresAt = new Date(entry.expiresAt).toISOString();
  }
  return item;
}
