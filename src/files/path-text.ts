// Paths as text, in the flavour of the directory they are read against (POSIX, or Windows: either
// slash, any case): whether one is inside another, its components, and how a tool names it. Nothing
// here looks at the disk; session-paths.ts resolves paths on it with these.

import { posix, win32 } from "node:path";
import { fileURLToPath } from "node:url";

/** True for `C:\…`, `C:/…` and `\\server\share\…`. */
export function isWindowsPath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/** How paths under `root` are read: the Windows way for a Windows root, else POSIX. */
export function flavourOf(root: string): typeof posix {
  return isWindowsPath(root) ? win32 : posix;
}

/** The path a `file://` URI names, or the text as it is. */
export function fromUri(requested: string, windows: boolean): string {
  const path = requested.trim();
  return /^file:\/\//i.test(path) ? fileURLToPath(path, { windows }) : path;
}

/** True when `path` is `root` or below it, as text (in any case for a Windows root). */
export function inside(flavour: typeof posix, root: string, path: string): boolean {
  const windows = flavour === win32;
  const relative = flavour.relative(windows ? root.toLowerCase() : root, windows ? path.toLowerCase() : path);
  return relative === "" || (!(relative === ".." || relative.startsWith(`..${flavour.sep}`)) && !flavour.isAbsolute(relative));
}

/** The names along `path`, without empty ones and `.`. */
export function components(flavour: typeof posix, path: string): string[] {
  return path.split(flavour === win32 ? /[\\/]+/ : /\/+/).filter((part) => part !== "" && part !== ".");
}

/** The components of `path` below `root`, read from the text as given, or undefined when it does not start with `root`. */
function below(flavour: typeof posix, root: string, path: string): string[] | undefined {
  const rootParts = components(flavour, root);
  const parts = components(flavour, path);
  const same = flavour === win32 ? (left: string, right: string) => left.toLowerCase() === right.toLowerCase() : (left: string, right: string) => left === right;
  if (parts.length < rootParts.length || !rootParts.every((part, index) => same(part, parts[index] as string))) {
    return undefined;
  }
  return parts.slice(rootParts.length);
}

/**
 * The real directory an absolute `path` (a link's target) names a place under, as text, with the
 * components below it: the deepest match, under a directory's real name or its name as given.
 */
export function underRoot(flavour: typeof posix, given: readonly string[], realRoots: readonly string[], path: string): { root: string; rest: string[] } | undefined {
  let best: { root: string; rest: string[] } | undefined;
  for (const [index, realRoot] of realRoots.entries()) {
    const rest = below(flavour, realRoot, path) ?? below(flavour, given[index] as string, path);
    if (rest && (!best || rest.length < best.rest.length)) {
      best = { root: realRoot, rest };
    }
  }
  return best;
}

/**
 * Where the walk of an absolute path a tool was given starts: the directory it is under as text
 * (see underRoot), or, for a path whose text only normalizes to a place inside one (`//a/./b`, a
 * Windows path in another case), that directory and the normalized components below it.
 */
export function startUnder(flavour: typeof posix, given: readonly string[], realRoots: readonly string[], path: string): { root: string; rest: string[] } | undefined {
  const found = underRoot(flavour, given, realRoots, path);
  if (found) {
    return found;
  }
  const absolute = flavour.normalize(path);
  for (const [index, realRoot] of realRoots.entries()) {
    for (const root of [given[index] as string, realRoot]) {
      if (inside(flavour, root, absolute)) {
        return { root: realRoot, rest: components(flavour, flavour.relative(root, absolute)) };
      }
    }
  }
  return undefined;
}

/** The deepest of `roots` that `path` is inside. */
export function deepest(flavour: typeof posix, roots: readonly string[], path: string): string {
  const holding = roots.filter((root) => inside(flavour, root, path));
  return holding.reduce((best, root) => (root.length > best.length ? root : best), holding[0] ?? (roots[0] as string));
}

/** `path` (inside `root`) relative to it with forward slashes, `.` for the root itself. */
export function shownPath(root: string, path: string): string {
  const flavour = flavourOf(root);
  return flavour.relative(root, path).split(flavour.sep).join("/") || ".";
}
