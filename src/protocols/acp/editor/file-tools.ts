// The file tools: read, write and edit through the editor when it offers fs (so the agent sees
// unsaved buffers and the person reviews edits as diffs), else on disk; list and search on disk.
// Every path is resolved inside the session's directory.

import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, posix, relative, sep } from "node:path";

import { z } from "zod";

import { defineTool, type Tool, type ToolOutput } from "../../../agent/tool.js";
import { boundText } from "../tool-calls.js";
import type { EditorAccess } from "./editor-access.js";
import { globToRegExp } from "./ignore-rules.js";
import { resolveOnDisk } from "./session-paths.js";
import { walkFiles } from "./walk-files.js";

/** Reads a file's text: the editor's buffer when it offers fs, else the disk (undefined if missing). */
async function readText(access: EditorAccess, sessionId: string, path: string, signal: AbortSignal): Promise<string | undefined> {
  if (access.canRead()) {
    try {
      const { content } = await access.request<{ content: string }>("fs/read_text_file", { sessionId, path }, signal);
      return content;
    } catch (error) {
      // An editor answers a missing file with an error; fall back to the disk to tell.
      const onDisk = await readFile(path, "utf8").catch(() => undefined);
      if (onDisk === undefined) {
        return undefined;
      }
      throw error;
    }
  }
  return readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") {
      return undefined;
    }
    throw error;
  });
}

async function writeText(access: EditorAccess, sessionId: string, path: string, content: string, signal: AbortSignal): Promise<void> {
  if (access.canWrite()) {
    await access.request("fs/write_text_file", { sessionId, path, content }, signal);
    return;
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let position = text.indexOf("\n"); position !== -1 && position < index; position = text.indexOf("\n", position + 1)) {
    line++;
  }
  return line;
}

