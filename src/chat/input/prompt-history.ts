// The prompts a person typed in one project, kept across runs in
// `$XDG_STATE_HOME/weft/history/<hash of the directory>` (one JSON string a line, newest last).

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** How many entries a project's history keeps. */
export const historyLimit = 500;

/** Where the history of the project in `cwd` lives. */
export function historyPath(cwd: string, env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME?.trim() ? env.XDG_STATE_HOME : join(homedir(), ".local", "state");
  return join(state, "weft", "history", createHash("sha256").update(cwd).digest("hex").slice(0, 24));
}

/** The saved entries, newest first (readline's order); an unreadable file is an empty history. */
export function loadHistory(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const line of text.split("\n")) {
    try {
      const entry: unknown = JSON.parse(line);
      if (typeof entry === "string" && entry !== "") {
        entries.push(entry);
      }
    } catch {
      // A torn or foreign line is skipped, not fatal.
    }
  }
  return entries.reverse().slice(0, historyLimit);
}

/** Writes the entries (newest first); failures are ignored, as history is a convenience. */
export function saveHistory(path: string, entries: readonly string[]): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const kept = entries.slice(0, historyLimit).reverse();
    writeFileSync(path, kept.map((entry) => JSON.stringify(entry)).join("\n") + (kept.length > 0 ? "\n" : ""));
  } catch {
    // Nowhere to write (read-only home, say): the session goes on without saved history.
  }
}
