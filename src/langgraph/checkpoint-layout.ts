// Where WeftCheckpointSaver keeps each item in the store, and what the items hold.
//
// Under the saver's namespace N (default ["weft", "langgraph"]), with T the thread id and
// S = "ns:" + checkpoint_ns (a label may not be empty, and the root namespace is ""):
//   N + ["checkpoints", T, S]        key: the id in newest-first order   the checkpoint, no values
//   N + ["blobs", T, S]              key: [channel, version]             one channel value
//   N + ["writes", T, S, id]         key: [task id, index]               one pending write
// Channel values are kept once per channel version, as the Postgres saver does: a step stores only
// the channels it changed (`newVersions`), not the whole state again.

import type { RunnableConfig } from "@langchain/core/runnables";

import { WeftError } from "../errors/weft-error.js";
import type { JsonValue } from "../types/json.js";
import type { Stored } from "./stored-value.js";

export interface CheckpointRecord {
  thread: string;
  ns: string;
  id: string;
  parent: string | null;
  /** The checkpoint without its channel values, which live in blobs. */
  checkpoint: Stored;
  /** The metadata in the serializer's JSON form, so `list` can filter on it in the store. */
  metadata: JsonValue;
}

/** A task's regular writes, kept as one item so they are stored all at once. */
export interface WriteBatch {
  writes: WriteRecord[];
}

export interface WriteRecord {
  task: string;
  path: string;
  index: number;
  channel: string;
  value: Stored;
}

/** How many items a store read asks for at a time. */
export const PAGE = 100;

/** The namespaces of a thread's items under the saver's own. */
export class CheckpointLayout {
  constructor(readonly base: readonly string[]) {}

  checkpoints(thread: string, ns: string): string[] {
    return [...this.base, "checkpoints", thread, nsLabel(ns)];
  }

  blobs(thread: string, ns: string): string[] {
    return [...this.base, "blobs", thread, nsLabel(ns)];
  }

  writes(thread: string, ns: string, id: string): string[] {
    return [...this.base, "writes", thread, nsLabel(ns), id];
  }

  /** What `list` reads: every thread's checkpoints, one thread's, or those of one of its namespaces. */
  listed(thread: string | undefined, ns: string | undefined): string[] {
    return [...this.base, "checkpoints", ...(thread === undefined ? [] : [thread, ...(ns === undefined ? [] : [nsLabel(ns)])])];
  }

  /** One kind of a thread's items, in all its namespaces. */
  ofThread(kind: "checkpoints" | "writes" | "blobs", thread: string): string[] {
    return [...this.base, kind, thread];
  }
}

/** The config's thread id as text, or undefined when it names none. */
export function threadOf(config: RunnableConfig): string | undefined {
  const thread = config.configurable?.thread_id as unknown;
  return thread === undefined || thread === null ? undefined : String(thread);
}

/** The config's checkpoint namespace; "" (the root) when it names none. */
export function namespaceOf(config: RunnableConfig): string {
  return (config.configurable?.checkpoint_ns as string | undefined) ?? "";
}

function nsLabel(ns: string): string {
  return `ns:${ns}`;
}

/** The key of a channel value at one version. */
export function blobKey(channel: string, version: string | number): string {
  // The Postgres saver keeps versions as text too, so 1 and "1" are one version.
  return JSON.stringify([channel, String(version)]);
}

/**
 * A key that sorts the other way round from the id, so the store's ascending key order lists the
 * newest checkpoint first (ids are time-ordered uuid6). Each UTF-16 unit u becomes four hex digits
 * of 0xFFFF - u, and "~", above every hex digit, ends the key: an id that is a prefix of another
 * is older, and its key sorts after.
 */
export function newestFirstKey(id: string): string {
  let key = "";
  for (let index = 0; index < id.length; index++) {
    key += (0xffff - id.charCodeAt(index)).toString(16).padStart(4, "0");
  }
  return `${key}~`;
}

/** The error for a config that lacks what an action needs. */
export function missing(action: string, field: string): WeftError {
  return new WeftError(
    "invalid_option",
    `Cannot ${action}: the config has no configurable.${field}. Run the graph with { configurable: { thread_id: "…" } }.`,
  );
}
