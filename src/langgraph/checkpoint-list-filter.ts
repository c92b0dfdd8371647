// Filtering WeftCheckpointSaver's list on checkpoint metadata: what the store can match, and the
// rest matched here.

import { jsonEqual } from "../store-core/json-equal.js";
import type { JsonValue } from "../types/json.js";
import type { FieldCondition } from "../types/store.js";

/**
 * What `list` asks of the store, and what it checks itself: the store reads dotted paths as nested
 * fields, so a metadata key with a dot in it is matched here instead.
 */
export function listConditions(ns: string | undefined, beforeId: string | undefined, filter: Record<string, unknown>) {
  const store: Record<string, FieldCondition> = {};
  const local: Array<[string, unknown]> = [];
  if (ns !== undefined) {
    store.ns = { $eq: ns };
  }
  if (beforeId) {
    store.id = { $lt: beforeId };
  }
  for (const [key, value] of Object.entries(filter)) {
    if (key.includes(".")) {
      local.push([key, value]);
    } else {
      store[`metadata.${key}`] = value === undefined ? { $exists: false } : { $eq: value as JsonValue };
    }
  }
  return { store, local };
}

/** LangGraph's filter: a metadata value equal to the one asked for (JSON equality for objects). */
export function matches(actual: JsonValue | undefined, expected: unknown): boolean {
  if (expected === undefined) {
    return actual === undefined;
  }
  return actual !== undefined && jsonEqual(actual, expected as JsonValue);
}
