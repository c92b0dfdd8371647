// Paths a tool is given, resolved against the session's directory. Relative paths are relative to
// it; `file://` URIs and Windows drive-letter paths are understood; anything that ends up outside
// the directory (`..`, an absolute path elsewhere, a symlink that leads out) is refused.

import { realpath } from "node:fs/promises";
import { posix, win32 } from "node:path";
import { fileURLToPath } from "node:url";

import { WeftError } from "../../../errors/weft-error.js";

/** A path that resolves outside the session's directory. */
export class PathOutsideError extends WeftError {
  constructor(
    readonly requested: string,
    readonly root: string,
  ) {
    super("path_outside", `Refused: ${JSON.stringify(requested)} is outside the session's directory ${root}.`);
    this.name = "PathOutsideError";
  }
}

/** True for `C:\…`, `C:/…` and `\\server\share\…`. */
export function isWindowsPath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/**
 * The absolute path `requested` names inside `root`, or a PathOutsideError. `root` decides the
 * flavour: a Windows root compares paths the Windows way (either slash, any case).
 */
export function resolveInside(root: string, requested: string): string {
  const windows = isWindowsPath(root);
  const flavour = windows ? win32 : posix;
  let path = requested.trim();
  if (/^file:\/\//i.test(path)) {
    path = fileURLToPath(path, { windows });
  }
  const absolute = flavour.isAbsolute(path) ? flavour.normalize(path) : flavour.resolve(root, path);
  if (!inside(flavour, root, absolute)) {
    throw new PathOutsideError(requested, root);
  }
  return absolute;
}

function inside(flavour: typeof posix, root: string, path: string): boolean {
  const windows = flavour === win32;
  const relative = flavour.relative(windows ? root.toLowerCase() : root, windows ? path.toLowerCase() : path);
  return relative === "" || (!relative.startsWith("..") && !flavour.isAbsolute(relative));
}

/**
 * Resolves like resolveInside and, on this machine's disk, also follows symlinks: the real path of
 * the target (or of its nearest existing parent, for a file about to be created) must be inside the
 * real path of `root`.
 */
export async function resolveOnDisk(root: string, requested: string): Promise<string> {
  const path = resolveInside(root, requested);
  if (isWindowsPath(root) !== (process.platform === "win32")) {
    return path;
  }
  const realRoot = await realpath(root).catch(() => root);
  let probe = path;
  for (;;) {
    try {
      const real = await realpath(probe);
      if (!inside(process.platform === "win32" ? win32 : posix, realRoot, real)) {
        throw new PathOutsideError(requested, root);
      }
      return path;
    } catch (error) {
      if (error instanceof PathOutsideError) {
        throw error;
      }
      const parent = (process.platform === "win32" ? win32 : posix).dirname(probe);
      if (parent === probe) {
        return path;
      }
      probe = parent;
    }
  }
}
