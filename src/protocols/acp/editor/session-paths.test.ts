import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { PathOutsideError, resolveInside, resolveOnDisk } from "./session-paths.js";

const root = mkdtempSync(join(tmpdir(), "weft-paths-"));
const outside = mkdtempSync(join(tmpdir(), "weft-outside-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

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

  it("understands Windows drive letters, either slash and any case", () => {
    expect(resolveInside("C:\\Users\\ann\\repo", "src\\main.ts")).toBe("C:\\Users\\ann\\repo\\src\\main.ts");
    expect(resolveInside("C:\\Users\\ann\\repo", "c:/users/ann/repo/README.md")).toBe("c:\\users\\ann\\repo\\README.md");
    expect(resolveInside("C:\\Users\\ann\\repo", "file:///C:/Users/ann/repo/a.txt")).toBe("C:\\Users\\ann\\repo\\a.txt");
    expect(() => resolveInside("C:\\Users\\ann\\repo", "D:\\repo\\a.txt")).toThrow(PathOutsideError);
    expect(() => resolveInside("C:\\Users\\ann\\repo", "..\\secrets.txt")).toThrow(PathOutsideError);
  });
});

describe("resolveOnDisk", () => {
  it("refuses a symlink that leads out, and allows files not yet created", async () => {
    writeFileSync(join(outside, "secret.txt"), "secret");
    symlinkSync(outside, join(root, "link"));
    mkdirSync(join(root, "real"));
    await expect(resolveOnDisk(root, "link/secret.txt")).rejects.toBeInstanceOf(PathOutsideError);
    await expect(resolveOnDisk(root, "link")).rejects.toBeInstanceOf(PathOutsideError);
    await expect(resolveOnDisk(root, "real/new/file.txt")).resolves.toBe(join(root, "real/new/file.txt"));
  });
});
