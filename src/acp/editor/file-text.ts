// A file's text for the file tools, at the real path a session's path resolved to: the editor's
// buffer when it offers fs (so the agent sees unsaved changes), else the disk, opened so that a link
// that appears in the meantime is refused (disk-files). A directory or a special file is refused
// before anything is asked.

import { readChecked, writeChecked } from "../../files/disk-files.js";
import { namedPath, type ResolvedPath } from "../../files/session-paths.js";
import type { EditorAccess } from "./editor-access.js";

/** Reads a file's text: the editor's buffer when it offers fs, else the disk (undefined if missing). */
export async function readText(access: EditorAccess, sessionId: string, target: ResolvedPath, signal: AbortSignal): Promise<string | undefined> {
  if (access.canRead()) {
    try {
      const { content } = await access.request("fs/read_text_file", { sessionId, path: target.real }, signal);
      return content;
    } catch (error) {
      // An editor answers a missing file with an error; the disk tells whether it is missing.
      if (target.kind === "missing") {
        return undefined;
      }
      throw error;
    }
  }
  return readChecked(target.real);
}

export async function writeText(access: EditorAccess, sessionId: string, target: ResolvedPath, content: string, signal: AbortSignal): Promise<void> {
  if (access.canWrite()) {
    await access.request("fs/write_text_file", { sessionId, path: target.real, content }, signal);
    return;
  }
  await writeChecked(target.real, content);
}

/** A file to read or change: refuses a directory or a special file before anything is asked. */
export async function fileTarget(access: EditorAccess, sessionId: string, path: string): Promise<ResolvedPath> {
  const target = await access.resolve(sessionId, path);
  if (target.kind === "directory") {
    throw new Error(`${path} is a directory; use list_files to see what is in it.`);
  }
  if (target.kind === "other") {
    throw new Error(`${path} is not a regular file.`);
  }
  return target;
}

/** How the model is told which file it changed: `notes.txt`, or `notes.txt → docs/notes.txt` through a link. */
export function named(path: string, target: ResolvedPath): string {
  const real = namedPath(target);
  return target.linked ? `${path} → ${real}` : real;
}
