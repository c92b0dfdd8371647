// The README's examples are copies of files that `npm test` type-checks. This test keeps each copy
// identical to its file, so an example in the README cannot go stale.

import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");
const marked = [...readme.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)];

describe("README examples", () => {
  it("has at least one example marked with its source file", () => {
    expect(marked.length).toBeGreaterThan(0);
  });

  for (const [, path, code] of marked) {
    it(`shows ${path} exactly as it is type-checked`, () => {
      expect(code).toBe(readFileSync(new URL(path as string, root), "utf8"));
    });
  }
});
