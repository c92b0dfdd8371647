// Walks a directory tree the way a person expects a coding agent to: in name order, skipping what
// .gitignore ignores, not following symlinks out, and stopping at a limit.

import { readdir } from "node:fs/promises";
import { join } from "node:path";

import { isIgnored, readRules, type RuleSet } from "./ignore-rules.js";

export interface WalkEntry {
  /** Relative to the root, with forward slashes. */
  path: string;
  directory: boolean;
}

export interface WalkOptions {
  /** Where to start, relative to the root ("" for the root). */
  start?: string;
  recursive?: boolean;
  signal?: AbortSignal;
}

/** Entries under `root/start`. The .gitignore files of `start`'s parent directories apply too. */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const start = (options.start ?? "").replace(/\\/g, "/").replace(/^\.\/?|\/$/g, "");
  const inherited: RuleSet[] = [];
  const parts = start === "" ? [] : start.split("/");
  for (let depth = 0; depth < parts.length; depth++) {
    const rules = await readRules(root, parts.slice(0, depth).join("/"));
    if (rules) {
      inherited.push(rules);
    }
  }
  yield* walk(root, start, inherited, options);
}

async function* walk(root: string, directory: string, inherited: RuleSet[], options: WalkOptions): AsyncGenerator<WalkEntry> {
  if (options.signal?.aborted) {
    return;
  }
  const own = await readRules(root, directory);
  const sets = own ? [...inherited, own] : inherited;
  let entries;
  try {
    entries = await readdir(join(root, directory), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of entries) {
    const path = directory === "" ? entry.name : `${directory}/${entry.name}`;
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
