// Paths a tool is given, resolved against the session's directory. Relative paths are relative to
// it; `file://` URIs and Windows drive-letter paths are understood; anything that ends up outside
// the directory (`..`, an absolute path elsewhere, a symlink that leads out, even on the way) is
// refused. resolvePath() follows every link itself, one component at a time, so the tools read and
// write the real path it returns and never hand the system (or the editor) a path with a link in it.

import { lstat, readlink, realpath } from "node:fs/promises";
import { posix, win32 } from "node:path";
import { fileURLToPath } from "node:url";

import { hasMarker, WeftError } from "../../../errors/weft-error.js";

const pathOutsideErrorMarker = Symbol.for("weft.error.PathOutsideError");

/** A path that resolves outside the session's directory. */
export class PathOutsideError extends WeftError {
  readonly [pathOutsideErrorMarker] = true;

  static override isInstance(error: unknown): error is PathOutsideError {
    return hasMarker(error, pathOutsideErrorMarker);
  }

  constructor(
    readonly requested: string,
    readonly root: string,
    /** Where it leads, as far as it was followed (the rest read as text). */
    readonly leadsTo?: string,
    /** True when a symlink took it there. */
    readonly throughLink = false,
  ) {
    super("path_outside", `Refused: ${JSON.stringify(requested)} is outside the session's directory ${root}.`);
    this.name = "PathOutsideError";
  }
}

const pathLoopErrorMarker = Symbol.for("weft.error.PathLoopError");

/** A path with more links on the way than the system would follow (a loop, most likely). */
export class PathLoopError extends WeftError {
  readonly [pathLoopErrorMarker] = true;

  static override isInstance(error: unknown): error is PathLoopError {
    return hasMarker(error, pathLoopErrorMarker);
  }

  constructor(readonly requested: string) {
    super("path_loop", `Refused: ${JSON.stringify(requested)} goes through more than ${MAX_LINKS} symbolic links (a loop?).`);
    this.name = "PathLoopError";
  }
}

/** Where a path a tool was given really leads. */
export interface ResolvedPath {
  /** The session's directory with its own links followed; `real` is inside it. */
  root: string;
  /** Where the path leads, every link followed: the path to read or write. No link is left in it. */
  real: string;
  /** True when a symlink was followed on the way, so `real` is not the path as given. */
  linked: boolean;
  /** What is at `real` now; `missing` for a file about to be created. */
  kind: "file" | "directory" | "other" | "missing";
}

/** As many links as Linux follows in one lookup. */
const MAX_LINKS = 40;

/** True for `C:\…`, `C:/…` and `\\server\share\…`. */
export function isWindowsPath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

function flavourOf(root: string): typeof posix {
  return isWindowsPath(root) ? win32 : posix;
}

/** The path a `file://` URI names, or the text as it is. */
function fromUri(requested: string, windows: boolean): string {
  const path = requested.trim();
  return /^file:\/\//i.test(path) ? fileURLToPath(path, { windows }) : path;
}

/**
 * The absolute path `requested` names inside `root`, or a PathOutsideError. `root` decides the
 * flavour: a Windows root compares paths the Windows way (either slash, any case), and a POSIX root
 * refuses Windows paths (`C:\…`, `\\server\…`) rather than taking them for odd file names. Only
 * the text is looked at, no link is followed: see resolvePath for that.
 */
export function resolveInside(root: string, requested: string): string {
  const flavour = flavourOf(root);
  const path = fromUri(requested, flavour === win32);
  if (flavour === posix && isWindowsPath(path)) {
    throw new PathOutsideError(requested, root, path);
  }
  const absolute = flavour.isAbsolute(path) ? flavour.normalize(path) : flavour.resolve(root, path);
  if (!inside(flavour, root, absolute)) {
    throw new PathOutsideError(requested, root, absolute);
  }
  return absolute;
}

