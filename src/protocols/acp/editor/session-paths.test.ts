import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { PathLoopError, PathOutsideError, resolveInside, resolveOnDisk, resolvePath } from "./session-paths.js";

const root = realpathSync(mkdtempSync(join(tmpdir(), "weft-paths-")));
const outside = realpathSync(mkdtempSync(join(tmpdir(), "weft-outside-")));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

writeFileSync(join(outside, "secret.txt"), "secret");
symlinkSync(outside, join(root, "link"));
mkdirSync(join(root, "real/deeper"), { recursive: true });
writeFileSync(join(root, "real/file.txt"), "inside");
writeFileSync(join(root, "real/sibling.txt"), "inside too");

describe("resolveInside", () => {
  it("resolves relative paths, absolute paths inside, and file:// URIs", () => {
    expect(resolveInside("/work/project", "src/app.ts")).toBe("/work/project/src/app.ts");
    expect(resolveInside("/work/project", "./a/../b.txt")).toBe("/work/project/b.txt");
    expect(resolveInside("/work/project", "/work/project/x")).toBe("/work/project/x");
    expect(resolveInside("/work/project", "file:///work/project/read%20me.md")).toBe("/work/project/read me.md");
  });

  it("refuses .., absolute paths elsewhere and look-alike siblings", () => {
    for (const escape of ["../x", "src/../../x", "/etc/passwd", "/work/project-other/x", "file:///etc/hosts"]) {
      expect(() => resolveInside("/work/project", escape)).toThrow(PathOutsideError);
    }
  });

  it("keeps names that only start with two dots", () => {
    expect(resolveInside("/work/project", "..notes/a.txt")).toBe("/work/project/..notes/a.txt");
  });

  it("understands Windows drive letters, either slash and any case", () => {
    expect(resolveInside("C:\\Users\\ann\\repo", "src\\main.ts")).toBe("C:\\Users\\ann\\repo\\src\\main.ts");
    expect(resolveInside("C:\\Users\\ann\\repo", "c:/users/ann/repo/README.md")).toBe("c:\\users\\ann\\repo\\README.md");
    expect(resolveInside("C:\\Users\\ann\\repo", "file:///C:/Users/ann/repo/a.txt")).toBe("C:\\Users\\ann\\repo\\a.txt");
    expect(() => resolveInside("C:\\Users\\ann\\repo", "D:\\repo\\a.txt")).toThrow(PathOutsideError);
    expect(() => resolveInside("C:\\Users\\ann\\repo", "..\\secrets.txt")).toThrow(PathOutsideError);
  });

  it("refuses Windows paths under a POSIX root rather than taking them for file names", () => {
    for (const windows of ["C:\\Windows\\win.ini", "c:/etc/passwd", "\\\\server\\share\\secret.txt", "file:///C:/Windows/win.ini"]) {
      expect(() => resolveInside("/work/project", windows)).toThrow(PathOutsideError);
    }
  });
});

describe("resolvePath", () => {
  it("refuses a symlink that leads out, and a path through one", async () => {
    await expect(resolvePath(root, "link/secret.txt")).rejects.toBeInstanceOf(PathOutsideError);
    await expect(resolvePath(root, "link")).rejects.toMatchObject({ code: "path_outside", throughLink: true, leadsTo: outside });
    await expect(resolveOnDisk(root, join(root, "link", "secret.txt"))).rejects.toBeInstanceOf(PathOutsideError);
  });

  it("allows files and directories not yet created", async () => {
    await expect(resolvePath(root, "real/new/file.txt")).resolves.toEqual({ root, real: join(root, "real/new/file.txt"), linked: false, kind: "missing" });
    await expect(resolveOnDisk(root, "real/file.txt")).resolves.toBe(join(root, "real/file.txt"));
  });

  it("follows a dangling link to where writing would create its target, and refuses one whose target is outside", async () => {
    symlinkSync("../weft-nowhere-outside/notes.txt", join(root, "dangling-relative"));
    symlinkSync(join(outside, "planted.txt"), join(root, "dangling-absolute"));
    symlinkSync("real/todo.txt", join(root, "dangling-inside"));
    await expect(resolvePath(root, "dangling-relative")).rejects.toMatchObject({ throughLink: true, leadsTo: join(root, "..", "weft-nowhere-outside", "notes.txt") });
    await expect(resolvePath(root, "dangling-absolute")).rejects.toMatchObject({ throughLink: true, leadsTo: join(outside, "planted.txt") });
    await expect(resolvePath(root, "dangling-inside")).resolves.toEqual({ root, real: join(root, "real/todo.txt"), linked: true, kind: "missing" });
  });

  it("follows chains of links, relative and absolute, while they stay inside", async () => {
    symlinkSync("real/file.txt", join(root, "chain-3"));
    symlinkSync(join(root, "chain-3"), join(root, "chain-2"));
    symlinkSync("chain-2", join(root, "chain-1"));
    symlinkSync("link/secret.txt", join(root, "chain-out-2"));
    symlinkSync("chain-out-2", join(root, "chain-out-1"));
    await expect(resolvePath(root, "chain-1")).resolves.toEqual({ root, real: join(root, "real/file.txt"), linked: true, kind: "file" });
    await expect(resolvePath(root, "chain-out-1")).rejects.toBeInstanceOf(PathOutsideError);
  });

  it("applies .. after a link from where the link led, as the system does", async () => {
    symlinkSync("real/deeper", join(root, "deep"));
    await expect(resolvePath(root, "deep/../sibling.txt")).resolves.toEqual({ root, real: join(root, "real/sibling.txt"), linked: true, kind: "file" });
    // Read as text this is "x.txt" inside; the system would climb from the outside directory.
    await expect(resolvePath(root, "link/../x.txt")).rejects.toBeInstanceOf(PathOutsideError);
  });

  it("refuses a loop of links", async () => {
    symlinkSync("loop-b", join(root, "loop-a"));
    symlinkSync("loop-a", join(root, "loop-b"));
    await expect(resolvePath(root, "loop-a/x")).rejects.toBeInstanceOf(PathLoopError);
  });

  it("accepts paths under the root's real name when the root itself is a link", async () => {
    const alias = join(outside, "alias");
    symlinkSync(root, alias);
    await expect(resolvePath(alias, "real/file.txt")).resolves.toMatchObject({ root, real: join(root, "real/file.txt"), linked: false });
    await expect(resolvePath(alias, join(root, "real/file.txt"))).resolves.toMatchObject({ real: join(root, "real/file.txt") });
    await expect(resolvePath(alias, join(alias, "real/file.txt"))).resolves.toMatchObject({ real: join(root, "real/file.txt") });
    await expect(resolvePath(alias, "../secret.txt")).rejects.toBeInstanceOf(PathOutsideError);
  });
});
