// A value as plain JSON, for what must be stored or sent: class instances become their JSON form,
// undefined becomes null, and what cannot be serialised (a cycle) its string. Made with jsonCopy,
// so no JSON text is built and parsed again, and strings are shared.

import type { JsonValue } from "../types/json.js";
import { jsonCopy } from "./json-copy.js";

export function toJson(value: unknown): JsonValue {
  if (value === undefined) {
    return null;
  }
  try {
    // A function or symbol has no JSON form: like a cycle, it is kept as its string.
    return jsonCopy(value) ?? String(value);
  } catch {
    return String(value);
  }
}
