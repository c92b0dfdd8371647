// The sessions one-shot `weft chat` runs used, kept in a small JSON file
// ($XDG_STATE_HOME/weft/chat-sessions.json): per directory and agent command, a name for each
// session id, which was used last, and which a run started, so `--session <name>` and
// `--continue` can carry on and `--list` can keep scripts' sessions apart from people's.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export interface ChatSessionEntry {
  /** The directory the session works in. */
  cwd: string;
  /** The agent (the `--agent` command, or "weft acp"): a session id means nothing to another. */
  agent: string;
  /** The name given with `--session`, if any. */
  name?: string | undefined;
  sessionId: string;
  /** True when a one-shot run started the session (rather than carrying on one started elsewhere). */
  startedByRun?: boolean | undefined;
  /** When a run last used it (ISO 8601). */
  usedAt: string;
}

/** Where the file is: `$XDG_STATE_HOME/weft/chat-sessions.json`, or under `~/.local/state`. */
export function chatSessionsPath(env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME?.trim() ? env.XDG_STATE_HOME : join(homedir(), ".local", "state");
  return join(state, "weft", "chat-sessions.json");
}

export class ChatSessions {
  constructor(private readonly path: string) {}

  /** The session named `name` in `cwd` for `agent`. */
  named(cwd: string, agent: string, name: string): ChatSessionEntry | undefined {
    return this.read().find((entry) => entry.cwd === cwd && entry.agent === agent && entry.name === name);
  }

  /** The session a run in `cwd` with `agent` used last (entries are kept in the order of use). */
  last(cwd: string, agent: string): ChatSessionEntry | undefined {
    return this.read()
      .filter((entry) => entry.cwd === cwd && entry.agent === agent)
      .at(-1);
  }

  /** The sessions one-shot runs started in `cwd` with `agent`, by id. */
  startedByRuns(cwd: string, agent: string): Map<string, ChatSessionEntry> {
    return new Map(
      this.read()
        .filter((entry) => entry.cwd === cwd && entry.agent === agent && entry.startedByRun === true)
        .map((entry) => [entry.sessionId, entry]),
    );
  }

  /**
   * Records that a run used `sessionId` (under `name`, if given), replacing what the name or the id
   * stood for before, as the newest entry; a session keeps its name and whether a run started it.
   * Written to a temporary file and renamed, so a reader never sees half a file.
   */
  remember(entry: Omit<ChatSessionEntry, "usedAt">): void {
    const kept = this.read().filter(
      (other) => !(other.cwd === entry.cwd && other.agent === entry.agent && (other.sessionId === entry.sessionId || (entry.name !== undefined && other.name === entry.name))),
    );
    const previous = this.read().find((other) => other.cwd === entry.cwd && other.agent === entry.agent && other.sessionId === entry.sessionId);
    const name = entry.name ?? previous?.name;
    const startedByRun = entry.startedByRun === true || previous?.startedByRun === true;
    kept.push({ cwd: entry.cwd, agent: entry.agent, ...(name === undefined ? {} : { name }), sessionId: entry.sessionId, ...(startedByRun ? { startedByRun } : {}), usedAt: new Date().toISOString() });
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ sessions: kept }, null, 2)}\n`);
    renameSync(temporary, this.path);
  }

  /** The entries; none when the file is missing or not what this writes. */
  private read(): ChatSessionEntry[] {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return [];
    }
    try {
      const sessions = (JSON.parse(text) as { sessions?: unknown }).sessions;
      return Array.isArray(sessions) ? sessions.filter(isEntry) : [];
    } catch {
      return [];
    }
  }
}

function isEntry(value: unknown): value is ChatSessionEntry {
  const entry = value as Partial<ChatSessionEntry> | null;
  return typeof entry === "object" && entry !== null && typeof entry.cwd === "string" && typeof entry.agent === "string" && typeof entry.sessionId === "string" && typeof entry.usedAt === "string";
}