function shown(root: string, path: string): string {
  return relative(root, path).split(sep).join("/") || ".";
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
      const cwd = access.cwd(context.threadId);
      const absolute = await resolveOnDisk(cwd, path);
      let text: string | undefined;
      if (access.canRead()) {
        const params: Record<string, unknown> = { sessionId: context.threadId, path: absolute };
        if (line !== undefined) {
          params.line = line;
        }
        if (lines !== undefined) {
          params.limit = lines;
        }
        text = (await access.request<{ content: string }>("fs/read_text_file", params, context.signal)).content;
      } else {
        text = await readText(access, context.threadId, absolute, context.signal);
        if (text === undefined) {
          throw new Error(`${path} does not exist.`);
        }
        if (line !== undefined || lines !== undefined) {
          const all = text.split("\n");
          const first = (line ?? 1) - 1;
          text = all.slice(first, lines === undefined ? undefined : first + lines).join("\n");
        }
      }
      const output: ToolOutput = { output: boundText(text, limit()), locations: [line === undefined ? { path: absolute } : { path: absolute, line }] };
      return output;
    },
  });

  const writeTool = defineTool({
    name: "write_file",
    description: "Create a file or replace all of its contents. Paths are relative to the project directory. Prefer edit_file for changes to an existing file.",
    input: z.object({ path: z.string(), content: z.string() }),
    needsApproval: options.ask,
    title: ({ path }) => `Write ${path}`,
    execute: async ({ path, content }, context) => {
      const cwd = access.cwd(context.threadId);
      const absolute = await resolveOnDisk(cwd, path);
      const before = await readText(access, context.threadId, absolute, context.signal);
      await writeText(access, context.threadId, absolute, content, context.signal);
      const output: ToolOutput = {
        output: `${before === undefined ? "Created" : "Wrote"} ${shown(cwd, absolute)} (${content.split("\n").length} lines).`,
        display: [{ type: "diff", path: absolute, oldText: before ?? null, newText: content }],
        locations: [{ path: absolute }],
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
    execute: async ({ path, old_text: oldText, new_text: newText, replace_all: replaceAll }, context) => {
      const cwd = access.cwd(context.threadId);
      const absolute = await resolveOnDisk(cwd, path);
      const before = await readText(access, context.threadId, absolute, context.signal);
      if (before === undefined) {
        throw new Error(`${path} does not exist; use write_file to create it.`);
      }
      const count = before.split(oldText).length - 1;
      if (count === 0) {
        throw new Error(`old_text was not found in ${path}. Read the file again and copy the text exactly.`);
      }
      if (count > 1 && !replaceAll) {
        throw new Error(`old_text appears ${count} times in ${path}; include more surrounding text, or set replace_all.`);
      }
      const after = replaceAll ? before.split(oldText).join(newText) : before.replace(oldText, () => newText);
      await writeText(access, context.threadId, absolute, after, context.signal);
      const output: ToolOutput = {
        output: `Edited ${shown(cwd, absolute)}: replaced ${count} occurrence${count === 1 ? "" : "s"}.`,
        display: [{ type: "diff", path: absolute, oldText: before, newText: after }],
        locations: [{ path: absolute, line: lineOf(before, before.indexOf(oldText)) }],
      };
      return output;
    },
  });

  const listTool = defineTool({
    name: "list_files",
    description: "List files and directories (directories end with /). Skips what .gitignore ignores. Set recursive to list everything below.",
    input: z.object({ path: z.string().optional().describe("A directory, relative to the project directory. Default: the project directory."), recursive: z.boolean().optional() }),
    title: ({ path }) => `List ${path ?? "."}`,
    execute: async ({ path, recursive }, context) => {
      const cwd = access.cwd(context.threadId);
      const absolute = await resolveOnDisk(cwd, path ?? ".");
      const start = shown(cwd, absolute);
      const lines: string[] = [];
      let more = false;
      for await (const entry of walkFiles(cwd, { start: start === "." ? "" : start, recursive: Boolean(recursive), signal: context.signal })) {
        if (lines.length >= access.limits.maxEntries) {
          more = true;
          break;
        }
        lines.push(entry.directory ? `${entry.path}/` : entry.path);
      }
      if (more) {
        lines.push(`… more entries not shown (the limit is ${access.limits.maxEntries}); list a subdirectory.`);
      }
      return lines.length > 0 ? lines.join("\n") : "(empty)";
    },
  });

  const searchTool = defineTool({
    name: "search_files",
    description: "Search file contents with a regular expression. Skips what .gitignore ignores and binary files. Returns path:line: text for each match.",
    input: z.object({
      pattern: z.string().min(1).describe("A JavaScript regular expression (or plain text)."),
      path: z.string().optional().describe("A directory to search in, relative to the project directory."),
      glob: z.string().optional().describe("Only files whose path matches this glob, such as *.ts or src/**/*.py."),
      ignore_case: z.boolean().optional(),
    }),
    title: ({ pattern }) => `Search ${pattern}`,
    execute: async ({ pattern, path, glob, ignore_case: ignoreCase }, context) => {
      const cwd = access.cwd(context.threadId);
      const absolute = await resolveOnDisk(cwd, path ?? ".");
      const start = shown(cwd, absolute);
      let expression: RegExp;
      try {
        expression = new RegExp(pattern, ignoreCase ? "i" : "");
      } catch {
        expression = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), ignoreCase ? "i" : "");
      }
      const include = glob ? globMatcher(glob) : undefined;
      const matches: string[] = [];
      for await (const entry of walkFiles(cwd, { start: start === "." ? "" : start, recursive: true, signal: context.signal })) {
        if (entry.directory || (include && !include(entry.path))) {
          continue;
        }
        const file = `${cwd}${sep}${entry.path.split("/").join(sep)}`;
        const info = await stat(file).catch(() => undefined);
        if (!info || info.size > 2 * 1024 * 1024) {
          continue;
        }
        const text = await readFile(file, "utf8").catch(() => "");
        if (text.slice(0, 8000).includes("\u0000")) {
          continue;
        }
        const lines = text.split("\n");
        for (let index = 0; index < lines.length; index++) {
          if (expression.test(lines[index] as string)) {
            matches.push(`${entry.path}:${index + 1}: ${(lines[index] as string).slice(0, 300)}`);
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

/** A matcher for a path glob: `*.ts` matches by name at any depth; a glob with a slash matches the path. */
function globMatcher(glob: string): (path: string) => boolean {
  const expression = globToRegExp(glob.replace(/^\.?\//, ""));
  return glob.includes("/") ? (path) => expression.test(path) : (path) => expression.test(posix.basename(path));
}
