// Evaluates search filters on item values. Drivers fetch candidates in order and filter here, so
// filter semantics cannot drift between drivers.

import type { JsonValue } from "../types/json.js";
import type { FieldCondition } from "../types/store.js";
import { jsonEqual } from "./json-equal.js";

const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"]);

/** True when `value` meets every condition of `filter`. */
export function matchesFilter(value: JsonValue, filter: Record<string, FieldCondition> | undefined): boolean {
  if (filter === undefined) {
    return true;
  }
  for (const [path, condition] of Object.entries(filter)) {
    if (!matchesCondition(readPath(value, path), condition)) {
      return false;
    }
  }
  return true;
}

function readPath(value: JsonValue, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = value;
  for (const segment of path.split(".")) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) {
      return undefined;
    }
    current = current[segment];
  }
  return current;
}

function isOperatorObject(condition: FieldCondition): condition is Exclude<FieldCondition, JsonValue> {
  if (condition === null || typeof condition !== "object" || Array.isArray(condition)) {
    return false;
  }
  const keys = Object.keys(condition);
  return keys.length > 0 && keys.every((key) => OPERATORS.has(key));
}

function matchesCondition(actual: JsonValue | undefined, condition: FieldCondition): boolean {
  if (!isOperatorObject(condition)) {
    return actual !== undefined && jsonEqual(actual, condition as JsonValue);
  }
  for (const [operator, operand] of Object.entries(condition) as [string, JsonValue][]) {
    if (!applyOperator(actual, operator, operand)) {
      return false;
    }
  }
  return true;
}

function applyOperator(actual: JsonValue | undefined, operator: string, operand: JsonValue): boolean {
  switch (operator) {
    case "$exists":
      return (actual !== undefined) === Boolean(operand);
    case "$eq":
      return actual !== undefined && jsonEqual(actual, operand);
    case "$ne":
      return actual === undefined || !jsonEqual(actual, operand);
    case "$in":
      return actual !== undefined && Array.isArray(operand) && operand.some((candidate) => jsonEqual(actual, candidate));
    case "$nin":
      return !Array.isArray(operand) || actual === undefined || !operand.some((candidate) => jsonEqual(actual, candidate));
    default:
      return compareOrdered(actual, operator, operand);
  }
}

function compareOrdered(actual: JsonValue | undefined, operator: string, operand: JsonValue): boolean {
  const comparable =
    (typeof actual === "number" && typeof operand === "number") ||
    (typeof actual === "string" && typeof operand === "string");
  if (!comparable) {
    return false;
  }
  const order = actual < operand ? -1 : actual > operand ? 1 : 0;
  switch (operator) {
    case "$gt":
      return order > 0;
    case "$gte":
      return order >= 0;
    case "$lt":
      return order < 0;
    case "$lte":
      return order <= 0;
    default:
      return false;
  }
}
