import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { namedPath, PathLoopError, PathOutsideError, realPlace, resolveInside, resolveOnDisk, resolvePath, withinAny } from "./session-paths.js";

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
    await expect(resolvePath(root, "real/new/file.txt")).resolves.toEqual({ root, primary: true, real: join(root, "real/new/file.txt"), linked: false, kind: "missing" });
    await expect(resolveOnDisk(root, "real/file.txt")).resolves.toBe(join(root, "real/file.txt"));
  });

  it("follows a dangling link to where writing would create its target, and refuses one whose target is outside", async () => {
    symlinkSync("../weft-nowhere-outside/notes.txt", join(root, "dangling-relative"));
    symlinkSync(join(outside, "planted.txt"), join(root, "dangling-absolute"));
    symlinkSync("real/todo.txt", join(root, "dangling-inside"));
    await expect(resolvePath(root, "dangling-relative")).rejects.toMatchObject({ throughLink: true, leadsTo: join(root, "..", "weft-nowhere-outside", "notes.txt") });
    await expect(resolvePath(root, "dangling-absolute")).rejects.toMatchObject({ throughLink: true, leadsTo: join(outside, "planted.txt") });
    await expect(resolvePath(root, "dangling-inside")).resolves.toEqual({ root, primary: true, real: join(root, "real/todo.txt"), linked: true, kind: "missing" });
  });

  it("follows chains of links, relative and absolute, while they stay inside", async () => {
    symlinkSync("real/file.txt", join(root, "chain-3"));
    symlinkSync(join(root, "chain-3"), join(root, "chain-2"));
    symlinkSync("chain-2", join(root, "chain-1"));
    symlinkSync("link/secret.txt", join(root, "chain-out-2"));
    symlinkSync("chain-out-2", join(root, "chain-out-1"));
    await expect(resolvePath(root, "chain-1")).resolves.toEqual({ root, primary: true, real: join(root, "real/file.txt"), linked: true, kind: "file" });
    await expect(resolvePath(root, "chain-out-1")).rejects.toBeInstanceOf(PathOutsideError);
  });

  it("applies .. after a link from where the link led, as the system does", async () => {
    symlinkSync("real/deeper", join(root, "deep"));
    await expect(resolvePath(root, "deep/../sibling.txt")).resolves.toEqual({ root, primary: true, real: join(root, "real/sibling.txt"), linked: true, kind: "file" });
    // Read as text this is "x.txt" inside; the system would climb from the outside directory.
    await expect(resolvePath(root, "link/../x.txt")).rejects.toBeInstanceOf(PathOutsideError);
  });

  it("walks a name again after a .. out of a place that does not exist, so a link there is followed", async () => {
    // Read as text from `nothing/..` on, "link" would be a name like any other and the path inside.
    await expect(resolvePath(root, "nothing/../link/secret.txt")).rejects.toMatchObject({ code: "path_outside", throughLink: true, leadsTo: outside });
    await expect(resolvePath(root, "nothing/deeper/../../real/file.txt")).resolves.toMatchObject({ real: join(root, "real/file.txt"), kind: "file" });
    await expect(resolvePath(root, "nothing/../real/new.txt")).resolves.toMatchObject({ real: join(root, "real/new.txt"), kind: "missing" });
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

describe("resolvePath with the session's other directories", () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "weft-roots-")));
  const project = join(base, "project");
  const second = join(base, "second");
  const beyond = join(base, "beyond");
  const roots = [project, second];
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(second, "lib"), { recursive: true });
  mkdirSync(beyond, { recursive: true });
  writeFileSync(join(second, "lib", "shared.ts"), "shared");
  writeFileSync(join(beyond, "secret.txt"), "secret");
  symlinkSync(join(second, "lib"), join(project, "to-second"));
  symlinkSync("../second/lib", join(project, "to-second-relative"));
  symlinkSync("../../beyond/secret.txt", join(second, "lib", "out"));
  symlinkSync(beyond, join(second, "out-dir"));

  it("resolves an absolute path or a file:// URI in another directory, named in full", async () => {
    const target = await resolvePath(roots, join(second, "lib/shared.ts"));
    expect(target).toEqual({ root: second, primary: false, real: join(second, "lib/shared.ts"), linked: false, kind: "file" });
    expect(namedPath(target)).toBe(join(second, "lib/shared.ts"));
    await expect(resolvePath(roots, `file://${join(second, "lib/new.ts")}`)).resolves.toMatchObject({ root: second, primary: false, kind: "missing" });
    expect(namedPath(await resolvePath(roots, "src"))).toBe("src");
  });

  it("reads relative paths from the first directory; one that climbs out goes on only where its rest names a place in a directory", async () => {
    await expect(resolvePath(roots, "lib/shared.ts")).resolves.toMatchObject({ root: project, primary: true, kind: "missing" });
    await expect(resolvePath(roots, "../second/lib/shared.ts")).resolves.toEqual({ root: second, primary: false, real: join(second, "lib/shared.ts"), linked: false, kind: "file" });
    await expect(resolvePath(roots, "src/../../second/lib/../../beyond/secret.txt")).rejects.toBeInstanceOf(PathOutsideError);
    await expect(resolvePath(roots, "../beyond/secret.txt")).rejects.toMatchObject({ leadsTo: join(beyond, "secret.txt") });
    await expect(resolvePath(project, "../second/lib/shared.ts")).rejects.toBeInstanceOf(PathOutsideError);
    // Out and back into the same directory.
    await expect(resolvePath(project, "../project/src")).resolves.toMatchObject({ root: project, real: join(project, "src"), kind: "directory" });
  });

  it("follows a link from one directory into another", async () => {
    await expect(resolvePath(roots, "to-second/shared.ts")).resolves.toEqual({ root: second, primary: false, real: join(second, "lib/shared.ts"), linked: true, kind: "file" });
    await expect(resolvePath(roots, "to-second-relative/shared.ts")).resolves.toEqual({ root: second, primary: false, real: join(second, "lib/shared.ts"), linked: true, kind: "file" });
    // A .. after the link climbs from where it led, as the system does.
    await expect(resolvePath(roots, "to-second-relative/../notes.md")).resolves.toMatchObject({ root: second, real: join(second, "notes.md"), linked: true, kind: "missing" });
    await expect(resolvePath(roots, "to-second-relative/../../beyond/secret.txt")).rejects.toBeInstanceOf(PathOutsideError);
    // Without the second directory, the same link leads out.
    await expect(resolvePath(project, "to-second/shared.ts")).rejects.toMatchObject({ code: "path_outside", throughLink: true });
  });

  it("refuses .. and links out of another directory as out of the first, naming every directory", async () => {
    await expect(resolvePath(roots, join(second, "..", "beyond", "secret.txt"))).rejects.toBeInstanceOf(PathOutsideError);
    await expect(resolvePath(roots, join(second, "lib", "..", "..", "beyond", "secret.txt"))).rejects.toBeInstanceOf(PathOutsideError);
    await expect(resolvePath(roots, join(second, "lib", "out"))).rejects.toMatchObject({ throughLink: true, leadsTo: join(beyond, "secret.txt") });
    await expect(resolvePath(roots, join(second, "out-dir", "secret.txt"))).rejects.toMatchObject({ throughLink: true });
    await expect(resolvePath(roots, join(beyond, "secret.txt"))).rejects.toThrow(`is outside the session's directories ${project}, ${second}.`);
    await expect(resolvePath(roots, `${second}-other/x`)).rejects.toBeInstanceOf(PathOutsideError);
  });

  it("takes a directory inside another as its own root, and lets a .. climb from it into the outer one", async () => {
    const nested = [second, join(project, "src")];
    await expect(resolvePath(nested, join(project, "src", "main.ts"))).resolves.toMatchObject({ root: join(project, "src"), primary: false });
    await expect(resolvePath([project, join(project, "src")], join(project, "src", "main.ts"))).resolves.toMatchObject({ root: project, primary: true });
    await expect(resolvePath(nested, join(project, "src", "..", "secret.txt"))).rejects.toBeInstanceOf(PathOutsideError);
  });

  it("checks Windows directories as text on this machine, each of them", async () => {
    const windows = ["C:\\repo", "D:\\shared"];
    await expect(resolvePath(windows, "src\\a.ts")).resolves.toMatchObject({ root: "C:\\repo", primary: true, real: "C:\\repo\\src\\a.ts" });
    await expect(resolvePath(windows, "d:/shared/b.ts")).resolves.toMatchObject({ root: "D:\\shared", primary: false, real: "d:\\shared\\b.ts" });
    await expect(resolvePath(windows, "E:\\elsewhere\\c.ts")).rejects.toBeInstanceOf(PathOutsideError);
    await expect(resolvePath(windows, "..\\shared\\b.ts")).rejects.toBeInstanceOf(PathOutsideError);
  });
});

