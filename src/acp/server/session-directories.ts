// The directories a session is opened in: its `cwd` and ACP's `additionalDirectories`, each of which
// must be an absolute path (POSIX or Windows, whichever the editor runs on). The editor bridge's
// tools work inside all of them; `cwd` stays the base of relative paths.

import { isAbsolute, win32 } from "node:path";

import { InvalidCwdError, InvalidDirectoryError } from "../errors/request-errors.js";

function absolute(path: string): boolean {
  return isAbsolute(path) || win32.isAbsolute(path);
}

/** Throws InvalidCwdError unless `cwd` is an absolute path. */
export function checkCwd(cwd: string): void {
  if (!absolute(cwd)) {
    throw new InvalidCwdError(cwd);
  }
}

/**
 * A request's additional directories as the session keeps them: in the order given, each once,
 * without `cwd` itself; undefined when none are left. Throws InvalidDirectoryError for one that is
 * not an absolute path, before anything is kept.
 */
export function additionalDirectories(cwd: string, requested: readonly string[] | null | undefined): string[] | undefined {
  const kept: string[] = [];
  for (const directory of requested ?? []) {
    if (typeof directory !== "string" || !absolute(directory)) {
      throw new InvalidDirectoryError(String(directory));
    }
    if (directory !== cwd && !kept.includes(directory)) {
      kept.push(directory);
    }
  }
  return kept.length > 0 ? kept : undefined;
}
