// Reading and writing this machine's disk at paths resolvePath() checked, so that a link put in
// their way since then cannot lead a read or a write out: the file itself is opened without
// following a link (O_NOFOLLOW), and the file actually opened must be the checked one (Linux names
// it in /proc/self/fd; elsewhere its directory's real path is checked again). A write checks the
// file it opened before it truncates or writes anything.

import { constants } from "node:fs";
import { type FileHandle, mkdir, open, readlink, realpath, unlink } from "node:fs/promises";
import { dirname } from "node:path";

import { WeftError } from "../errors/weft-error.js";

/** The path changed (a link appeared in it) between being checked and being opened. */
export class PathChangedError extends WeftError {
  static override readonly errorName = "PathChangedError";

  constructor(readonly path: string) {
    super("path_changed", `Refused: ${path} changed while it was being opened (a symbolic link appeared in it).`);
  }
}

/** A path that names something other than a regular file: a directory, a pipe, a device. */
export class NotAFileError extends WeftError {
  static override readonly errorName = "NotAFileError";

  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super("not_a_file", `${path} is ${what}, not a file.`);
  }
}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NO_BLOCK = constants.O_NONBLOCK ?? 0;

/** The path the system says `handle` names, or undefined where it cannot say. */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  if (process.platform !== "linux") {
    return undefined;
  }
  return readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
}

/** True when the open handle is the file at `path`, which has no link in it. */
async function isOpenedAt(handle: FileHandle, path: string): Promise<boolean> {
  const opened = await openedPath(handle);
  if (opened !== undefined) {
    return opened === path;
  }
  const directory = dirname(path);
  return (await realpath(directory).catch(() => undefined)) === directory;
}

function openError(path: string, error: unknown): unknown {
  // O_NOFOLLOW refuses a link with ELOOP (EMLINK on some BSDs).
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EISDIR") {
    return new NotAFileError(path, "a directory");
  }
  return code === "ELOOP" || code === "EMLINK" ? new PathChangedError(path) : error;
}

/**
 * Opens the regular file at `path` for reading. Rejects with the system's ENOENT when it does not
 * exist, NotAFileError for a directory or a pipe (which is never read, so nothing blocks on it),
 * PathChangedError when a link is in its way.
 */
export async function openChecked(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW | NO_BLOCK);
  } catch (error) {
    throw openError(path, error);
  }
  try {
    if (!(await isOpenedAt(handle, path))) {
      throw new PathChangedError(path);
    }
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new NotAFileError(path, info.isDirectory() ? "a directory" : "a special file");
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The text of the file at `path`, or undefined when there is none. */
export async function readChecked(path: string): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await openChecked(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return undefined;
    }
    throw error;
  }
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/**
 * Writes `content` to the file at `path`, creating it and its missing directories. The file is
 * opened without truncating and checked before anything is written; one it created at a place the
 * check refuses (a directory swapped for a link in the meantime) is removed again, empty.
 */
export async function writeChecked(path: string, content: string): Promise<void> {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  if ((await realpath(directory)) !== directory) {
    throw new PathChangedError(path);
  }
  let handle: FileHandle;
  let created = true;
  try {
    try {
      handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw error;
      }
      created = false;
      handle = await open(path, constants.O_WRONLY | NO_FOLLOW | NO_BLOCK);
    }
  } catch (error) {
    throw openError(path, error);
  }
  try {
    const opened = await openedPath(handle);
    if (opened !== undefined ? opened !== path : !(await isOpenedAt(handle, path))) {
      if (created && opened !== undefined) {
        await unlink(opened).catch(() => undefined);
      }
      throw new PathChangedError(path);
    }
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new NotAFileError(path, info.isDirectory() ? "a directory" : "a special file");
    }
    await handle.truncate(0);
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}
