// The check that a session opened remotely stays in the server's roots: its `cwd` and other
// directories must really lead inside one, links followed, including a directory not made yet.

import { PathLoopError, realPlace, withinAny } from "../../files/session-paths.js";
import { DirectoryNotAllowedError } from "../errors/request-errors.js";

/**
 * Throws DirectoryNotAllowedError (naming `roots`) for the first of `directories` that does not
 * really lead inside one of `roots`. Where each leads is read as the file tools will read it (realPlace): links on
 * the way followed, a dangling one to its target, and a part that does not exist yet put under the
 * real place above it. So a directory not made yet is allowed only when the real place it would be
 * made in is inside, and one under a link that points out, or through a dangling link to the
 * outside, is refused now rather than once it exists. A directory whose place cannot be told (a
 * loop of links, one that cannot be read) is refused too.
 */
export async function checkInRoots(directories: readonly string[], roots: readonly string[]): Promise<void> {
  const allowed = await Promise.all(roots.map(realPlace));
  for (const directory of directories) {
    let place: string;
    try {
      place = await realPlace(directory);
    } catch (error) {
      // A loop, or the system's error for a directory on the way that cannot be read.
      if (PathLoopError.isInstance(error) || (error instanceof Error && "syscall" in error)) {
        throw new DirectoryNotAllowedError(directory, roots);
      }
      throw error;
    }
    if (!withinAny(allowed, place)) {
      throw new DirectoryNotAllowedError(directory, roots);
    }
  }
}
