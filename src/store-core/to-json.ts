// A value as plain JSON, for what must be stored or sent: class instances become their JSON form,
// undefined becomes null, and what cannot be serialised (a cycle) its string.

import type { JsonValue } from "../types/json.js";

export function toJson(value: unknown): JsonValue {
  if (value === undefined) {
    return null;
  }
  try {
    return JSON.parse(JSON.stringify(value)) as JsonValue;
  } catch {
    return String(value);
  }
}
