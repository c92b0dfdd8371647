import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { walkFiles } from "./walk-files.js";

const root = mkdtempSync(join(tmpdir(), "weft-walk-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

describe("walkFiles", () => {
  it("skips what .gitignore files ignore, at every level, and .git", async () => {
    tree({
      ".gitignore": "node_modules/\n*.log\n/build\n!keep.log\n# comment\n",
      ".git/HEAD": "ref",
      "node_modules/pkg/index.js": "",
      "build/out.js": "",
      "src/build/kept.ts": "",
      "src/app.ts": "",
      "src/debug.log": "",
      "src/keep.log": "",
      "docs/.gitignore": "drafts/**\n",
      "docs/drafts/a.md": "",
      "docs/guide.md": "",
      "deep/a/b/c.tmp": "",
      "deep/.gitignore": "**/*.tmp\n",
    });
    const paths: string[] = [];
    for await (const entry of walkFiles(root, { recursive: true })) {
      paths.push(entry.directory ? `${entry.path}/` : entry.path);
    }
    expect(paths).toEqual([".gitignore", "deep/", "deep/.gitignore", "deep/a/", "deep/a/b/", "docs/", "docs/.gitignore", "docs/drafts/", "docs/guide.md", "src/", "src/app.ts", "src/build/", "src/build/kept.ts", "src/keep.log"]);
  });

  it("applies the parents' rules when starting below the root", async () => {
    const paths: string[] = [];
    for await (const entry of walkFiles(root, { start: "src", recursive: false })) {
      paths.push(entry.path);
    }
    expect(paths).toEqual(["src/app.ts", "src/build", "src/keep.log"]);
  });
});
