// Where an ACP agent keeps its sessions: the conversation, the questions a turn left open, the
// "always" answers a person gave, the session's config values, title and usage, and the turn in
// progress. MemoryAcpSessionStore keeps them in this process; storeAcpSessions() keeps them in any
// long-term Store.

import type { Message } from "../../types/messages.js";
import type { ProtocolInterrupt } from "../shared.js";
import type { AcpConfigValues } from "./config-options.js";
import type { AcpContentBlock } from "./content.js";

/** An editor session, as `input` sees it. */
export interface AcpSessionInfo {
  /** Its id, which is also the graph's thread. */
  id: string;
  /** The directory the editor opened the session in. */
  cwd: string;
  /** The MCP servers the editor offered. */
  mcpServers: unknown[];
  /**
   * More directories the editor opened the session with (ACP's `additionalDirectories`), each an
   * absolute path: the editor bridge's tools work in them as in `cwd`. Absent when there are none.
   */
  additionalDirectories?: string[] | undefined;
}

/** A session as a store keeps it. */
export interface AcpSessionRecord {
  /** The session. */
  info: AcpSessionInfo;
  /**
   * The conversation, tool calls included. Audio is kept as a note of it, not its bytes, and so
   * are the attachments of a turn that failed.
   */
  history: Message[];
  /** The questions the last turn asked, which the next prompt answers. */
  pending?: ProtocolInterrupt[] | undefined;
  /** Approvals already given for the paused run, sent with those answers. */
  answered?: Record<string, unknown> | undefined;
  /** Tool names a person chose to always allow (true) or always reject (false). */
  always: Array<[string, boolean]>;
  /**
   * The session's config values and mode, by option id (see AcpOptions.configOptions). Records
   * written before a session had any have none: such a session takes each option's default.
   */
  config?: AcpConfigValues | undefined;
  /**
   * The session's title, as `session/list` and `session_info_update` show it: set at its first
   * prompt (see AcpOptions.title). Records written before sessions had one have none: their list
   * entry takes the start of the first prompt.
   */
  title?: string | undefined;
  /** What the session's model calls used and cost so far (see AcpOptions.usage). */
  usage?: AcpUsageRecord | undefined;
  /** The turn the agent is in the middle of, so a load after the agent stopped can carry it on. */
  turn?: AcpTurnRecord | undefined;
  /** ISO-8601 time it was last written. */
  updatedAt: string;
}

/** A turn in progress, as a session keeps it. */
export interface AcpTurnRecord {
  /** `invoke` for a prompt that started a run, `resume` for one answering the last turn's questions. */
  kind: "invoke" | "resume";
  /** The prompt, as the conversation keeps it. */
  user: Message;
  /** The prompt's blocks, for an `input` that reads them, when the run must start over. */
  blocks?: AcpContentBlock[] | undefined;
  /** The answers a resume gave, by interrupt id. */
  answers?: Record<string, unknown> | undefined;
  /** The graph input a slash command gave instead of the prompt's, when the run must start over. */
  input?: unknown;
  /** ISO-8601 time it began. */
  startedAt: string;
}

/** What a session's model calls used and cost, as its record keeps it. */
export interface AcpUsageRecord {
  /** The tokens in the context after the last model call: its input and its output. */
  used: number;
  /** What the calls cost so far, in the currency of the prices the integrator gave. */
  cost?: { amount: number; currency: string } | undefined;
}

/** A session as `session/list` shows it. */
export interface AcpSessionSummary {
  sessionId: string;
  cwd: string;
  /** Its other directories, when it has any. */
  additionalDirectories?: string[] | undefined;
  title?: string | undefined;
  updatedAt: string;
}

/** A claim on a session for one turn, so two processes never run turns of one session at once. */
export interface AcpSessionClaim {
  release(): Promise<void>;
}

/**
 * Where an ACP agent keeps its sessions. `get` and `put` are required; a store that can also list,
 * delete or lease sessions says so by having those methods, and `serveAcp` advertises and serves
 * the matching ACP methods.
 */
export interface AcpSessionStore {
  /** A session's record. */
  get(sessionId: string): Promise<AcpSessionRecord | undefined> | AcpSessionRecord | undefined;
  /** Writes a session's record. */
  put(record: AcpSessionRecord): Promise<void> | void;
  /** Sessions, most recently updated first, optionally only those in `cwd`. */
  list?(options: { cwd?: string | undefined; offset: number; limit: number }): Promise<AcpSessionSummary[]> | AcpSessionSummary[];
  /** Removes a session; removing one that does not exist is not an error. */
  delete?(sessionId: string): Promise<void> | void;
  /**
   * Claims a session for one turn across processes, or resolves undefined while another live
   * process holds it. Stores that several processes share have it; serveAcp then re-reads the
   * session at the start of every turn, so no process works from a stale copy.
   */
  claim?(sessionId: string): Promise<AcpSessionClaim | undefined>;
}

/** Sessions in this process: the default. */
export class MemoryAcpSessionStore implements AcpSessionStore {
  private readonly records = new Map<string, AcpSessionRecord>();

  /** A session's record, as a copy. */
  get(sessionId: string): AcpSessionRecord | undefined {
    const record = this.records.get(sessionId);
    return record && structuredClone(record);
  }

  /** Writes a session's record. */
  put(record: AcpSessionRecord): void {
    this.records.set(record.info.id, structuredClone(record));
  }

  list(options: { cwd?: string | undefined; offset: number; limit: number }): AcpSessionSummary[] {
    return [...this.records.values()]
      .filter((record) => options.cwd === undefined || record.info.cwd === options.cwd)
      .sort((left, right) => right.updatedAt.localeCompare(left.updatedAt))
      .slice(options.offset, options.offset + options.limit)
      .map(summarize);
  }

  delete(sessionId: string): void {
    this.records.delete(sessionId);
  }
}

/** The list entry for a record: its title, or for a record without one the start of its first prompt. */
export function summarize(record: AcpSessionRecord): AcpSessionSummary {
  const summary: AcpSessionSummary = { sessionId: record.info.id, cwd: record.info.cwd, updatedAt: record.updatedAt };
  if (record.info.additionalDirectories?.length) {
    summary.additionalDirectories = record.info.additionalDirectories.slice();
  }
  const title = record.title ?? sessionTitle(record.history);
  if (title) {
    summary.title = title;
  }
  return summary;
}

/** The longest title, in characters; a longer one is cut with an ellipsis. */
export const TITLE_LENGTH = 80;

/** The default title of a conversation: the start of the text of its first prompt that has some; undefined when none has. */
export function sessionTitle(history: readonly Message[]): string | undefined {
  for (const message of history) {
    if (message.role === "user") {
      const title = shortTitle(message.parts.map((part) => (part.type === "text" ? part.text : "")).join(" "));
      if (title !== undefined) {
        return title;
      }
    }
  }
  return undefined;
}

/** `text` as a title: on one line, white space collapsed, at most TITLE_LENGTH characters; undefined when empty. */
export function shortTitle(text: string): string | undefined {
  const line = text.replace(/\s+/g, " ").trim();
  if (!line) {
    return undefined;
  }
  const characters = [...line];
  return characters.length > TITLE_LENGTH ? `${characters.slice(0, TITLE_LENGTH - 1).join("")}…` : line;
}
