// The file tools: read, write and edit through the editor when it offers fs (so the agent sees
// unsaved buffers and the person reviews edits as diffs), else on disk; list and search on disk.
// Every path is resolved inside the session's directories with its links followed (resolvePath), and
// only the real path it gives is read or written: the editor is never handed a path with a link in
// it, and the disk is opened so that a link that appears in the meantime is refused (disk-files).
// A write or an edit is described for its approval before it runs: its title, the file, the diff it
// would make (read from the editor's buffer or the disk, as the call itself will), and where a path
// through a link leads.

import { posix, sep } from "node:path";

import type { ReadTextFileRequest } from "@agentclientprotocol/sdk";
import { z } from "zod";

import { type ApprovalDescription, defineTool, type Tool, type ToolOutput } from "../../agent/tool.js";
import type { ToolDisplay } from "../../types/tool-display.js";
import { boundText } from "../mapping/tool-calls.js";
import { openChecked, readChecked, writeChecked } from "../../files/disk-files.js";
import type { EditorAccess } from "./editor-access.js";
import { globToRegExp } from "../../files/ignore-rules.js";
import { fileApprovalScope } from "./path-scope.js";
import { namedPath, PathOutsideError, type ResolvedPath, shownPath } from "../../files/session-paths.js";
import { type WalkEntry, walkFiles } from "../../files/walk-files.js";

/** The largest file search_files reads. */
const SEARCH_MAX_BYTES = 2 * 1024 * 1024;

