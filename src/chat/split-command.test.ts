import { describe, expect, it } from "vitest";

import { splitCommand } from "./split-command.js";

describe("splitCommand", () => {
  it("splits on spaces and keeps quoted words and escapes together", () => {
    expect(splitCommand(`npx my-agent --flag 'a b' "c \\"d\\"" e\\ f`)).toEqual(["npx", "my-agent", "--flag", "a b", 'c "d"', "e f"]);
    expect(splitCommand("  spaced   out  ")).toEqual(["spaced", "out"]);
    expect(splitCommand(`empty ''`)).toEqual(["empty", ""]);
  });

  it("refuses an unclosed quote", () => {
    expect(() => splitCommand(`say "hello`)).toThrow(/Unclosed " quote/);
  });
});