describe("resolvePath within bounds", () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "weft-bounds-")));
  const away = realpathSync(mkdtempSync(join(tmpdir(), "weft-away-")));
  const bounds = [base];
  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
    rmSync(away, { recursive: true, force: true });
  });
  mkdirSync(join(base, "project", "src"), { recursive: true });
  mkdirSync(join(base, "extra"), { recursive: true });
  mkdirSync(join(away, "here"));
  symlinkSync(away, join(base, "out"));
  symlinkSync(join(away, "gone"), join(base, "dangling"));
  symlinkSync(join(base, "project"), join(base, "alias"));

  it("resolves paths as without bounds while the session's directories really lead inside them", async () => {
    await expect(resolvePath([join(base, "project"), join(base, "extra")], "src/a.ts", bounds)).resolves.toEqual({ root: join(base, "project"), primary: true, real: join(base, "project/src/a.ts"), linked: false, kind: "missing" });
    await expect(resolvePath(join(base, "alias"), "src", bounds)).resolves.toMatchObject({ root: join(base, "project"), kind: "directory" });
    // A session in a directory not made yet, whose real parent is inside.
    await expect(resolvePath(join(base, "later"), "notes.md", bounds)).resolves.toMatchObject({ real: join(base, "later/notes.md"), kind: "missing" });
  });

  it("refuses every path of a session whose own directory now leads out, which it would follow without bounds", async () => {
    for (const directory of [join(base, "out"), join(base, "out", "here"), join(base, "out", "not-yet"), join(base, "dangling"), join(base, "dangling", "deeper")]) {
      await expect(resolvePath(directory, "x.txt", bounds)).rejects.toMatchObject({ code: "path_outside", outOfBounds: true });
      await expect(resolvePath(directory, ".", bounds)).rejects.toMatchObject({ outOfBounds: true });
      await expect(resolvePath(directory, join(directory, "x.txt"), bounds)).rejects.toMatchObject({ outOfBounds: true });
    }
    await expect(resolvePath(join(base, "out", "here"), "x.txt", bounds)).rejects.toThrow("outside the directories this server lets the session use");
    // Over stdio (no bounds) the editor's directory is the session's, wherever it leads.
    await expect(resolvePath(join(base, "out", "here"), "x.txt")).resolves.toMatchObject({ real: join(away, "here/x.txt") });
    await expect(resolvePath(join(base, "dangling"), "x.txt")).resolves.toMatchObject({ real: join(away, "gone/x.txt") });
  });

  it("leaves out another directory of the session that now leads out, and keeps the rest", async () => {
    const roots = [join(base, "project"), join(base, "out", "here")];
    await expect(resolvePath(roots, join(base, "out", "here", "x.txt"), bounds)).rejects.toMatchObject({ code: "path_outside" });
    await expect(resolvePath(roots, join(away, "here", "x.txt"), bounds)).rejects.toMatchObject({ code: "path_outside" });
    await expect(resolvePath(roots, "src/a.ts", bounds)).resolves.toMatchObject({ real: join(base, "project/src/a.ts") });
    await expect(resolvePath(roots, join(base, "out", "here", "x.txt"))).resolves.toMatchObject({ real: join(away, "here/x.txt") });
  });
});

