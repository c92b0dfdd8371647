import { describe, expect, it } from "vitest";

import { jsonBytes } from "./json-bytes.js";

/** The bytes jsonBytes must give: JSON.stringify's text, as UTF-8. */
function expected(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value) ?? "null", "utf8");
}

const every = Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code)).join("");

const cases: Array<[string, unknown]> = [
  ["null, booleans and numbers", [null, true, false, 0, -0, 1.5, 1e21, -1e-7, NaN, Infinity]],
  ["every ASCII character", every],
  ["quotes, backslashes and control characters", 'say "hi"\\ \n\r\t\b\f \u0000 \u001f \u007f'],
  ["characters of two, three and four UTF-8 bytes", "é ü ß — € 漢字 😀 𝄞"],
  ["lone surrogates, high and low, at either end", "\ud800 a \udc00 b \ud83d\ude00 \ude00\ud83d \ud800"],
  ["keys that need escaping", { 'a"b': 1, "\n": 2, "é": 3, "😀": 4, "": 5 }],
  ["nested objects, arrays and empty ones", { list: [[], {}, [1, [2, {}]]], deep: { a: { b: { c: null } } } }],
  ["undefined, functions, Dates and toJSON", { a: undefined, b: () => 1, when: new Date(Date.UTC(2026, 0, 2)), c: { toJSON: () => "x" }, list: [undefined] }],
  ["a long string with nothing to escape", "word ".repeat(100_000)],
  ["a long string with escapes all through it", 'line "one"\n\tand é 😀 \\ two\n'.repeat(20_000)],
  ["undefined at the top", undefined],
];

describe("jsonBytes", () => {
  it.each(cases)("writes what JSON.stringify writes, as UTF-8, for %s", (_name, value) => {
    expect(jsonBytes(value).equals(expected(value))).toBe(true);
  });

  it("throws as JSON.stringify does for a cycle and a BigInt", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => jsonBytes(cycle)).toThrow(TypeError);
    expect(() => jsonBytes([1n])).toThrow(TypeError);
  });
});
