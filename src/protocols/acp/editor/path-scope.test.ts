import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { fileApprovalScope, pathScope } from "./path-scope.js";

describe("pathScope", () => {
  it("is the file's directory, covered by each directory above it, or a top-level file alone", () => {
    expect(pathScope("src/a.ts")).toEqual({ pattern: "src/", within: [] });
    expect(pathScope("src/lib/deep/a.ts")).toEqual({ pattern: "src/lib/deep/", within: ["src/lib/", "src/"] });
    expect(pathScope("README.md")).toEqual({ pattern: "README.md", within: [] });
    expect(pathScope("my docs/a file.md")).toEqual({ pattern: "my docs/", within: [] });
  });

  it("has none for a path that is not plainly inside the project", () => {
    for (const path of ["", ".", "..", "../x", "src/../../x", "src/./a.ts", "src//a.ts", "/etc/passwd", "C:/x", "c:x", "src\\a.ts", "src/a\nb.ts", "src/`x`.ts", "src/a\u0000.ts", "src/", `${"a/".repeat(600)}x`]) {
      expect(pathScope(path), JSON.stringify(path)).toBeUndefined();
    }
  });
});

describe("fileApprovalScope", () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "weft-path-scope-")));
  const project = join(base, "project");
  const outside = join(base, "outside");
  const other = join(base, "other");
  mkdirSync(join(project, "src", "lib"), { recursive: true });
  mkdirSync(join(project, "docs"), { recursive: true });
  mkdirSync(outside);
  mkdirSync(other);
  writeFileSync(join(project, "src", "lib", "a.ts"), "");
  symlinkSync(outside, join(project, "src", "out"));
  symlinkSync(join(project, "docs"), join(project, "src", "to-docs"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("scopes a file by the directory it really is in, relative to the project", async () => {
    expect(await fileApprovalScope(project, "src/lib/a.ts", "edits")).toEqual({ key: "src/lib/", label: "edits in `src/lib/`", within: ["src/"] });
    expect(await fileApprovalScope(project, join(project, "src", "new.ts"), "writes")).toEqual({ key: "src/", label: "writes in `src/`", within: [] });
    expect(await fileApprovalScope(project, "notes.md", "writes")).toEqual({ key: "notes.md", label: "writes of `notes.md`", within: [] });
    // Through a link, the scope is where it leads.
    expect(await fileApprovalScope(project, "src/to-docs/guide.md", "edits")).toEqual({ key: "docs/", label: "edits in `docs/`", within: [] });
    expect(await fileApprovalScope(project, "src/lib/../a.ts", "edits")).toEqual({ key: "src/", label: "edits in `src/`", within: [] });
  });

  it("has none outside the project: a climb out, an absolute path elsewhere, a link out, another of the session's directories, a directory", async () => {
    const roots = [project, other];
    for (const path of ["../outside/x", "src/../../outside/x", join(outside, "x"), "src/out/x", join(other, "x"), "src", ".", "", "file:///etc/passwd"]) {
      expect(await fileApprovalScope(roots, path, "edits"), path).toBeUndefined();
    }
  });
});
