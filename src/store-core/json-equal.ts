// Equality as a store sees values: two JSON values are the same when they hold the same data,
// whatever the order of their object keys. Filters compare with it, and checkpoints use it to see
// that a list item is unchanged (so a step that keeps it stores nothing).

import type { JsonValue } from "../types/json.js";

/** Deep equality of JSON values; object key order does not matter. */
export function jsonEqual(left: JsonValue, right: JsonValue): boolean {
  if (left === right) {
    return true;
  }
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) {
    return false;
  }
  if (Array.isArray(left) !== Array.isArray(right)) {
    return false;
  }
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => jsonEqual(item, right[index] as JsonValue));
  }
  const leftObject = left as Record<string, JsonValue>;
  const rightObject = right as Record<string, JsonValue>;
  const leftKeys = Object.keys(leftObject);
  if (leftKeys.length !== Object.keys(rightObject).length) {
    return false;
  }
  return leftKeys.every((key) => key in rightObject && jsonEqual(leftObject[key] as JsonValue, rightObject[key] as JsonValue));
}