/** Reads a file's text: the editor's buffer when it offers fs, else the disk (undefined if missing). */
async function readText(access: EditorAccess, sessionId: string, target: ResolvedPath, signal: AbortSignal): Promise<string | undefined> {
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

async function writeText(access: EditorAccess, sessionId: string, target: ResolvedPath, content: string, signal: AbortSignal): Promise<void> {
  if (access.canWrite()) {
    await access.request("fs/write_text_file", { sessionId, path: target.real, content }, signal);
    return;
  }
  await writeChecked(target.real, content);
}

/** A file to read or change: refuses a directory or a special file before anything is asked. */
async function fileTarget(access: EditorAccess, sessionId: string, path: string): Promise<ResolvedPath> {
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
function named(path: string, target: ResolvedPath): string {
  const real = namedPath(target);
  return target.linked ? `${path} → ${real}` : real;
}

/** An entry a walk of `target.root` found, named as the model reads paths: in full outside the session's own directory. */
function walked(target: ResolvedPath, path: string): string {
  return target.primary ? path : `${target.root}${sep}${path.split("/").join(sep)}`;
}

/** What a write or an edit would make of a file's text, or why it would fail. */
type Change = { after: string; line?: number | undefined } | { problem: string };

/**
 * For the approval of a write or an edit, before anything is written: its title, the file, and the
 * diff `change` makes of the file's text as the call will read it; a note instead of the diff when
 * the call would fail. A path that is (or goes through) a symlink says where it leads, including a
 * link that leads out, whose call will be refused.
 */
async function describeChange(
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
function replaced(path: string, before: string | undefined, oldText: string, newText: string, replaceAll: boolean | undefined): Change & { count?: number } {
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

export function fileTools(access: EditorAccess, options: { ask: boolean }): Tool<unknown>[] {
  const limit = () => access.limits.modelChars;
  const readTool = defineTool({
    name: "read_file",
    description:
      "Read a text file in the project. Paths are relative to the project directory. Use line and limit to read part of a long file. Shows the editor's unsaved changes when there are any.",
    input: z.object({
      path: z.string().describe("The file, relative to the project directory."),
      line: z.number().int().positive().optional().describe("The first line to read (1-based)."),
      limit: z.number().int().positive().optional().describe("How many lines to read."),
    }),
    title: ({ path }) => `Read ${path}`,
    execute: async ({ path, line, limit: lines }, context) => {
      const target = await fileTarget(access, context.threadId, path);
      let text: string | undefined;
      if (access.canRead()) {
        const params: ReadTextFileRequest = { sessionId: context.threadId, path: target.real };
        if (line !== undefined) {
          params.line = line;
        }
        if (lines !== undefined) {
          params.limit = lines;
        }
        text = (await access.request("fs/read_text_file", params, context.signal)).content;
      } else {
        text = await readText(access, context.threadId, target, context.signal);
        if (text === undefined) {
          throw new Error(`${path} does not exist.`);
        }
        if (line !== undefined || lines !== undefined) {
          const all = text.split("\n");
          const first = (line ?? 1) - 1;
          text = all.slice(first, lines === undefined ? undefined : first + lines).join("\n");
        }
      }
      const output: ToolOutput = { output: boundText(text, limit()), locations: [line === undefined ? { path: target.real } : { path: target.real, line }] };
      return output;
    },
  });

  const writeTool = defineTool({
    name: "write_file",
    description: "Create a file or replace all of its contents. Paths are relative to the project directory. Prefer edit_file for changes to an existing file.",
    input: z.object({ path: z.string(), content: z.string() }),
    needsApproval: options.ask,
    title: ({ path }) => `Write ${path}`,
    describeApproval: ({ path, content }, { threadId, signal }) => describeChange("Write", access, threadId, path, signal, () => ({ after: content })),
    approvalScope: ({ path }, { threadId }) => fileApprovalScope(access.roots(threadId), path, "writes"),
    execute: async ({ path, content }, context) => {
      const target = await fileTarget(access, context.threadId, path);
      const before = await readText(access, context.threadId, target, context.signal);
      await writeText(access, context.threadId, target, content, context.signal);
      const output: ToolOutput = {
        output: `${before === undefined ? "Created" : "Wrote"} ${named(path, target)} (${content.split("\n").length} lines).`,
        display: [{ type: "diff", path: target.real, oldText: before ?? null, newText: content }],
        locations: [{ path: target.real }],
      };
      return output;
    },
  });

  const editTool = defineTool({
    name: "edit_file",
    description:
      "Replace text in a file: old_text must appear exactly once (include enough surrounding lines to make it unique), or set replace_all to replace every occurrence.",
    input: z.object({ path: z.string(), old_text: z.string().min(1), new_text: z.string(), replace_all: z.boolean().optional() }),
    needsApproval: options.ask,
    title: ({ path }) => `Edit ${path}`,
    describeApproval: ({ path, old_text: oldText, new_text: newText, replace_all: replaceAll }, { threadId, signal }) =>
      describeChange("Edit", access, threadId, path, signal, (before) => replaced(path, before, oldText, newText, replaceAll)),
    approvalScope: ({ path }, { threadId }) => fileApprovalScope(access.roots(threadId), path, "edits"),
    execute: async ({ path, old_text: oldText, new_text: newText, replace_all: replaceAll }, context) => {
      const target = await fileTarget(access, context.threadId, path);
      const before = await readText(access, context.threadId, target, context.signal);
      const change = replaced(path, before, oldText, newText, replaceAll);
      if ("problem" in change) {
        throw new Error(change.problem);
      }
      const count = change.count ?? 1;
      await writeText(access, context.threadId, target, change.after, context.signal);
      const output: ToolOutput = {
        output: `Edited ${named(path, target)}: replaced ${count} occurrence${count === 1 ? "" : "s"}.`,
        display: [{ type: "diff", path: target.real, oldText: before ?? "", newText: change.after }],
        locations: [{ path: target.real, line: change.line }],
      };
      return output;
    },
  });

  const listTool = defineTool({
    name: "list_files",
    description:
      "List files and directories (directories end with /; a symbolic link shows where it leads, as link -> target). Skips what .gitignore ignores. Set recursive to list everything below.",
    input: z.object({ path: z.string().optional().describe("A directory, relative to the project directory. Default: the project directory."), recursive: z.boolean().optional() }),
    title: ({ path }) => `List ${path ?? "."}`,
    execute: async ({ path, recursive }, context) => {
      const target = await access.resolve(context.threadId, path ?? ".");
      if (target.kind === "missing") {
        throw new Error(`${path ?? "."} does not exist.`);
      }
      const start = shownPath(target.root, target.real);
      if (target.kind !== "directory") {
        return namedPath(target);
      }
      const lines: string[] = [];
      let more = false;
      for await (const entry of walkFiles(target.root, { start: start === "." ? "" : start, recursive: Boolean(recursive), signal: context.signal })) {
        if (lines.length >= access.limits.maxEntries) {
          more = true;
          break;
        }
        const name = entry.directory && entry.link === undefined ? `${walked(target, entry.path)}/` : walked(target, entry.path);
        lines.push(entry.link === undefined ? name : `${name} -> ${walked(target, entry.link)}${entry.directory ? "/" : ""}`);
      }
      if (more) {
        lines.push(`… more entries not shown (the limit is ${access.limits.maxEntries}); list a subdirectory.`);
      }
      return lines.length > 0 ? lines.join("\n") : "(empty)";
    },
  });

  const searchTool = defineTool({
    name: "search_files",
    description:
      "Search file contents with a regular expression. Skips what .gitignore ignores, binary files, and symbolic links (each file is searched at its own path). Returns path:line: text for each match.",
    input: z.object({
      pattern: z.string().min(1).describe("A JavaScript regular expression (or plain text)."),
      path: z.string().optional().describe("A directory (or a file) to search in, relative to the project directory."),
      glob: z.string().optional().describe("Only files whose path matches this glob, such as *.ts or src/**/*.py."),
      ignore_case: z.boolean().optional(),
    }),
    title: ({ pattern }) => `Search ${pattern}`,
    execute: async ({ pattern, path, glob, ignore_case: ignoreCase }, context) => {
      const target = await access.resolve(context.threadId, path ?? ".");
      if (target.kind === "missing") {
        throw new Error(`${path ?? "."} does not exist.`);
      }
      const start = shownPath(target.root, target.real);
      let expression: RegExp;
      try {
        expression = new RegExp(pattern, ignoreCase ? "i" : "");
      } catch {
        expression = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), ignoreCase ? "i" : "");
      }
      const include = glob ? globMatcher(glob) : undefined;
      const files: AsyncIterable<WalkEntry> =
        target.kind === "directory" ? walkFiles(target.root, { start: start === "." ? "" : start, recursive: true, signal: context.signal }) : single({ path: start, directory: false });
      const matches: string[] = [];
      for await (const entry of files) {
        if (entry.directory || entry.link !== undefined || (include && !include(entry.path))) {
          continue;
        }
        const text = await searchable(`${target.root}${sep}${entry.path.split("/").join(sep)}`);
        if (text === undefined) {
          continue;
        }
        const lines = text.split("\n");
        for (let index = 0; index < lines.length; index++) {
          if (expression.test(lines[index] as string)) {
            matches.push(`${walked(target, entry.path)}:${index + 1}: ${(lines[index] as string).slice(0, 300)}`);
            if (matches.length >= access.limits.maxEntries) {
              matches.push(`… more matches not shown (the limit is ${access.limits.maxEntries}); narrow the search.`);
              return boundText(matches.join("\n"), limit());
            }
          }
        }
      }
      return matches.length > 0 ? boundText(matches.join("\n"), limit()) : "No matches.";
    },
  });

  return [readTool, writeTool, editTool, listTool, searchTool] as Tool<unknown>[];
}

async function* single<T>(value: T): AsyncGenerator<T> {
  yield value;
}

/** The text of a regular file worth searching: not a link, not too large, not binary. */
async function searchable(path: string): Promise<string | undefined> {
  const handle = await openChecked(path).catch(() => undefined);
  if (!handle) {
    return undefined;
  }
  try {
    if ((await handle.stat()).size > SEARCH_MAX_BYTES) {
      return undefined;
    }
    const text = await handle.readFile("utf8");
    return text.slice(0, 8000).includes("\u0000") ? undefined : text;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** A matcher for a path glob: `*.ts` matches by name at any depth; a glob with a slash matches the path. */
function globMatcher(glob: string): (path: string) => boolean {
  const expression = globToRegExp(glob.replace(/^\.?\//, ""));
  return glob.includes("/") ? (path) => expression.test(path) : (path) => expression.test(posix.basename(path));
}
