import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { walkFiles } from "./walk-files.js";

const root = mkdtempSync(join(tmpdir(), "weft-walk-"));
const outside = realpathSync(mkdtempSync(join(tmpdir(), "weft-outside-")));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function tree(files: Record<string, string>, base = root): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(base, path, ".."), { recursive: true });
    writeFileSync(join(base, path), text);
  }
}

async function listed(start: string, recursive = true): Promise<string[]> {
  const paths: string[] = [];
  for await (const entry of walkFiles(root, { start, recursive })) {
    const name = entry.directory ? `${entry.path}/` : entry.path;
    paths.push(entry.link === undefined ? name : `${name} -> ${entry.link}`);
  }
  return paths;
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

  it("lists links that stay inside with where they lead, without walking into them, and leaves out links that lead out", async () => {
    tree({ "outside-dir/hidden.txt": "outside", "outside.txt": "outside", "ignore-me": "*.txt\n" }, outside);
    tree({ "links/target/inner.txt": "", "links/file.txt": "" });
    const links = join(root, "links");
    symlinkSync("target", join(links, "to-dir"));
    symlinkSync("file.txt", join(links, "to-file"));
    symlinkSync(join(links, "file.txt"), join(links, "to-file-absolute"));
    symlinkSync("..", join(links, "to-parent"));
    symlinkSync("missing.txt", join(links, "dangling-inside"));
    symlinkSync(join(outside, "outside-dir"), join(links, "out-dir"));
    symlinkSync("../../../" + outside.split("/").at(-1) + "/outside.txt", join(links, "out-file-relative"));
    symlinkSync(join(outside, "outside.txt"), join(links, "out-file"));
    symlinkSync(join(outside, "nowhere.txt"), join(links, "out-dangling"));
    symlinkSync("loop-b", join(links, "loop-a"));
    symlinkSync("loop-a", join(links, "loop-b"));
    execFileSync("mkfifo", [join(links, "pipe")]);
    expect(await listed("links")).toEqual([
      "links/dangling-inside -> links/missing.txt",
      "links/file.txt",
      "links/pipe",
      "links/target/",
      "links/target/inner.txt",
      "links/to-dir/ -> links/target",
      "links/to-file -> links/file.txt",
      "links/to-file-absolute -> links/file.txt",
      "links/to-parent/ -> .",
    ]);
  });

  it("does not read a .gitignore that is a link", async () => {
    tree({ "linked-rules/a.txt": "", "linked-rules/b.md": "" });
    symlinkSync(join(outside, "ignore-me"), join(root, "linked-rules/.gitignore"));
    expect(await listed("linked-rules")).toEqual(["linked-rules/a.txt", "linked-rules/b.md"]);
  });

  it("does not read a directory that became a link", async () => {
    symlinkSync(join(outside, "outside-dir"), join(root, "became-link"));
    expect(await listed("became-link")).toEqual([]);
  });
});
