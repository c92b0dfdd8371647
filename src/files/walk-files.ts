// Walks a directory tree the way a person expects a coding agent to: in name order, skipping what
// .gitignore ignores, never following a symbolic link, and stopping when the caller stops.
//
// Links: a link whose target stays inside the root is listed with where it leads (`link`), as a
// directory or a file after its target, but never walked into, so a link to a parent cannot loop
// and nothing is seen twice (the target is walked at its own place). A link that leads out of the
// root, or nowhere that could be checked, is left out altogether: its name says nothing useful, and
// the tools would refuse it anyway.

import { readdir, realpath } from "node:fs/promises";
import { join } from "node:path";

import { isIgnored, readRules, type RuleSet } from "./ignore-rules.js";
import { resolvePath, shownPath } from "./session-paths.js";

export interface WalkEntry {
  /** Relative to the root, with forward slashes. */
  path: string;
  /** A directory, or a link to one. */
  directory: boolean;
  /** For a symbolic link: where it leads, relative to the root (always inside it). */
  link?: string | undefined;
}

export interface WalkOptions {
  /** Where to start, relative to the root ("" for the root). */
  start?: string | undefined;
  recursive?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

/** Entries under `root/start`. The .gitignore files of `start`'s parent directories apply too. */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const realRoot = await realpath(root).catch(() => root);
  const start = (options.start ?? "").replace(/\\/g, "/").replace(/^\.\/?|\/$/g, "");
  const inherited: RuleSet[] = [];
  const parts = start === "" ? [] : start.split("/");
  for (let depth = 0; depth < parts.length; depth++) {
    const rules = await readRules(realRoot, parts.slice(0, depth).join("/"));
    if (rules) {
      inherited.push(rules);
    }
  }
  yield* walk(realRoot, start, inherited, options);
}

async function* walk(root: string, directory: string, inherited: RuleSet[], options: WalkOptions): AsyncGenerator<WalkEntry> {
  if (options.signal?.aborted) {
    return;
  }
  const where = join(root, directory);
  // A directory that is, or has become, a link is not read: what it lists may be outside.
  if ((await realpath(where).catch(() => undefined)) !== where) {
    return;
  }
  const own = await readRules(root, directory);
  const sets = own ? [...inherited, own] : inherited;
  let entries;
  try {
    entries = await readdir(where, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of entries) {
    const path = directory === "" ? entry.name : `${directory}/${entry.name}`;
    if (entry.isSymbolicLink()) {
      const target = await resolvePath(root, path).catch(() => undefined);
      if (target) {
        const isDirectory = target.kind === "directory";
        if (!isIgnored(path, isDirectory, sets)) {
          yield { path, directory: isDirectory, link: shownPath(root, target.real) };
        }
      }
      continue;
    }
    const isDirectory = entry.isDirectory();
    if (isIgnored(path, isDirectory, sets)) {
      continue;
    }
    yield { path, directory: isDirectory };
    if (isDirectory && options.recursive) {
      yield* walk(root, path, sets, options);
    }
  }
}
