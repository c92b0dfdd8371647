import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { fileApprovalScope, pathScope, PROJECT_SCOPE } from "./path-scope.js";
import { protectedPath } from "./protected-paths.js";

describe("pathScope", () => {
  it("is the file's directory and below, covered by each directory above it and the project; a top-level file's is the project", () => {
    expect(pathScope("src/a.ts")).toEqual({ pattern: "src/", within: [PROJECT_SCOPE] });
    expect(pathScope("src/lib/deep/a.ts")).toEqual({ pattern: "src/lib/deep/", within: ["src/lib/", "src/", PROJECT_SCOPE] });
    expect(pathScope("README.md")).toEqual({ pattern: PROJECT_SCOPE, within: [] });
    expect(pathScope("my docs/a file.md")).toEqual({ pattern: "my docs/", within: [PROJECT_SCOPE] });
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

  it("scopes a file by the directory it really is in, relative to the project, and says it covers what is below", async () => {
    expect(await fileApprovalScope(project, "src/lib/a.ts", "edits")).toEqual({ key: "src/lib/", label: "edits in `src/lib/` and below", within: ["src/", PROJECT_SCOPE] });
    expect(await fileApprovalScope(project, join(project, "src", "new.ts"), "writes")).toEqual({ key: "src/", label: "writes in `src/` and below", within: [PROJECT_SCOPE] });
    // Through a link, the scope is where it leads.
    expect(await fileApprovalScope(project, "src/to-docs/guide.md", "edits")).toEqual({ key: "docs/", label: "edits in `docs/` and below", within: [PROJECT_SCOPE] });
    expect(await fileApprovalScope(project, "src/lib/../a.ts", "edits")).toEqual({ key: "src/", label: "edits in `src/` and below", within: [PROJECT_SCOPE] });
  });

  it("scopes a file at the top of the project to the whole project, and says which paths still ask", async () => {
    const scope = await fileApprovalScope(project, "notes.md", "writes");
    expect(scope).toEqual({ key: PROJECT_SCOPE, label: "writes anywhere in the project (`.git/`, `.env*` and weft's own files still ask)", within: [] });
  });

  it("has none for protected paths: the repository's .git, environment files, weft's own state", async () => {
    for (const path of [".git/config", "sub/.git/hooks/pre-commit", ".env", ".env.local", "src/.envrc", "config/.ENV"]) {
      expect(await fileApprovalScope(project, path, "writes"), path).toBeUndefined();
    }
    expect(protectedPath("notes.md")).toBeUndefined();
    expect(protectedPath("src/environment.ts")).toBeUndefined();
    expect(protectedPath("x", join(base, "state", "weft", "sessions.db"), { HOME: base, XDG_STATE_HOME: join(base, "state") })).toBe("it is one of weft's own files");
    expect(protectedPath("x", join(base, ".config", "weft", "models.json"), { HOME: base })).toBe("it is one of weft's own files");
    expect(protectedPath("x", join(base, ".config", "weftish", "a"), { HOME: base })).toBeUndefined();
  });

  it("has none outside the project: a climb out, an absolute path elsewhere, a link out, another of the session's directories, a directory", async () => {
    const roots = [project, other];
    for (const path of ["../outside/x", "src/../../outside/x", join(outside, "x"), "src/out/x", join(other, "x"), "src", ".", "", "file:///etc/passwd"]) {
      expect(await fileApprovalScope(roots, path, "edits"), path).toBeUndefined();
    }
  });
});
