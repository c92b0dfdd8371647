import { describe, expect, it } from "vitest";

import { wrapWords } from "./wrap-words.js";

describe("wrapWords", () => {
  it("breaks lines between words at the width, with the indent on the lines it makes", () => {
    expect(wrapWords("weft in /tmp/project. Ctrl-C cancels a turn", 20, "  ")).toBe("weft in\n  /tmp/project.\n  Ctrl-C cancels a\n  turn");
    expect(wrapWords("  /help  this list\nshort", 13, "        ")).toBe("  /help  this\n        list\nshort");
  });

  it("leaves a word longer than the line whole, and text without a width as it is", () => {
    expect(wrapWords("a supercalifragilistic word", 10)).toBe("a\nsupercalifragilistic\nword");
    expect(wrapWords("no width here", undefined)).toBe("no width here");
  });
});
