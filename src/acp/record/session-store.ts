// Where an ACP agent keeps its sessions: the conversation, the questions a turn left open, the
// session's config values, title and usage, and the turn in progress; and each project's
// permission ledger (the "always" answers people gave in that directory). MemoryAcpSessionStore
// keeps them in this process; storeAcpSessions() keeps them in any long-term Store.

import type * as acp from "@agentclientprotocol/sdk";

import type { Message } from "../../types/messages.js";
import type { ProtocolInterrupt } from "../../graph/protocol-graph.js";
import type { AcpConfigValues } from "./config-values.js";
import type { AcpContentBlock } from "./content-block.js";
import { type AcpGrant, withGrant, withoutGrant } from "./permission-grants.js";

/** An editor session, as `input` sees it. */
export interface AcpSessionInfo {
  /** Its id, which is also the graph's thread. */
  id: string;
  /** The directory the editor opened the session in. */
  cwd: string;
  /** The MCP servers the editor offered. */
  mcpServers: acp.McpServer[];
  /**
   * More directories the editor opened the session with (ACP's `additionalDirectories`), each an
   * absolute path: the editor bridge's tools work in them as in `cwd`. Absent when there are none.
   */
  additionalDirectories?: string[] | undefined;
  /**
   * The id of the principal who started the session, when it was served to one that signed in
   * (served remotely): only they can list, load or prompt it there.
   */
  owner?: string | undefined;
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
  /**
   * Tool names a person chose to always allow (true) or always reject (false) in this session, as
   * sessions kept them before the permission ledger (see `AcpSessionStore.grants`). Still read:
   * a rejection holds for the tool, an allow only for a tool without scopes of its own. New answers
   * go to the ledger.
   */
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

/**
 * A session's record, read only: what the record's one owner (StoredSession) hands out. Everyone
 * else reads it and asks the owner for each change, so assigning into it is a type error.
 */
export interface AcpSessionRecordView {
  readonly info: Readonly<AcpSessionInfo>;
  readonly history: readonly Message[];
  readonly pending?: readonly ProtocolInterrupt[] | undefined;
  readonly answered?: Readonly<Record<string, unknown>> | undefined;
  readonly always: ReadonlyArray<readonly [string, boolean]>;
  readonly config?: Readonly<AcpConfigValues> | undefined;
  readonly title?: string | undefined;
  readonly usage?: Readonly<AcpUsageRecord> | undefined;
  readonly turn?: Readonly<AcpTurnRecord> | undefined;
  readonly updatedAt: string;
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
  /** Who started it, when it has an owner (AcpSessionInfo.owner). */
  owner?: string | undefined;
}

/** Which sessions a list asks for: those in one directory or of one owner, or all, a page at a time. */
export interface AcpSessionQuery {
  cwd?: string | undefined;
  /** Only the sessions of this owner (AcpSessionInfo.owner). */
  owner?: string | undefined;
  offset: number;
  limit: number;
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
  list?(options: AcpSessionQuery): Promise<AcpSessionSummary[]> | AcpSessionSummary[];
  /** Removes a session; removing one that does not exist is not an error. */
  delete?(sessionId: string): Promise<void> | void;
  /**
   * Claims a session for one turn across processes, or resolves undefined while another live
   * process holds it. Stores that several processes share have it; serveAcp then re-reads the
   * session at the start of every turn, so no process works from a stale copy.
   */
  claim?(sessionId: string): Promise<AcpSessionClaim | undefined>;
  /**
   * The permission ledger of a project (the sessions' `cwd`): the "always" answers people gave
   * there, which every session in that directory keeps. A store has all three ledger methods or
   * none; without them, a session keeps its grants while it is open. `grants` throws when the
   * ledger cannot be read (a grant that cannot be read is never taken as an allow).
   */
  grants?(cwd: string): Promise<AcpGrant[]> | AcpGrant[];
  /** Adds a grant, in place of any for the same tool and scope. */
  putGrant?(cwd: string, grant: AcpGrant): Promise<void> | void;
  /** Removes the grant for `tool` and `scope`; removing one that is not there is not an error. */
  deleteGrant?(cwd: string, tool: string, scope: string): Promise<void> | void;
}

/** Sessions in this process: the default. */
export class MemoryAcpSessionStore implements AcpSessionStore {
  private readonly records = new Map<string, AcpSessionRecord>();
  /** The permission grants of each project, by directory. */
  private readonly ledgers = new Map<string, AcpGrant[]>();

  /** A session's record, as a copy. */
  get(sessionId: string): AcpSessionRecord | undefined {
    const record = this.records.get(sessionId);
    return record && structuredClone(record);
  }

  /** Writes a session's record. */
  put(record: AcpSessionRecord): void {
    this.records.set(record.info.id, structuredClone(record));
  }

  list(options: AcpSessionQuery): AcpSessionSummary[] {
    return [...this.records.values()]
      .filter((record) => (options.cwd === undefined || record.info.cwd === options.cwd) && (options.owner === undefined || record.info.owner === options.owner))
      .sort((left, right) => right.updatedAt.localeCompare(left.updatedAt))
      .slice(options.offset, options.offset + options.limit)
      .map(summarize);
  }

  delete(sessionId: string): void {
    this.records.delete(sessionId);
  }

  grants(cwd: string): AcpGrant[] {
    return structuredClone(this.ledgers.get(cwd) ?? []);
  }

  putGrant(cwd: string, grant: AcpGrant): void {
    this.ledgers.set(cwd, withGrant(this.ledgers.get(cwd) ?? [], structuredClone(grant)));
  }

  deleteGrant(cwd: string, tool: string, scope: string): void {
    this.ledgers.set(cwd, withoutGrant(this.ledgers.get(cwd) ?? [], tool, scope));
  }
}

/** The list entry for a record: its title, or for a record without one the start of its first prompt. */
export function summarize(record: AcpSessionRecordView): AcpSessionSummary {
  const summary: AcpSessionSummary = { sessionId: record.info.id, cwd: record.info.cwd, updatedAt: record.updatedAt };
  if (record.info.additionalDirectories?.length) {
    summary.additionalDirectories = record.info.additionalDirectories.slice();
  }
  if (record.info.owner !== undefined) {
    summary.owner = record.info.owner;
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
