import { describe, expect, it } from "vitest";

import { definedFields } from "./defined-fields.js";

describe("definedFields", () => {
  it("keeps the named fields that have a value, falsy ones too, in the order named, and leaves out the undefined and the unnamed", () => {
    const source: { a?: string | undefined; b?: number | undefined; c: boolean; d: string } = { a: undefined, b: 0, c: false, d: "not named" };
    const fields = definedFields(source, ["c", "a", "b"]);
    expect(fields).toEqual({ c: false, b: 0 });
    expect(Object.keys(fields)).toEqual(["c", "b"]);
    expect("a" in fields).toBe(false);
  });

  it("keeps every own field that has a value when no fields are named", () => {
    expect(definedFields({ a: 1, b: undefined, c: "" })).toEqual({ a: 1, c: "" });
  });
});
