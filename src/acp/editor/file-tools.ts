// The file tools: read, write and edit through the editor when it offers fs (so the agent sees
// unsaved buffers and the person reviews edits as diffs), else on disk (file-text.ts); list and
// search on disk (list-search-tools.ts). Every path is resolved inside the session's directories
// with its links followed (resolvePath), and only the real path it gives is read or written: the
// editor is never handed a path with a link in it. A write or an edit is described for its
// approval before it runs (file-changes.ts).

import type { ReadTextFileRequest } from "@agentclientprotocol/sdk";
import { z } from "zod";

import { defineTool, type Tool, type ToolOutput } from "../../agent/tool.js";
import { boundText } from "../mapping/tool-calls.js";
import type { EditorAccess } from "./editor-access.js";
import { describeChange, replaced } from "./file-changes.js";
import { fileTarget, named, readText, writeText } from "./file-text.js";
import { listFilesTool, searchFilesTool } from "./list-search-tools.js";
import { fileApprovalScope } from "./path-scope.js";

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

  return [readTool, writeTool, editTool, listFilesTool(access), searchFilesTool(access)] as Tool<unknown>[];
}
