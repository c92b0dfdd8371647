// A checkpoint value as WeftCheckpointSaver keeps it in a store item: the serializer's JSON as JSON,
// so it can be read and filtered on, and any other bytes as base64.

import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";

import type { JsonValue } from "../types/json.js";

/** A serialized value as the store keeps it: JSON as JSON (readable, filterable), other bytes as base64. */
export type Stored = { type: string; json: JsonValue } | { type: string; base64: string };

const decoder = new TextDecoder();

/** A value as the store keeps it, turned into bytes by `serde`. */
export async function encodeValue(serde: SerializerProtocol, value: unknown): Promise<Stored> {
  const [type, bytes] = await serde.dumpsTyped(value);
  if (type === "json") {
    try {
      return { type, json: JSON.parse(decoder.decode(bytes)) as JsonValue };
    } catch {
      // Not JSON after all: keep the bytes.
    }
  }
  return { type, base64: Buffer.from(bytes).toString("base64") };
}

/** A value the store keeps, back from `serde`. */
export function decodeValue(serde: SerializerProtocol, stored: Stored): Promise<unknown> {
  return "json" in stored
    ? serde.loadsTyped(stored.type, JSON.stringify(stored.json))
    : serde.loadsTyped(stored.type, new Uint8Array(Buffer.from(stored.base64, "base64")));
}
