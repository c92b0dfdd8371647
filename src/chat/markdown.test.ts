import { describe, expect, it } from "vitest";

import { MarkdownBlocks, markdownFor } from "./markdown.js";

/** Feeds `text` in chunks of `size` characters; returns each non-empty piece handed out, then the rest. */
function stream(text: string, size: number): string[] {
  const blocks = new MarkdownBlocks();
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) {
    const complete = blocks.push(text.slice(at, at + size));
    if (complete !== "") {
      pieces.push(complete);
    }
  }
  pieces.push(blocks.finish());
  return pieces;
}

const reply = "# Plan\n\nFirst a paragraph\nover two lines.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n- one\n- two\n\nThe end, unfinished";

describe("MarkdownBlocks", () => {
  it("hands out every character exactly once, whatever the chunk size", () => {
    for (const size of [1, 2, 3, 7, 16, reply.length]) {
      expect(stream(reply, size).join("")).toBe(reply);
    }
  });

  it("hands out a block once a blank line follows it, and keeps a fence whole across blank lines inside it", () => {
    expect(stream(reply, 1)).toEqual(["# Plan\n\n", "First a paragraph\nover two lines.\n\n", "```ts\nconst a = 1;\n\nconst b = 2;\n```\n", "- one\n- two\n\n", "The end, unfinished"]);
  });

  it("holds an unclosed fence until the reply ends", () => {
    expect(stream("```\ncode\n\nmore code\n", 4)).toEqual(["```\ncode\n\nmore code\n"]);
  });
});

describe("markdownFor", () => {
  it("renders nothing when the output is not a terminal or NO_COLOR is set", async () => {
    expect(await markdownFor({ isTTY: false }, {})).toBeUndefined();
    expect(await markdownFor({ isTTY: true }, { NO_COLOR: "1" })).toBeUndefined();
  });

  it("renders markdown structure and wraps to the terminal's width", async () => {
    const render = await markdownFor({ isTTY: true, columns: 32 }, {});
    expect(render?.columns()).toBe(32);
    const text = render?.render("# Title\n\nA *long* paragraph of words that cannot fit on one line of thirty columns.\n\n- one\n- two\n") ?? "";
    // Styled on a terminal, whatever the environment tells chalk (in CI it would say no colour).
    expect(text).toContain("\u001b[1mTitle");
    // eslint-disable-next-line no-control-regex -- reading the text without colour codes
    const plain = text.replace(/\u001b\[[0-9;]*m/g, "");
    expect(plain).not.toContain("#");
    expect(plain).not.toContain("*long*");
    expect(plain).toMatch(/\* one\n\s+\* two/);
    const lines = plain.split("\n");
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(30);
    expect(lines.length).toBeGreaterThan(4);
  });
});
