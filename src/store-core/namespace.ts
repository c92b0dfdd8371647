// Namespace rules and the one encoding every driver sorts and prefix-matches by, so that ordering
// and "starts with" mean the same thing in memory, SQLite, Postgres and Redis.

import { InvalidNamespaceError } from "../errors/store-errors.js";
import type { Namespace } from "../types/store.js";

/** Throws unless every label is a non-empty string without NUL. */
export function checkNamespace(namespace: Namespace, { allowEmpty = false } = {}): void {
  if (!Array.isArray(namespace)) {
    throw new InvalidNamespaceError([namespace], "a namespace is an array of labels");
  }
  if (namespace.length === 0 && !allowEmpty) {
    throw new InvalidNamespaceError(namespace, "it has no labels");
  }
  for (const label of namespace) {
    if (typeof label !== "string" || label.length === 0) {
      throw new InvalidNamespaceError(namespace, "every label is a non-empty string");
    }
    if (label.includes("\u0000")) {
      throw new InvalidNamespaceError(namespace, "labels may not contain NUL");
    }
  }
}

/** Throws unless the key is a non-empty string without NUL. */
export function checkKey(namespace: Namespace, key: string): void {
  if (typeof key !== "string" || key.length === 0 || key.includes("\u0000")) {
    throw new InvalidNamespaceError(namespace, `invalid key ${JSON.stringify(key)}`);
  }
}

// Each label is escaped so that \u0001 never occurs inside it, then terminated by \u0001. The
// terminator sorts below every escaped character, so comparing encodings compares labels one by
// one, and the encoding of a prefix is a string prefix of the encoding of everything under it.
// eslint-disable-next-line no-control-regex -- the control characters are the point of the encoding
const ESCAPE = /[\u0001\u0002]/g;

export function encodeNamespace(namespace: Namespace): string {
  let encoded = "";
  for (const label of namespace) {
    encoded += label.replace(ESCAPE, (character) => (character === "\u0001" ? "\u0002\u0003" : "\u0002\u0004"));
    encoded += "\u0001";
  }
  return encoded;
}

export function decodeNamespace(encoded: string): string[] {
  const labels = encoded.split("\u0001");
  labels.pop();
  // eslint-disable-next-line no-control-regex -- undoing the escapes above
  return labels.map((label) => label.replace(/\u0002([\u0003\u0004])/g, (_, code: string) => (code === "\u0003" ? "\u0001" : "\u0002")));
}

/**
 * The range of the encodings of the namespaces under `prefix`, for range scans: `encoded >= lower
 * && encoded < upper`, where `upper` is the smallest string greater than every encoding that starts
 * with `lower`. The empty prefix has no upper bound.
 */
export function prefixRange(prefix: Namespace): { lower: string; upper: string | undefined } {
  const lower = encodeNamespace(prefix);
  // Every encoded prefix ends with the terminator \u0001; \u0002 is the next code point.
  return { lower, upper: lower === "" ? undefined : `${lower.slice(0, -1)}\u0002` };
}

/** Compares by Unicode code point, the order UTF-8 bytes sort in (JS `<` compares UTF-16 units). */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a === b) {
      continue;
    }
    const aSurrogate = a >= 0xd800 && a <= 0xdfff;
    const bSurrogate = b >= 0xd800 && b <= 0xdfff;
    if (aSurrogate !== bSurrogate) {
      // A surrogate (a code point above U+FFFF) sorts after any BMP character.
      return aSurrogate ? 1 : -1;
    }
    return a - b;
  }
  return left.length - right.length;
}

export function namespaceStartsWith(namespace: Namespace, prefix: Namespace): boolean {
  return prefix.length <= namespace.length && prefix.every((label, index) => namespace[index] === label);
}

export function namespaceEndsWith(namespace: Namespace, suffix: Namespace): boolean {
  const offset = namespace.length - suffix.length;
  return offset >= 0 && suffix.every((label, index) => namespace[offset + index] === label);
}
