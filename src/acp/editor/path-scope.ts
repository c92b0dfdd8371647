// What an "always" answer to write_file or edit_file covers: the directory the file really is in,
// inside the session's own directory, and everything below it (`src/lib/`); for a file at the top
// of the project, the whole project (PROJECT_SCOPE). A grant for a directory covers the directories
// under it, and the project's covers them all. Protected paths (`.git/`, `.env*`, weft's own files)
// and paths outside the project (refused, or in one of the session's other directories) have no
// scope: they are asked about every time.

import type { ApprovalScope } from "../../agent/tool-approval.js";
import { PROTECTED_PATHS_NOTE, protectedPath } from "./protected-paths.js";
import { resolvePath, type SessionRoots, shownPath } from "../../files/session-paths.js";

/** The scope key of the whole project: what "always" on a top-level file covers. No directory can have it. */
export const PROJECT_SCOPE = "./";

/** Where a file change falls, relative to the project with forward slashes. */
export interface PathScope {
  /** `src/lib/` (a directory, ending in a slash) or PROJECT_SCOPE (a top-level file). */
  pattern: string;
  /** The scopes above `pattern`, nearest first (`src/` then PROJECT_SCOPE for `src/lib/`), whose grants cover it too. */
  within: string[];
}

/**
 * The scope of a path already resolved and named relative to the project (`src/lib/a.ts`), or
 * undefined for one that is not plainly inside it: empty, `.`, absolute, with a `..`, a `.` or an
 * empty component, a backslash, or a control character, backtick or newline in it.
 */
export function pathScope(relative: string): PathScope | undefined {
  // eslint-disable-next-line no-control-regex
  if (relative === "" || relative.length > 1000 || /[\u0000-\u001f\u007f`\\]/.test(relative) || relative.startsWith("/") || /^[A-Za-z]:/.test(relative)) {
    return undefined;
  }
  const parts = relative.split("/");
  if (parts.some((part) => part === "" || part === "." || part === "..")) {
    return undefined;
  }
  if (parts.length === 1) {
    return { pattern: PROJECT_SCOPE, within: [] };
  }
  const directories = parts.slice(0, -1);
  const within: string[] = [];
  for (let length = directories.length - 1; length >= 1; length--) {
    within.push(`${directories.slice(0, length).join("/")}/`);
  }
  within.push(PROJECT_SCOPE);
  return { pattern: `${directories.join("/")}/`, within };
}

/** What a grant of `pattern` covers, in words: "writes in `src/` and below", "writes anywhere in the project (…)". */
export function scopeLabel(pattern: string, verb: string): string {
  return pattern === PROJECT_SCOPE ? `${verb} anywhere in the project (${PROTECTED_PATHS_NOTE})` : `${verb} in \`${pattern}\` and below`;
}

/**
 * The scope a file tool declares for `path`: where it really leads (every link followed), when that
 * is in the session's own directory and not protected. `verb` names the change in the label
 * ("edits", "writes").
 */
export async function fileApprovalScope(roots: SessionRoots, path: string, verb: string): Promise<ApprovalScope | undefined> {
  let relative: string;
  let real: string;
  try {
    const target = await resolvePath(roots, path);
    if (!target.primary || target.kind === "directory" || target.kind === "other") {
      return undefined;
    }
    real = target.real;
    relative = shownPath(target.root, target.real);
  } catch {
    return undefined;
  }
  const scope = pathScope(relative);
  if (!scope || protectedPath(relative, real) !== undefined) {
    return undefined;
  }
  return { key: scope.pattern, label: scopeLabel(scope.pattern, verb), within: scope.within };
}
