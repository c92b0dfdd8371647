// Paths a tool is given, resolved against the session's directories: its own (`cwd`, the base of
// relative paths) and any others the editor opened it with. `file://` URIs and Windows drive-letter
// paths are understood; anything that ends up outside every one of them (`..`, an absolute path
// elsewhere, a symlink that leads out, even on the way) is refused. resolvePath() follows every link
// itself, one component at a time, so the tools read and write the real path it returns and never
// hand the system (or the editor) a path with a link in it.

import { lstat, readlink, realpath } from "node:fs/promises";
import { posix, resolve, win32 } from "node:path";

import { WeftError } from "../errors/weft-error.js";
import { components, deepest, flavourOf, fromUri, inside, isWindowsPath, shownPath, startUnder, underRoot } from "./path-text.js";

export { isWindowsPath, shownPath } from "./path-text.js";

/** A path that resolves outside the session's directories. */
export class PathOutsideError extends WeftError {
  static override readonly errorName = "PathOutsideError";

  constructor(
    readonly requested: string,
    /** The session's own directory. */
    readonly root: string,
    /** Where it leads, as far as it was followed (the rest read as text). */
    readonly leadsTo?: string,
    /** True when a symlink took it there. */
    readonly throughLink = false,
    /** The session's other directories, which it is outside of too. */
    readonly others: readonly string[] = [],
    /** True when it is outside the bounds the session is kept in (the server's roots), wherever the session's directories lead. */
    readonly outOfBounds = false,
  ) {
    super(
      "path_outside",
      outOfBounds
        ? `Refused: ${JSON.stringify(requested)} leads to ${leadsTo ?? "a place"}, outside the directories this server lets the session use.`
        : others.length === 0
          ? `Refused: ${JSON.stringify(requested)} is outside the session's directory ${root}.`
          : `Refused: ${JSON.stringify(requested)} is outside the session's directories ${[root, ...others].join(", ")}.`,
    );
  }
}

/** A path with more links on the way than the system would follow (a loop, most likely). */
export class PathLoopError extends WeftError {
  static override readonly errorName = "PathLoopError";

  constructor(readonly requested: string) {
    super("path_loop", `Refused: ${JSON.stringify(requested)} goes through more than ${MAX_LINKS} symbolic links (a loop?).`);
  }
}

/**
 * The directories a path may lead into: one, or a list whose first is the session's own directory
 * (the base of relative paths) and the rest its other directories.
 */
export type SessionRoots = string | readonly string[];

/** Where a path a tool was given really leads. */
export interface ResolvedPath {
  /** The session directory `real` is in, with its own links followed: its own one when `real` is in it. */
  root: string;
  /** True when `root` is the session's own directory, so `real` can be named relative to it. */
  primary: boolean;
  /** Where the path leads, every link followed: the path to read or write. No link is left in it. */
  real: string;
  /** True when a symlink was followed on the way, so `real` is not the path as given. */
  linked: boolean;
  /** What is at `real` now; `missing` for a file about to be created. */
  kind: "file" | "directory" | "other" | "missing";
}

/** As many links as Linux follows in one lookup. */
const MAX_LINKS = 40;

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

/**
 * Resolves `requested` inside the session's directories on this machine's disk, following every
 * symlink as the system would (a link's target replaces it, and a `..` after a link climbs from
 * where the link led), and refuses it as soon as it reaches a place outside every real directory,
 * even on the way to one inside, with one exception: a `..` out of every directory whose rest, as
 * text, names a place under one of them again (`../lib/x` from a directory beside `lib`) goes on
 * from that directory, without looking at anything outside. A relative path starts from the first
 * directory; an absolute one, or a link's absolute target, from the directory it names a place
 * under. A dangling link is followed too: writing through it would create its target, so its
 * target must be inside.
 *
 * `bounds`, when given (a session served remotely: the server's roots for the person it is
 * for), hold the session in whatever its own directories lead to now: a directory of the session
 * that really leads outside every bound is left out, and when that is its own directory (the base
 * of relative paths) every path is refused. Over stdio there are none: the editor's directories
 * are the session's to use wherever they lead.
 *
 * Directories of the other flavour (Windows ones on a POSIX machine) are only checked as text.
 */
