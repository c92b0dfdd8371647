// The long-term store contract: namespaced JSON items that any driver (memory, SQLite, Postgres,
// Redis) keeps the same way. Checkpoints, ACP sessions and an agent's own memory all live in one.

import type { JsonValue } from "./json.js";

/**
 * Where an item lives: a path of labels. Labels are matched whole: `["alice"]` is a prefix of
 * `["alice", "notes"]` but not of `["alicia"]`. A label may hold any characters except NUL
 * (`_`, `:`, `/`, `.` and non-ASCII are all fine) and may not be empty.
 */
export type Namespace = readonly string[];

/** An item as a store returns it. */
export interface StoreItem<V extends JsonValue = JsonValue> {
  namespace: string[];
  key: string;
  value: V;
  /** ISO-8601 time of the first write. */
  createdAt: string;
  /** ISO-8601 time of the last write. */
  updatedAt: string;
  /** ISO-8601 time after which the item is gone, when it was written with a TTL. */
  expiresAt?: string | undefined;
  /**
   * Counts the writes since the item was created (the first write is 1). `compareAndPut` uses it
   * to write only over the version a caller read.
   */
  revision: number;
}

export interface PutOptions {
  /** Milliseconds until the item expires and reads no longer see it. Omitted: it never expires. */
  ttlMs?: number | undefined;
}

export interface CompareAndPutOptions extends PutOptions {
  /** The revision the caller read, or 0 for "only if there is no such item". */
  expected: number;
}

/**
 * A condition on one field of an item's value. A bare value means `$eq`. Paths may be dotted
 * (`"author.name"`). Comparisons between values of different JSON types never match.
 */
export type FieldCondition =
  | JsonValue
  | {
      $eq?: JsonValue | undefined;
      $ne?: JsonValue | undefined;
      $gt?: number | string | undefined;
      $gte?: number | string | undefined;
      $lt?: number | string | undefined;
      $lte?: number | string | undefined;
      $in?: JsonValue[] | undefined;
      $nin?: JsonValue[] | undefined;
      $exists?: boolean | undefined;
    };

export interface SearchOptions {
  /** Every condition must hold. */
  filter?: Record<string, FieldCondition> | undefined;
  /** Default 10. */
  limit?: number | undefined;
  /** Default 0. */
  offset?: number | undefined;
}

export interface ListNamespacesOptions {
  /** Only namespaces that start with these labels. */
  prefix?: Namespace | undefined;
  /** Only namespaces that end with these labels. */
  suffix?: Namespace | undefined;
  /** Cut longer namespaces to this many labels (duplicates are then listed once). */
  maxDepth?: number | undefined;
  /** Default 100. */
  limit?: number | undefined;
  /** Default 0. */
  offset?: number | undefined;
}

/**
 * A long-term store. Every driver passes the shared contract suite, so code written against this
 * interface behaves the same on each of them.
 *
 * Ordering: `search` returns items ordered by namespace, then key, comparing labels and keys by
 * Unicode code point; `listNamespaces` uses the same order. Expired items are invisible to every
 * method.
 */
export interface Store {
  get(namespace: Namespace, key: string): Promise<StoreItem | undefined>;
  /** Writes an item, creating it or replacing its value. */
  put(namespace: Namespace, key: string, value: JsonValue, options?: PutOptions): Promise<void>;
  /**
   * Writes an item only if its revision is still `expected` (0: only if it does not exist).
   * Resolves with the new revision, or `undefined` when someone else wrote first.
   */
  compareAndPut(
    namespace: Namespace,
    key: string,
    value: JsonValue,
    options: CompareAndPutOptions,
  ): Promise<number | undefined>;
  /** Removes an item; removing one that does not exist is not an error. */
  delete(namespace: Namespace, key: string): Promise<void>;
  /**
   * Items whose namespace starts with `prefix` (`[]` is everything). Other calls may run while it
   * does and are served: the page then holds each matching item that was there throughout once,
   * and items written or removed meanwhile may or may not be in it.
   */
  search(prefix: Namespace, options?: SearchOptions): Promise<StoreItem[]>;
  listNamespaces(options?: ListNamespacesOptions): Promise<string[][]>;
  /** Releases connections or file handles. The store is not used after it. */
  close?(): Promise<void>;
}
