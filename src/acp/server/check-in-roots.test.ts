import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { checkInRoots } from "./check-in-roots.js";
import { DirectoryNotAllowedError } from "../errors/request-errors.js";

const root = realpathSync(mkdtempSync(join(tmpdir(), "weft-in-roots-")));
const outside = realpathSync(mkdtempSync(join(tmpdir(), "weft-out-of-roots-")));
afterAll(() => {
  chmodSync(join(root, "locked"), 0o755);
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

mkdirSync(join(root, "project", "src"), { recursive: true });
mkdirSync(join(outside, "there"));
symlinkSync(outside, join(root, "out"));
symlinkSync(join(outside, "not-yet"), join(root, "dangling"));
symlinkSync("project/src", join(root, "to-src"));
symlinkSync(join(root, "project"), join(outside, "back-in"));
symlinkSync("loop-b", join(root, "loop-a"));
symlinkSync("loop-a", join(root, "loop-b"));
mkdirSync(join(root, "locked", "inner"), { recursive: true });
chmodSync(join(root, "locked"), 0o000);

/** What checkInRoots says of one directory: "allowed", or the error's code. */
async function verdict(directory: string, roots: readonly string[] = [root]): Promise<string> {
  try {
    await checkInRoots([directory], roots);
    return "allowed";
  } catch (error) {
    return DirectoryNotAllowedError.isInstance(error) ? error.code : String(error);
  }
}

describe("checkInRoots", () => {
  it("allows a root, directories in it, and ones not made yet whose real parent is inside", async () => {
    expect(await verdict(root)).toBe("allowed");
    expect(await verdict(join(root, "project"))).toBe("allowed");
    expect(await verdict(join(root, "project", "new", "deeper"))).toBe("allowed");
    expect(await verdict(join(root, "to-src"))).toBe("allowed");
    expect(await verdict(join(root, "to-src", "new"))).toBe("allowed");
    // A link from outside into a root is where it leads.
    expect(await verdict(join(outside, "back-in", "src"))).toBe("allowed");
  });

  it("refuses a directory outside, a look-alike sibling and a .. out", async () => {
    expect(await verdict(outside)).toBe("directory_not_allowed");
    expect(await verdict(`${root}-other`)).toBe("directory_not_allowed");
    expect(await verdict(join(root, "..", "elsewhere"))).toBe("directory_not_allowed");
    expect(await verdict(`${root}/project/../..`)).toBe("directory_not_allowed");
  });

  it("refuses a link that points out, and a directory not made yet under one", async () => {
    expect(await verdict(join(root, "out"))).toBe("directory_not_allowed");
    expect(await verdict(join(root, "out", "there"))).toBe("directory_not_allowed");
    expect(await verdict(join(root, "out", "not-yet"))).toBe("directory_not_allowed");
    expect(await verdict(join(root, "out", "not-yet", "deeper"))).toBe("directory_not_allowed");
  });

  it("refuses a dangling link whose target is outside, and anything under it", async () => {
    expect(await verdict(join(root, "dangling"))).toBe("directory_not_allowed");
    expect(await verdict(join(root, "dangling", "deeper"))).toBe("directory_not_allowed");
  });

  it("reads .. as the system does: from where a link led, and from a name not made yet", async () => {
    // As text both are inside the root.
    expect(await verdict(`${root}/out/there/../x`)).toBe("directory_not_allowed");
    expect(await verdict(`${root}/nothing/../out/x`)).toBe("directory_not_allowed");
    expect(await verdict(`${root}/nothing/../project`)).toBe("allowed");
  });

  it("refuses a loop of links and a directory it cannot look into", async () => {
    expect(await verdict(join(root, "loop-a"))).toBe("directory_not_allowed");
    expect(await verdict(join(root, "loop-a", "x"))).toBe("directory_not_allowed");
    if (process.getuid?.() !== 0) {
      expect(await verdict(join(root, "locked", "inner", "x"))).toBe("directory_not_allowed");
    }
  });

  it("checks every directory, against every root", async () => {
    const roots = [join(root, "project"), join(outside, "there")];
    await expect(checkInRoots([join(root, "project"), join(outside, "there", "new")], roots)).resolves.toBeUndefined();
    await expect(checkInRoots([join(root, "project"), join(root, "dangling")], roots)).rejects.toMatchObject({ code: "directory_not_allowed", directory: join(root, "dangling") });
    // A root that is a link, or not made yet, is where it leads.
    expect(await verdict(join(root, "project", "src"), [join(root, "to-src")])).toBe("allowed");
    expect(await verdict(join(root, "later", "x"), [join(root, "later")])).toBe("allowed");
    expect(await verdict(join(outside, "there"), [join(root, "out", "there")])).toBe("allowed");
  });
});
