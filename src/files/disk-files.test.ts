import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { NotAFileError, PathChangedError, readChecked, writeChecked } from "./disk-files.js";

const root = realpathSync(mkdtempSync(join(tmpdir(), "weft-disk-")));
const outside = realpathSync(mkdtempSync(join(tmpdir(), "weft-outside-")));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
writeFileSync(join(outside, "secret.txt"), "outside secret\n");

// Each case is a path that was checked while it had no link in it, and got one before it was opened.
describe("reading and writing a checked path", () => {
  it("refuses to write through a link that took the file's place, creating nothing", async () => {
    symlinkSync(join(outside, "planted.txt"), join(root, "notes.txt"));
    await expect(writeChecked(join(root, "notes.txt"), "planted")).rejects.toBeInstanceOf(PathChangedError);
    symlinkSync(join(outside, "secret.txt"), join(root, "existing.txt"));
    await expect(writeChecked(join(root, "existing.txt"), "planted")).rejects.toBeInstanceOf(PathChangedError);
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("outside secret\n");
  });

  it("refuses to write below a directory that became a link", async () => {
    symlinkSync(outside, join(root, "swapped"));
    await expect(writeChecked(join(root, "swapped", "planted.txt"), "planted")).rejects.toBeInstanceOf(PathChangedError);
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
  });

  it("refuses to read through a link, in the file's place or on the way", async () => {
    symlinkSync(join(outside, "secret.txt"), join(root, "read-me.txt"));
    await expect(readChecked(join(root, "read-me.txt"))).rejects.toBeInstanceOf(PathChangedError);
    await expect(readChecked(join(root, "swapped", "secret.txt"))).rejects.toBeInstanceOf(PathChangedError);
  });

  it("refuses a pipe without waiting for a writer, and a directory", async () => {
    execFileSync("mkfifo", [join(root, "pipe")]);
    mkdirSync(join(root, "folder"));
    await expect(readChecked(join(root, "pipe"))).rejects.toBeInstanceOf(NotAFileError);
    await expect(readChecked(join(root, "folder"))).rejects.toBeInstanceOf(NotAFileError);
    await expect(writeChecked(join(root, "folder"), "x")).rejects.toBeInstanceOf(NotAFileError);
  });

  it("reads, creates and replaces plain files, and says when one is missing", async () => {
    await writeChecked(join(root, "new/deeper/file.txt"), "first, and longer");
    await writeChecked(join(root, "new/deeper/file.txt"), "second");
    expect(readFileSync(join(root, "new/deeper/file.txt"), "utf8")).toBe("second");
    await expect(readChecked(join(root, "new/deeper/file.txt"))).resolves.toBe("second");
    await expect(readChecked(join(root, "absent.txt"))).resolves.toBeUndefined();
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);
  });
});
