// What a write or an edit would do, worked out before it runs: the text an edit makes of a file,
// and the description its approval shows (its title, the file, and the diff it would make, read
// from the editor's buffer or the disk as the call itself will), with where a path through a link
// leads.

import type { ApprovalDescription } from "../../agent/tool.js";
import { namedPath, PathOutsideError, type ResolvedPath } from "../../files/session-paths.js";
import type { ToolDisplay } from "../../types/tool-display.js";
import type { EditorAccess } from "./editor-access.js";
import { fileTarget, readText } from "./file-text.js";

/** What a write or an edit would make of a file's text, or why it would fail. */
export type Change = { after: string; line?: number | undefined } | { problem: string };

/**
 * For the approval of a write or an edit, before anything is written: its title, the file, and the
 * diff `change` makes of the file's text as the call will read it; a note instead of the diff when
 * the call would fail. A path that is (or goes through) a symlink says where it leads, including a
 * link that leads out, whose call will be refused.
 */
export async function describeChange(
  verb: string,
  access: EditorAccess,
  sessionId: string,
  path: string,
  signal: AbortSignal,
  change: (before: string | undefined) => Change,
): Promise<ApprovalDescription | undefined> {
  let target: ResolvedPath;
  try {
    target = await fileTarget(access, sessionId, path);
  } catch (error) {
    if (!(PathOutsideError.isInstance(error) && error.throughLink && error.leadsTo !== undefined)) {
      return undefined;
    }
    const note = `${path} is a symbolic link, or goes through one, that leads outside the project to ${error.leadsTo}. The call will be refused even if allowed.`;
    return { title: `${verb} ${path} → ${error.leadsTo} (outside the project; it will be refused)`, display: [{ type: "text", text: note }] };
  }
  const description: ApprovalDescription = { title: `${verb} ${path}`, display: [], locations: [{ path: target.real }] };
  const display = description.display as ToolDisplay[];
  if (target.linked) {
    description.title = `${verb} ${path} → ${namedPath(target)}`;
    display.push({ type: "text", text: `${path} is a symbolic link, or goes through one: this changes ${target.real}.` });
  }
  const before = await readText(access, sessionId, target, signal);
  const changed = change(before);
  if ("problem" in changed) {
    display.push({ type: "text", text: `This call will fail: ${changed.problem}` });
  } else {
    display.push({ type: "diff", path: target.real, oldText: before ?? null, newText: changed.after });
    if (changed.line !== undefined) {
      description.locations = [{ path: target.real, line: changed.line }];
    }
  }
  return description;
}

/** The text an edit makes of `before`: old_text replaced once (or everywhere), or why it cannot be. */
export function replaced(path: string, before: string | undefined, oldText: string, newText: string, replaceAll: boolean | undefined): Change & { count?: number | undefined } {
  if (before === undefined) {
    return { problem: `${path} does not exist; use write_file to create it.` };
  }
  const count = before.split(oldText).length - 1;
  if (count === 0) {
    return { problem: `old_text was not found in ${path}. Read the file again and copy the text exactly.` };
  }
  if (count > 1 && !replaceAll) {
    return { problem: `old_text appears ${count} times in ${path}; include more surrounding text, or set replace_all.` };
  }
  const after = replaceAll ? before.split(oldText).join(newText) : before.replace(oldText, () => newText);
  return { after, line: lineOf(before, before.indexOf(oldText)), count };
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let position = text.indexOf("\n"); position !== -1 && position < index; position = text.indexOf("\n", position + 1)) {
    line++;
  }
  return line;
}
