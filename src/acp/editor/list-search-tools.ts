// list_files and search_files: they walk a session's directories on disk, skipping what
// .gitignore ignores, and name what they find as the model reads paths. Search reads only regular
// files that are not links, not too large and not binary.

import { posix, sep } from "node:path";

import { z } from "zod";

import { defineTool } from "../../agent/tool.js";
import { openChecked } from "../../files/disk-files.js";
import { globToRegExp } from "../../files/ignore-rules.js";
import { namedPath, type ResolvedPath, shownPath } from "../../files/session-paths.js";
import { type WalkEntry, walkFiles } from "../../files/walk-files.js";
import { boundText } from "../mapping/tool-calls.js";
import type { EditorAccess } from "./editor-access.js";

/** The largest file search_files reads. */
const SEARCH_MAX_BYTES = 2 * 1024 * 1024;

/** An entry a walk of `target.root` found, named as the model reads paths: in full outside the session's own directory. */
function walked(target: ResolvedPath, path: string): string {
  return target.primary ? path : `${target.root}${sep}${path.split("/").join(sep)}`;
}

/** list_files: a directory's entries, or everything below it. */
export function listFilesTool(access: EditorAccess) {
  return defineTool({
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
}

/** search_files: the lines that match a regular expression, in a directory's files or one file. */
export function searchFilesTool(access: EditorAccess) {
  return defineTool({
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
              return boundText(matches.join("\n"), access.limits.modelChars);
            }
          }
        }
      }
      return matches.length > 0 ? boundText(matches.join("\n"), access.limits.modelChars) : "No matches.";
    },
  });
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
