import { describe, expect, it } from "vitest";

import { jsonCopy } from "./json-copy.js";

/** What JSON makes of a value: the behaviour jsonCopy must match. */
function throughJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  get length(): number {
    return Math.hypot(this.x, this.y);
  }
}

const cases: Array<[string, unknown]> = [
  ["null", null],
  ["a string with a lone surrogate", "a\ud800b"],
  ["numbers", [0, -0, 1.5, 1e21, -1e-7, Number.MAX_VALUE, NaN, Infinity, -Infinity]],
  ["booleans", [true, false]],
  ["undefined, functions and symbols", { a: undefined, b: () => 1, c: Symbol("c"), d: [undefined, () => 1, Symbol("d")] }],
  ["a Date, through toJSON", { when: new Date(Date.UTC(2026, 11, 2)) }],
  ["toJSON given its key", { inner: { toJSON: (key: string) => `key ${key}` }, list: [{ toJSON: (key: string) => `key ${key}` }] }],
  ["boxed primitives", [new Number(3), new String("s"), new Boolean(false)]],
  ["a class instance (own enumerable fields only)", new Point(3, 4)],
  ["integer-like keys, in JSON's order", { b: 1, 2: "two", a: 2, 1: "one" }],
  ["a __proto__ key, kept as data", JSON.parse('{"__proto__": {"polluted": true}, "x": 1}')],
  ["a Map and a Set (empty objects)", { map: new Map([[1, 2]]), set: new Set([1]) }],
  ["nested arrays and objects", { messages: [{ id: "m1", parts: [{ type: "text", text: "hello" }] }], seq: 3 }],
  ["undefined at the top", undefined],
  ["a function at the top", () => 1],
];

describe("jsonCopy", () => {
  it.each(cases)("matches JSON.parse(JSON.stringify(value)) for %s", (_name, value) => {
    const copy = jsonCopy(value);
    expect(copy).toStrictEqual(throughJson(value));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  it("keeps a __proto__ key as an own property, not the prototype", () => {
    const copy = jsonCopy(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("throws as JSON.stringify does for a cycle and a BigInt", () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { back: cycle };
    expect(() => jsonCopy(cycle)).toThrow(TypeError);
    expect(() => jsonCopy({ big: 1n })).toThrow(TypeError);
  });

  it("copies a value seen twice (not a cycle) twice", () => {
    const shared = { n: 1 };
    const copy = jsonCopy({ a: shared, b: [shared] }) as { a: object; b: object[] };
    expect(copy).toStrictEqual({ a: { n: 1 }, b: [{ n: 1 }] });
    expect(copy.a).not.toBe(copy.b[0]);
  });

  it("makes new objects and arrays, so changing the copy leaves the value as it was", () => {
    const value = { list: [{ text: "a" }] };
    const copy = jsonCopy(value) as typeof value;
    expect(copy.list).not.toBe(value.list);
    copy.list[0] = { text: "changed" };
    expect(value.list[0]?.text).toBe("a");
  });
});
