// A value's JSON text as UTF-8 bytes, written straight into one buffer of the right size: what the
// store drivers send. JSON.stringify would first build the text as a string (in V8, a rope of
// 16 KiB pieces, flattened again when a driver encodes it), so a 20 MB reply would cost 40 MB of
// heap per write, kept until the next full collection; here it costs the buffer alone.

import { jsonCopy } from "./json-copy.js";
import type { JsonValue } from "../types/json.js";

/** What JSON.stringify escapes in a string: `"`, `\`, control characters and lone surrogates. */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const ESCAPED = /["\\\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const escapes = new Map<string, { text: string; extra: number }>();

/** How JSON.stringify writes `character`, and how many bytes more than its UTF-8 that takes. */
function escapeOf(character: string): { text: string; extra: number } {
  let escape = escapes.get(character);
  if (!escape) {
    const text = JSON.stringify(character).slice(1, -1);
    escape = { text, extra: text.length - Buffer.byteLength(character, "utf8") };
    escapes.set(character, escape);
  }
  return escape;
}

/**
 * `Buffer.from(JSON.stringify(value), "utf8")`, byte for byte, made without the string: the
 * value is first copied as JSON would see it (jsonCopy: toJSON called once, what JSON leaves out
 * left out, a cycle or a BigInt throwing), then measured, then written. A value JSON.stringify
 * makes nothing of (undefined at the top) is written as `null`.
 */
export function jsonBytes(value: unknown): Buffer {
  const plain = jsonCopy(value) ?? null;
  const bytes = Buffer.allocUnsafe(measure(plain));
  const end = write(plain, bytes, 0);
  if (end !== bytes.length) {
    throw new Error(`jsonBytes measured ${bytes.length} bytes but wrote ${end}.`);
  }
  return bytes;
}

function measure(value: JsonValue): number {
  if (typeof value === "string") {
    return measureString(value);
  }
  if (typeof value !== "object" || value === null) {
    return String(value).length;
  }
  if (Array.isArray(value)) {
    let total = 2 + Math.max(0, value.length - 1);
    for (const item of value) {
      total += measure(item);
    }
    return total;
  }
  const names = Object.keys(value);
  let total = 2 + Math.max(0, names.length - 1);
  for (const name of names) {
    total += measureString(name) + 1 + measure(value[name] as JsonValue);
  }
  return total;
}

function measureString(text: string): number {
  let total = Buffer.byteLength(text, "utf8") + 2;
  ESCAPED.lastIndex = 0;
  for (let match = ESCAPED.exec(text); match; match = ESCAPED.exec(text)) {
    total += escapeOf(match[0]).extra;
  }
  return total;
}

/** Writes `value` at `at`; returns where it ended. */
function write(value: JsonValue, bytes: Buffer, at: number): number {
  if (typeof value === "string") {
    return writeString(value, bytes, at);
  }
  if (typeof value !== "object" || value === null) {
    return at + bytes.write(String(value), at, "latin1");
  }
  let position = at;
  if (Array.isArray(value)) {
    bytes[position++] = 0x5b; // [
    value.forEach((item, index) => {
      if (index > 0) {
        bytes[position++] = 0x2c; // ,
      }
      position = write(item, bytes, position);
    });
    bytes[position++] = 0x5d; // ]
    return position;
  }
  bytes[position++] = 0x7b; // {
  let first = true;
  for (const name of Object.keys(value)) {
    if (!first) {
      bytes[position++] = 0x2c; // ,
    }
    first = false;
    position = writeString(name, bytes, position);
    bytes[position++] = 0x3a; // :
    position = write(value[name] as JsonValue, bytes, position);
  }
  bytes[position++] = 0x7d; // }
  return position;
}

function writeString(text: string, bytes: Buffer, at: number): number {
  let position = at;
  bytes[position++] = 0x22; // "
  let from = 0;
  ESCAPED.lastIndex = 0;
  for (let match = ESCAPED.exec(text); match; match = ESCAPED.exec(text)) {
    if (match.index > from) {
      position += bytes.write(text.slice(from, match.index), position, "utf8");
    }
    position += bytes.write(escapeOf(match[0]).text, position, "latin1");
    from = match.index + match[0].length;
  }
  if (from < text.length) {
    // Most long strings have nothing to escape, or stretches without: written as they are, unsliced.
    position += bytes.write(from === 0 ? text : text.slice(from), position, "utf8");
  }
  bytes[position++] = 0x22; // "
  return position;
}
