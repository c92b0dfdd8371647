// The stored form of a session's list entry: one item per session under `index`, keyed by its id,
// holding what `session/list` shows of it, so a list reads one namespace and no conversation.

import { definedFields } from "../../types/defined-fields.js";
import type { JsonObject, JsonValue } from "../../types/json.js";
import { type AcpSessionRecord, type AcpSessionSummary, summarize } from "./session-store.js";

/** The index entry of a record (its summary; the id is the item's key). */
export function encodeIndexEntry(record: AcpSessionRecord): JsonObject {
  const summary = summarize(record);
  return { cwd: summary.cwd, updatedAt: summary.updatedAt, ...definedFields(summary, ["additionalDirectories", "owner", "title"]) };
}

/** The summary an index entry holds, or undefined when it is not one (no directory or time to list it by). */
export function decodeIndexEntry(sessionId: string, value: JsonValue): AcpSessionSummary | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value) || typeof value.cwd !== "string" || typeof value.updatedAt !== "string") {
    return undefined;
  }
  const summary: AcpSessionSummary = { sessionId, cwd: value.cwd, updatedAt: value.updatedAt };
  const directories = value.additionalDirectories;
  if (Array.isArray(directories) && directories.length > 0) {
    summary.additionalDirectories = directories.filter((directory) => typeof directory === "string");
  }
  if (typeof value.title === "string" && value.title) {
    summary.title = value.title;
  }
  if (typeof value.owner === "string") {
    summary.owner = value.owner;
  }
  return summary;
}