export async function resolvePath(roots: SessionRoots, requested: string, bounds?: readonly string[]): Promise<ResolvedPath> {
  const listed = typeof roots === "string" ? [roots] : [...roots];
  const primary = listed[0];
  if (primary === undefined) {
    throw new WeftError("no_session", "A path was resolved with no session directory.");
  }
  const flavour = flavourOf(primary);
  const others = listed.slice(1);
  const outside = (leadsTo: string, throughLink: boolean) => new PathOutsideError(requested, primary, leadsTo, throughLink, others);
  const path = fromUri(requested, flavour === win32);
  if (flavour === posix && isWindowsPath(path)) {
    throw outside(path, false);
  }
  /** The place the text names, read from `base` when it is relative. */
  const asText = (base: string) => (flavour.isAbsolute(path) ? flavour.normalize(path) : flavour.resolve(base, path));
  if ((flavour === win32) !== (process.platform === "win32")) {
    // Only the text can be checked.
    const absolute = asText(primary);
    const index = listed.findIndex((root) => inside(flavour, root, absolute));
    if (index === -1) {
      throw outside(absolute, false);
    }
    if (bounds && !withinAny(bounds, absolute)) {
      throw new PathOutsideError(requested, primary, absolute, false, others, true);
    }
    return { root: listed[index] as string, primary: index === 0, real: absolute, linked: false, kind: "missing" };
  }
  let given = listed;
  let realRoots = await Promise.all(listed.map(realPlace));
  let realBounds: string[] | undefined;
  if (bounds) {
    realBounds = await Promise.all(bounds.map(realPlace));
    const kept = realRoots.map((root) => withinAny(realBounds as string[], root));
    if (!kept[0]) {
      // Its own directory leads out: name where the path would be, read from where that leads.
      const place = realRoots[0] as string;
      const named = asText(primary);
      throw new PathOutsideError(requested, primary, inside(flavour, primary, named) ? flavour.join(place, flavour.relative(primary, named)) : place, true, others, true);
    }
    given = listed.filter((_, index) => kept[index]);
    realRoots = realRoots.filter((_, index) => kept[index]);
  }
  const realPrimary = realRoots[0] as string;
  const insideAny = (place: string) => realRoots.some((root) => inside(flavour, root, place));
  let start: string[];
  let current: string;
  if (!flavour.isAbsolute(path)) {
    // The text must name a place inside a directory, read from the first under its name as given or its real name.
    const candidates = [...given, ...realRoots];
    if (![asText(primary), asText(realPrimary)].some((place) => candidates.some((root) => inside(flavour, root, place)))) {
      throw outside(asText(primary), false);
    }
    start = components(flavour, path);
    current = realPrimary;
  } else {
    const found = startUnder(flavour, given, realRoots, path);
    if (!found) {
      throw outside(flavour.normalize(path), false);
    }
    start = found.rest;
    current = found.root;
  }

  // Components still to walk, the next one last.
  const pending = start.reverse();
  let linked = false;
  let links = 0;
  let missing = false;
  let kind: ResolvedPath["kind"] = "directory";
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (name === "..") {
      const parent = flavour.dirname(current);
      if (!insideAny(parent)) {
        // Out of every directory: refused, unless the rest, read as text, goes back under one of
        // them (`../lib` between two directories side by side). Nothing outside is looked at.
        const rest = [...pending].reverse();
        const back = underRoot(flavour, given, realRoots, [parent, ...rest].join(flavour.sep));
        if (!back) {
          throw outside(flavour.join(parent, ...rest), linked);
        }
        current = back.root;
        pending.length = 0;
        pending.push(...back.rest.reverse());
        missing = false;
        kind = "directory";
        continue;
      }
      if (missing && !realRoots.includes(parent)) {
        // Climbing out of a place that does not exist (yet) may land on one that does, and that may
        // be a link now: walk the parent's name again instead of taking it as text.
        current = flavour.dirname(parent);
        pending.push(flavour.basename(parent));
        missing = false;
        continue;
      }
      current = parent;
      missing = false;
      kind = "directory";
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
        const under = underRoot(flavour, given, realRoots, target);
        if (!under) {
          throw outside(flavour.normalize(target), true);
        }
        current = under.root;
        pending.push(...under.rest.reverse());
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
  if (realBounds && !withinAny(realBounds, current)) {
    throw new PathOutsideError(requested, primary, current, linked, others, true);
  }
  const root = inside(flavour, realPrimary, current) ? realPrimary : deepest(flavour, realRoots, current);
  return { root, primary: root === realPrimary, real: current, linked, kind };
}

/**
 * Where an absolute path really leads on this machine, as resolvePath reads it: every link on
 * the way followed (a dangling one to its target, where writing through it would create
 * something), and the part that does not exist yet appended to the real place above it, with a
 * `..` after a link climbing from where the link led. A relative path is read from the process's
 * directory; one of the other flavour is only normalized. Rejects with a PathLoopError for a loop
 * of links, and with the system's error when a directory on the way cannot be read.
 */
export async function realPlace(path: string): Promise<string> {
  const absolute = posix.isAbsolute(path) || isWindowsPath(path) ? path : resolve(path);
  const flavour = flavourOf(absolute);
  if ((flavour === win32) !== (process.platform === "win32")) {
    return flavour.normalize(absolute);
  }
  try {
    return await realpath(absolute);
  } catch {
    // Missing, or through a dangling link: walk it from the top of the file system, inside which
    // nothing is refused.
  }
  const top = flavour.parse(flavour.normalize(absolute)).root;
  return top === flavour.normalize(absolute) ? top : (await resolvePath(top, absolute)).real;
}

/**
 * True when `place` is one of `directories` or below one, compared as text in their flavour (a
 * Windows directory compares in any case). Give real paths, such as realPlace's, to ask where a
 * path really is.
 */
export function withinAny(directories: readonly string[], place: string): boolean {
  return directories.some((directory) => inside(flavourOf(directory), directory, place));
}

/**
 * Resolves like resolvePath and returns the real path: inside `root` with no link left in it, so
 * reading or writing it cannot be led out (a dangling link included).
 */
export async function resolveOnDisk(roots: SessionRoots, requested: string): Promise<string> {
  return (await resolvePath(roots, requested)).real;
}

/**
 * How a tool names a resolved path to the model: relative to the session's own directory with
 * forward slashes (`.` for the directory itself), or in full when it is in another of its directories.
 */
export function namedPath(target: Pick<ResolvedPath, "root" | "primary" | "real">): string {
  return target.primary ? shownPath(target.root, target.real) : target.real;
}