function inside(flavour: typeof posix, root: string, path: string): boolean {
  const windows = flavour === win32;
  const relative = flavour.relative(windows ? root.toLowerCase() : root, windows ? path.toLowerCase() : path);
  return relative === "" || (!(relative === ".." || relative.startsWith(`..${flavour.sep}`)) && !flavour.isAbsolute(relative));
}

function components(flavour: typeof posix, path: string): string[] {
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
 * Resolves `requested` inside `root` on this machine's disk, following every symlink as the system
 * would (a link's target replaces it, and a `..` after a link climbs from where the link led), and
 * refuses it as soon as it reaches a place outside the real directory, even on the way to one
 * inside. A dangling link is followed too: writing through it would create its target, so its
 * target must be inside. A link with an absolute target is followed only when the target names a
 * place under the session's directory.
 *
 * A root of the other flavour (a Windows root on a POSIX machine) is only checked as text.
 */
export async function resolvePath(root: string, requested: string): Promise<ResolvedPath> {
  const flavour = flavourOf(root);
  if ((flavour === win32) !== (process.platform === "win32")) {
    return { root, real: resolveInside(root, requested), linked: false, kind: "missing" };
  }
  const realRoot = await realpath(root).catch(() => flavour.resolve(root));
  const path = fromUri(requested, flavour === win32);
  // The text must name a place inside, under the directory's name as given or its real name.
  let lexical: string;
  try {
    lexical = resolveInside(root, requested);
  } catch (error) {
    if (!PathOutsideError.isInstance(error) || realRoot === root) {
      throw error;
    }
    lexical = resolveInside(realRoot, requested);
  }
  const start = !flavour.isAbsolute(path)
    ? components(flavour, path)
    : (below(flavour, root, path) ?? below(flavour, realRoot, path) ?? components(flavour, flavour.relative(inside(flavour, root, lexical) ? root : realRoot, lexical)));

  const outside = (leadsTo: string, throughLink: boolean) => new PathOutsideError(requested, root, leadsTo, throughLink);
  // Components still to walk, the next one last.
  const pending = start.reverse();
  let current = realRoot;
  let linked = false;
  let links = 0;
  let missing = false;
  let kind: ResolvedPath["kind"] = "directory";
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (name === "..") {
      const parent = flavour.dirname(current);
      if (!inside(flavour, realRoot, parent)) {
        throw outside(flavour.join(parent, ...[...pending].reverse()), linked);
      }
      current = parent;
      kind = missing ? "missing" : "directory";
      continue;
    }
    const next = flavour.join(current, name);
    if (missing) {
      current = next;
      continue;
    }
    let info;
    try {
      info = await lstat(next);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        throw error;
      }
    }
    if (info?.isSymbolicLink()) {
      if (++links > MAX_LINKS) {
        throw new PathLoopError(requested);
      }
      linked = true;
      const target = await readlink(next);
      if (flavour.isAbsolute(target)) {
        const rest = below(flavour, realRoot, target) ?? below(flavour, root, target);
        if (!rest) {
          throw outside(flavour.normalize(target), true);
        }
        current = realRoot;
        pending.push(...rest.reverse());
      } else {
        pending.push(...components(flavour, target).reverse());
      }
      continue;
    }
    current = next;
    if (!info) {
      missing = true;
      kind = "missing";
    } else {
      kind = info.isFile() ? "file" : info.isDirectory() ? "directory" : "other";
      // A file has no children: whatever is asked below it does not exist.
      missing = kind !== "directory" && pending.length > 0;
    }
  }
  return { root: realRoot, real: current, linked, kind };
}

/**
 * Resolves like resolvePath and returns the real path: inside `root` with no link left in it, so
 * reading or writing it cannot be led out (a dangling link included).
 */
export async function resolveOnDisk(root: string, requested: string): Promise<string> {
  return (await resolvePath(root, requested)).real;
}

/** `path` (inside `root`) relative to it with forward slashes, `.` for the root itself. */
export function shownPath(root: string, path: string): string {
  const flavour = flavourOf(root);
  return flavour.relative(root, path).split(flavour.sep).join("/") || ".";
}
