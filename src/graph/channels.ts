// State channels: how a node's writes combine into the next state, and how a step's change is
// stored. List channels store only what a step appended (plus how much of the old list it kept),
// so a checkpoint costs the size of the step, not of the whole conversation.

import { jsonEqual } from "../store-core/json-equal.js";
import type { JsonValue } from "../types/json.js";

/** How a channel combines writes. `V` is its value, `W` what a node may write to it. */
export interface Channel<V = unknown, W = unknown> {
  /** `list` channels are checkpointed as appends; `value` channels as whole values. */
  readonly storage: "value" | "list";
  initial(): V;
  /** Combines the writes of one step, in node order, with the current value. */
  reduce(current: V, writes: readonly W[]): V;
  /** For list channels: true when two items are the same (so a step that keeps them stores nothing). */
  same?(left: unknown, right: unknown): boolean;
}

/** A value that each write replaces. */
export function valueChannel<V>(initial: V | (() => V)): Channel<V, V> {
  return {
    storage: "value",
    initial: () => (typeof initial === "function" ? (initial as () => V)() : structuredClone(initial)),
    reduce: (current, writes) => (writes.length === 0 ? current : (writes[writes.length - 1] as V)),
  };
}

/** A list that writes append to (one item or several at a time). */
export function listChannel<T>(): Channel<T[], T | T[]> {
  return {
    storage: "list",
    initial: () => [],
    reduce: (current, writes) => {
      if (writes.length === 0) {
        return current;
      }
      const next = current.slice();
      for (const write of writes) {
        if (Array.isArray(write)) {
          next.push(...(write as T[]));
        } else {
          next.push(write);
        }
      }
      return next;
    },
    same: (left, right) => left === right || jsonEqual(left as JsonValue, right as JsonValue),
  };
}

/** A value combined with each write by `reduce`, such as a counter or a merged record. */
export function reducerChannel<V, W>(initial: V | (() => V), reduce: (current: V, write: W) => V): Channel<V, W> {
  return {
    storage: "value",
    initial: () => (typeof initial === "function" ? (initial as () => V)() : structuredClone(initial)),
    reduce: (current, writes) => writes.reduce(reduce, current),
  };
}

/** How a step changed one channel, as a checkpoint keeps it. */
export type ChannelChange = { set: unknown } | { keep: number; append: unknown[] };

/** The change from `before` to `after`, or undefined when there is none. */
export function diffChannel(channel: Channel, before: unknown, after: unknown): ChannelChange | undefined {
  if (before === after) {
    return undefined;
  }
  if (channel.storage === "value") {
    return { set: after };
  }
  const old = before as unknown[];
  const next = after as unknown[];
  const same = channel.same ?? ((left: unknown, right: unknown) => left === right);
  let keep = 0;
  const limit = Math.min(old.length, next.length);
  while (keep < limit && same(old[keep], next[keep])) {
    keep++;
  }
  if (keep === old.length && keep === next.length) {
    return undefined;
  }
  return { keep, append: next.slice(keep) };
}

/** Applies a stored change to a channel's value. */
export function applyChange(value: unknown, change: ChannelChange): unknown {
  if ("set" in change) {
    return change.set;
  }
  return (value as unknown[]).slice(0, change.keep).concat(change.append);
}
