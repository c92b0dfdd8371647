// Which AGENTS.md files count for a session's directory, in what order, and how much of them.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { instructionDirectories, PROJECT_INSTRUCTIONS_LIMITS, projectInstructionsSection, readProjectInstructions } from "./project-instructions.js";

let base: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "weft-agents-md-"));
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe("project instructions", () => {
  it("walks from the repository root down to the session, and a .git file (a worktree) marks a root too", async () => {
    const root = join(base, "repo");
    const session = join(root, "a", "b");
    mkdirSync(session, { recursive: true });
    writeFileSync(join(root, ".git"), "gitdir: elsewhere\n");
    expect(await instructionDirectories(session)).toEqual([root, join(root, "a"), session]);
  });

  it("uses the session directory alone outside a repository", async () => {
    const session = join(base, "work");
    mkdirSync(session);
    writeFileSync(join(base, "AGENTS.md"), "parent\n");
    expect(await instructionDirectories(session)).toEqual([session]);
    expect(await readProjectInstructions(session)).toEqual([]);
  });

  it("cuts a long file, keeps the nearest files within the total, and says nothing when there are none", async () => {
    const root = join(base, "repo");
    const session = join(root, "a", "b");
    mkdirSync(join(root, ".git"), { recursive: true });
    mkdirSync(session, { recursive: true });
    const big = "x".repeat(PROJECT_INSTRUCTIONS_LIMITS.file + 100);
    writeFileSync(join(root, "AGENTS.md"), big);
    writeFileSync(join(root, "a", "AGENTS.md"), big);
    writeFileSync(join(session, "AGENTS.md"), big);
    const files = await readProjectInstructions(session);
    // Two full files fill the total; the outermost is dropped.
    expect(files.map((file) => file.path)).toEqual([join(root, "a", "AGENTS.md"), join(session, "AGENTS.md")]);
    for (const file of files) {
      expect(file.text).toMatch(/\[… cut: the file goes on past 32768 characters\]$/);
    }
    expect(await projectInstructionsSection(join(base))).toBe("");
  });

  it("follows a link inside the repository, not one that leads out of it, and skips a directory named AGENTS.md", async () => {
    const root = join(base, "repo");
    const session = join(root, "app");
    mkdirSync(join(root, ".git"), { recursive: true });
    mkdirSync(join(session, "AGENTS.md"), { recursive: true });
    writeFileSync(join(root, "CLAUDE.md"), "linked inside\n");
    symlinkSync(join(root, "CLAUDE.md"), join(root, "AGENTS.md"));
    expect((await readProjectInstructions(session)).map((file) => file.text)).toEqual(["linked inside\n"]);
    writeFileSync(join(base, "secret.txt"), "outside\n");
    rmSync(join(root, "AGENTS.md"));
    symlinkSync(join(base, "secret.txt"), join(root, "AGENTS.md"));
    expect(await readProjectInstructions(session)).toEqual([]);
  });
});
