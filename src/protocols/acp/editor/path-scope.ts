// What an "always" answer to write_file or edit_file covers: the directory the file really is in,
// inside the session's own directory (`src/lib/`, which covers everything under it), or for a
// file at the top of the project that file alone. A path outside the project (refused, or in one of
// the session's other directories) has no scope and is asked about every time.

import type { ApprovalScope } from "../../../agent/tool-approval.js";
import { resolvePath, type SessionRoots, shownPath } from "./session-paths.js";

/** Where a file change falls, relative to the project with forward slashes. */
export interface PathScope {
  /** `src/lib/` (a directory, ending in a slash) or `README.md` (a top-level file). */
  pattern: string;
  /** The directories above `pattern`, nearest first (`src/` for `src/lib/`), whose grants cover it too. */
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
    return { pattern: relative, within: [] };
  }
  const directories = parts.slice(0, -1);
  const within: string[] = [];
  for (let length = directories.length - 1; length >= 1; length--) {
    within.push(`${directories.slice(0, length).join("/")}/`);
  }
  return { pattern: `${directories.join("/")}/`, within };
}

/**
 * The scope a file tool declares for `path`: where it really leads (every link followed), when that
 * is in the session's own directory. `verb` names the change in the label ("edits", "writes").
 */
export async function fileApprovalScope(roots: SessionRoots, path: string, verb: string): Promise<ApprovalScope | undefined> {
  let relative: string;
  try {
    const target = await resolvePath(roots, path);
    if (!target.primary || target.kind === "directory" || target.kind === "other") {
      return undefined;
    }
    relative = shownPath(target.root, target.real);
  } catch {
    return undefined;
  }
  const scope = pathScope(relative);
  if (!scope) {
    return undefined;
  }
  const label = scope.pattern.endsWith("/") ? `${verb} in \`${scope.pattern}\`` : `${verb} of \`${scope.pattern}\``;
  return { key: scope.pattern, label, within: scope.within };
}