describe("realPlace", () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "weft-place-")));
  const away = realpathSync(mkdtempSync(join(tmpdir(), "weft-away-")));
  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
    rmSync(away, { recursive: true, force: true });
  });
  mkdirSync(join(base, "real"));
  mkdirSync(join(away, "inner"));
  symlinkSync(away, join(base, "out"));
  symlinkSync(join(away, "gone", "deep"), join(base, "dangling"));
  symlinkSync("real", join(base, "relative"));
  symlinkSync("loop-b", join(base, "loop-a"));
  symlinkSync("loop-a", join(base, "loop-b"));

  it("is the real path of what exists", async () => {
    expect(await realPlace(join(base, "real"))).toBe(join(base, "real"));
    expect(await realPlace(join(base, "relative"))).toBe(join(base, "real"));
    expect(await realPlace(join(base, "out", "inner"))).toBe(join(away, "inner"));
  });

  it("appends what does not exist to the real place above it, following links on the way", async () => {
    expect(await realPlace(join(base, "real", "a", "b"))).toBe(join(base, "real", "a", "b"));
    expect(await realPlace(join(base, "relative", "new"))).toBe(join(base, "real", "new"));
    expect(await realPlace(join(base, "out", "not-yet", "deeper"))).toBe(join(away, "not-yet", "deeper"));
  });

  it("follows a dangling link to its target", async () => {
    expect(await realPlace(join(base, "dangling"))).toBe(join(away, "gone", "deep"));
    expect(await realPlace(join(base, "dangling", "x"))).toBe(join(away, "gone", "deep", "x"));
  });

  it("reads .. as the system does: after a link from where it led, after a missing name from its parent", async () => {
    expect(await realPlace(`${join(base, "out", "inner")}/../new`)).toBe(join(away, "new"));
    expect(await realPlace(`${join(base, "nothing")}/../out/new`)).toBe(join(away, "new"));
    expect(await realPlace(`${join(base, "real")}/../real/x`)).toBe(join(base, "real", "x"));
  });

  it("rejects a loop of links", async () => {
    await expect(realPlace(join(base, "loop-a", "x"))).rejects.toBeInstanceOf(PathLoopError);
  });

  it("only normalizes a path of the other flavour", async () => {
    expect(await realPlace("C:\\repo\\a\\..\\b")).toBe("C:\\repo\\b");
  });
});

describe("withinAny", () => {
  it("takes a directory itself and what is below it, not a look-alike sibling or a parent", () => {
    expect(withinAny(["/srv/a", "/srv/b"], "/srv/b")).toBe(true);
    expect(withinAny(["/srv/a"], "/srv/a/x/y")).toBe(true);
    expect(withinAny(["/srv/a"], "/srv/ab")).toBe(false);
    expect(withinAny(["/srv/a"], "/srv")).toBe(false);
    expect(withinAny([], "/srv")).toBe(false);
    expect(withinAny(["C:\\Repo"], "c:\\repo\\x")).toBe(true);
  });
});
