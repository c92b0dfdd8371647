import { describe, expect, it } from "vitest";

import { parseJson } from "./parse-json.js";

describe("parseJson", () => {
  it("gives the value of JSON text, null and false too, and the fallback (undefined unless given) for text that is not JSON", () => {
    expect([parseJson('{"a":[1]}'), parseJson("null", "fallback"), parseJson("false", "fallback")]).toEqual([{ a: [1] }, null, false]);
    expect([parseJson("{"), parseJson("", "fallback"), parseJson("not json", { kept: true })]).toEqual([undefined, "fallback", { kept: true }]);
  });
});
