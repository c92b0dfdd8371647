// A copy of a value as JSON would make it, without the JSON text: the in-process store keeps its
// values this way. Strings are shared rather than copied (they cannot change), so a store that
// holds a 20 MB reply holds no second 20 MB of it, and a read costs the objects, not a parse.

import type { JsonValue } from "../types/json.js";

/**
 * What `JSON.parse(JSON.stringify(value))` gives, made without the text in between: `toJSON` is
 * called, boxed primitives are unboxed, non-finite numbers become null, undefined, functions and
 * symbols are left out of objects (null in arrays), and a cycle or a BigInt throws the TypeError
 * JSON.stringify throws. A value JSON.stringify would make nothing of (undefined at the top)
 * gives undefined. Objects and arrays are new; strings are the same strings.
 */
export function jsonCopy(value: unknown): JsonValue | undefined {
  return copyMember(value, "", []);
}

function copyMember(input: unknown, key: string, open: object[]): JsonValue | undefined {
  let value = input;
  if ((typeof value === "object" && value !== null) || typeof value === "bigint") {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      value = (toJSON as (key: string) => unknown).call(value, key);
    }
  }
  if (value instanceof Number) {
    value = Number(value);
  } else if (value instanceof String) {
    value = String(value);
  } else if (value instanceof Boolean) {
    value = value.valueOf();
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // -0 is written "0", which reads back as 0.
      return Number.isFinite(value) ? value + 0 : null;
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt");
    case "object":
      return value === null ? null : copyObject(value, open);
    default:
      return undefined;
  }
}

function copyObject(value: object, open: object[]): JsonValue {
  if (open.includes(value)) {
    throw new TypeError("Converting circular structure to JSON");
  }
  open.push(value);
  let copy: JsonValue;
  if (Array.isArray(value)) {
    const items: JsonValue[] = new Array<JsonValue>(value.length);
    for (let index = 0; index < value.length; index++) {
      items[index] = copyMember(value[index], String(index), open) ?? null;
    }
    copy = items;
  } else {
    const members: Record<string, JsonValue> = {};
    for (const name of Object.keys(value)) {
      const member = copyMember((value as Record<string, unknown>)[name], name, open);
      if (member === undefined) {
        continue;
      }
      if (name === "__proto__") {
        // JSON.parse makes it an own property; assigning it would set the prototype.
        Object.defineProperty(members, name, { value: member, enumerable: true, writable: true, configurable: true });
      } else {
        members[name] = member;
      }
    }
    copy = members;
  }
  open.pop();
  return copy;
}
