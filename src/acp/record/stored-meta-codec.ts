// The stored form of a session's `meta` item: everything of its record but the conversation, and
// where the conversation is (how many messages, the segment holding the last). A write commits by
// replacing it, so a read trusts what it reaches; this file owns what it holds and how it is read.

import { jsonCopy } from "../../store-core/json-copy.js";
import type { JsonValue } from "../../types/json.js";
import type { Message } from "../../types/messages.js";
import type { ProtocolInterrupt } from "../../graph/protocol-graph.js";
import type { AcpConfigValues } from "./config-values.js";
import type { AcpContentBlock } from "./content-block.js";
import type { AcpSessionInfo, AcpSessionRecord, AcpTurnRecord, AcpUsageRecord } from "./session-store.js";
import { isMessage } from "./stored-message-codec.js";

/** What `meta` holds. */
export interface StoredMeta {
  /** 2: messages in segments; 1: one item `m:<index>` per message (read as one segment, named ""). */
  v: 1 | 2;
  info: AcpSessionInfo;
  always: Array<[string, boolean]>;
  config?: AcpConfigValues | undefined;
  title?: string | undefined;
  usage?: AcpUsageRecord | undefined;
  pending?: ProtocolInterrupt[] | undefined;
  answered?: Record<string, unknown> | undefined;
  turn?: AcpTurnRecord | undefined;
  updatedAt: string;
  /** How many messages the conversation has. */
  count: number;
  /** The segment holding the last message (absent with no messages, or in a version 1 record). */
  head?: string | undefined;
}

/** The `meta` of `record`, whose conversation has `count` messages and ends in segment `head`. */
export function encodeMeta(record: AcpSessionRecord, count: number, head: string | undefined): JsonValue {
  const meta: StoredMeta = { v: 2, info: record.info, always: record.always, updatedAt: record.updatedAt, count };
  if (head !== undefined) {
    meta.head = head;
  }
  copyParts(record, meta);
  // As JSON makes it, which is what any store keeps of it.
  return jsonCopy(meta) ?? null;
}

/**
 * What a `meta` value holds, or undefined when it is not a session's `meta`. Each field is checked
 * for its kind and the fields a reader relies on; deeper data (an MCP server's fields, a message's
 * parts, an interrupt's question) is as the encoder wrote it.
 */
export function decodeMeta(value: JsonValue): StoredMeta | undefined {
  if (!isObject(value)) {
    return undefined;
  }
  const { v, info, updatedAt, count } = value;
  if ((v !== 1 && v !== 2) || !isSessionInfo(info) || typeof updatedAt !== "string" || typeof count !== "number") {
    return undefined;
  }
  const meta: StoredMeta = { v, info, always: [], updatedAt, count };
  // Absent fields stay absent, so a record reads back as it was written.
  for (const field of Object.keys(OPTIONAL_FIELDS) as OptionalField[]) {
    if (!readField(meta, value, field)) {
      return undefined;
    }
  }
  return meta;
}

/** The fields of `meta` that may be absent, and what each must be when it is there. */
type OptionalField = "always" | "config" | "title" | "usage" | "pending" | "answered" | "turn" | "head";
const OPTIONAL_FIELDS: { [K in OptionalField]: (value: unknown) => value is StoredMeta[K] } = {
  always: isAlways,
  config: isConfigValues,
  title: isString,
  usage: isUsage,
  pending: isInterrupts,
  answered: isObject,
  turn: isTurn,
  head: isString,
};

/** Copies `field` of `value` into `meta` when it is there; false when it is there but not what it must be. */
function readField<K extends OptionalField>(meta: StoredMeta, value: Record<string, unknown>, field: K): boolean {
  const fieldValue = value[field];
  if (fieldValue === undefined) {
    return true;
  }
  if (!OPTIONAL_FIELDS[field](fieldValue)) {
    return false;
  }
  meta[field] = fieldValue;
  return true;
}

/** The record `meta` and its conversation make. */
export function recordOf(meta: StoredMeta, history: Message[]): AcpSessionRecord {
  const record: AcpSessionRecord = { info: meta.info, history, always: meta.always, updatedAt: meta.updatedAt };
  copyParts(meta, record);
  return record;
}

/** The parts of a record that it and `meta` hold only when there is something in them. */
type SessionParts = Pick<AcpSessionRecord, "config" | "title" | "usage" | "pending" | "answered" | "turn">;

/** Copies each part of `from` that holds something to `to`: no empty list of questions or of answers. */
function copyParts(from: SessionParts, to: SessionParts): void {
  if (from.config) {
    to.config = from.config;
  }
  if (from.title !== undefined) {
    to.title = from.title;
  }
  if (from.usage) {
    to.usage = from.usage;
  }
  if (from.pending?.length) {
    to.pending = from.pending;
  }
  if (from.answered && Object.keys(from.answered).length > 0) {
    to.answered = from.answered;
  }
  if (from.turn) {
    to.turn = from.turn;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

function isSessionInfo(value: unknown): value is AcpSessionInfo {
  return (
    isObject(value) &&
    typeof value.id === "string" &&
    typeof value.cwd === "string" &&
    Array.isArray(value.mcpServers) &&
    value.mcpServers.every(isObject) &&
    (value.additionalDirectories === undefined || (Array.isArray(value.additionalDirectories) && value.additionalDirectories.every(isString))) &&
    (value.owner === undefined || typeof value.owner === "string")
  );
}

function isAlways(value: unknown): value is Array<[string, boolean]> {
  return Array.isArray(value) && value.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === "string" && typeof entry[1] === "boolean");
}

function isConfigValues(value: unknown): value is AcpConfigValues {
  return isObject(value) && Object.values(value).every((option) => typeof option === "string" || typeof option === "boolean");
}

function isUsage(value: unknown): value is AcpUsageRecord {
  if (!isObject(value) || typeof value.used !== "number") {
    return false;
  }
  const cost = value.cost;
  return cost === undefined || (isObject(cost) && typeof cost.amount === "number" && typeof cost.currency === "string");
}

function isInterrupts(value: unknown): value is ProtocolInterrupt[] {
  return Array.isArray(value) && value.every(isInterrupt);
}

function isInterrupt(value: unknown): value is ProtocolInterrupt {
  return isObject(value) && typeof value.id === "string" && typeof value.node === "string" && "value" in value && (value.schema === undefined || isObject(value.schema));
}

function isTurn(value: unknown): value is AcpTurnRecord {
  return (
    isObject(value) &&
    (value.kind === "invoke" || value.kind === "resume") &&
    isMessage(value.user) &&
    typeof value.startedAt === "string" &&
    (value.blocks === undefined || (Array.isArray(value.blocks) && value.blocks.every(isContentBlock))) &&
    (value.answers === undefined || isObject(value.answers))
  );
}

function isContentBlock(value: unknown): value is AcpContentBlock {
  return isObject(value) && typeof value.type === "string";
}
