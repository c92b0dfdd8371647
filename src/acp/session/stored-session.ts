// A session's record as this process holds it, and its writes to the session store: each write is a
// copy of the record as it was when asked for, and writes reach the store in the order they were
// asked for. With a store that processes share, each turn claims the session and re-reads it, so
// the turn starts from what any process last wrote. This is the record's one owner: others read it
// through `record` (read only) and change it with the methods below, each named for what it means
// (a turn begins, messages are kept, the title is set), which keep the record's rules. The lint
// rule `weft/record-owner` (eslint.config.js) holds the rest of src/acp/ to that.

import type { WeftError } from "../../errors/weft-error.js";
import type { ProtocolInterrupt } from "../../graph/protocol-graph.js";
import type { Logger } from "../../types/logger.js";
import type { Message } from "../../types/messages.js";
import { fromStore, SessionBusyError, SessionNotFoundError, storeFailure } from "../errors/session-errors.js";
import type { AcpConfigValues } from "../record/config-values.js";
import type { AcpSessionInfo, AcpSessionRecord, AcpSessionRecordView, AcpSessionStore, AcpTurnRecord, AcpUsageRecord } from "../record/session-store.js";

/** A turn's hold on the session: let go of it when the turn ends. Or why the turn may not run. */
export type TurnClaim = { claimed: true; release(): Promise<void> } | { claimed: false; error: WeftError };

const UNCLAIMED: TurnClaim = { claimed: true, release: () => Promise.resolve() };

export class StoredSession {
  private current: AcpSessionRecord;
  /** Tool names a person chose to always allow (true) or always reject (false). */
  private always: Map<string, boolean>;
  private persisting: Promise<void> = Promise.resolve();
  /** The turn whose end could not be written (the store was down); the store still has it in progress. */
  private unsaved: Readonly<AcpTurnRecord> | undefined;

  constructor(
    private readonly store: AcpSessionStore,
    record: AcpSessionRecord,
    private readonly logger: Logger,
  ) {
    this.current = record;
    this.always = new Map(record.always);
  }

  get id(): string {
    return this.current.info.id;
  }

  /** The session as this connection opened it: its directory and MCP servers. */
  get info(): Readonly<AcpSessionInfo> {
    return this.current.info;
  }

  /** The record as it is now, read only: change it with the methods below. */
  get record(): AcpSessionRecordView {
    return this.current;
  }

  /**
   * A turn begins: its prompt joins the conversation, it is the turn in progress, and the questions
   * the last turn left open (answered by it, or set aside by a new run) and their approvals are
   * gone; then the record is written. When the write fails, the prompt and the turn are taken back
   * and the questions come back (their approvals do not), and the store's error is thrown.
   */
  async beginTurn(turn: AcpTurnRecord): Promise<void> {
    const record = this.current;
    const history = record.history.slice();
    const pending = record.pending ?? [];
    record.history.push(turn.user);
    record.turn = turn;
    delete record.pending;
    delete record.answered;
    try {
      await this.persist();
    } catch (error) {
      record.history = history;
      delete record.turn;
      if (pending.length > 0) {
        record.pending = pending;
      }
      throw error;
    }
  }

  /** Adds messages the turn finished to the end of the conversation; the next write keeps them. */
  addMessages(messages: readonly Message[]): void {
    this.current.history.push(...messages);
  }

  /** Puts `messages` in place of the conversation from `index` on (none: it ends before `index`). */
  replaceMessagesFrom(index: number, messages: readonly Message[]): void {
    const history = this.current.history;
    history.splice(index, history.length - index, ...messages);
  }

  /** Takes `history` as the whole conversation (a failed turn's, as settleFailedTurn left it). */
  replaceHistory(history: readonly Message[]): void {
    this.current.history = history.slice();
  }

  /**
   * The turn stops to wait for the person: `questions` are what the next prompt answers, sent with
   * `answered` (the approvals it gave already) when there are any. The turn's end writes them.
   */
  waitForAnswers(questions: readonly ProtocolInterrupt[], answered: Readonly<Record<string, unknown>>): void {
    this.current.pending = questions.slice();
    if (Object.keys(answered).length > 0) {
      this.current.answered = { ...answered };
    }
  }

  /** `turn` is no longer in progress, unless another turn took its place since. The next write keeps that. */
  endTurn(turn: Readonly<AcpTurnRecord>): void {
    if (this.current.turn === turn) {
      delete this.current.turn;
    }
  }

  /**
   * Sets the session's config values and writes the record. When the write fails, the values are
   * as they were and the error is thrown.
   */
  async setConfig(config: Readonly<AcpConfigValues>): Promise<void> {
    const record = this.current;
    const kept = record.config;
    record.config = { ...config };
    try {
      await this.persist();
    } catch (error) {
      if (kept === undefined) {
        delete record.config;
      } else {
        record.config = kept;
      }
      throw error;
    }
  }

  /** Sets the session's title; the next write keeps it. */
  setTitle(title: string): void {
    this.current.title = title;
  }

  /** Sets what the session's model calls used and cost; the next write keeps it. */
  setUsage(usage: Readonly<AcpUsageRecord>): void {
    this.current.usage = { ...usage };
  }

  /**
   * Writes the record (a copy of it as it is now). Writes happen in order; the promise settles with
   * this one. A failed write is logged, and does not hold up the writes after it.
   */
  persist(): Promise<void> {
    const snapshot: AcpSessionRecord = { ...this.current, history: this.current.history.slice(), always: [...this.always], updatedAt: new Date().toISOString() };
    this.current.updatedAt = snapshot.updatedAt;
    const write = this.persisting.then(() => this.store.put(snapshot));
    this.persisting = write.catch((error: unknown) => {
      this.logger.warn("Could not save the session", { sessionId: this.id, error: String(error) });
    });
    return write;
  }

  /**
   * Reads the record again and takes it as the truth (keeping this connection's directory and MCP
   * servers) when another process wrote it since: for a load that joins the session where it is
   * open, so that it shows every turn that process ran. Not while this process runs a turn. True
   * when the record changed. Throws SessionNotFoundError when the session was deleted meanwhile,
   * and the store's errors as fromStore() names them.
   */
  async refresh(): Promise<boolean> {
    const fresh = await fromStore(() => this.store.get(this.id));
    if (!fresh) {
      throw new SessionNotFoundError(this.id);
    }
    if (fresh.updatedAt === this.current.updatedAt || (this.unsaved && fresh.turn?.startedAt === this.unsaved.startedAt && fresh.turn.user.id === this.unsaved.user.id)) {
      return false;
    }
    this.current = { ...fresh, info: this.current.info };
    this.always = new Map(fresh.always);
    return true;
  }

  /**
   * Claims the session for a turn. With a store that processes share, the claim is the store's, and
   * the record is read again and taken as the truth (keeping this connection's directory and MCP
   * servers), unless the store holds only the turn this process could not finish writing. Without
   * one, every turn may run. Refused: another process runs a turn (session_busy), the session was
   * deleted (session_not_found), or the store cannot be reached (store_unavailable).
   */
  async claim(): Promise<TurnClaim> {
    const store = this.store;
    if (!store.claim) {
      return UNCLAIMED;
    }
    let claim;
    try {
      claim = await fromStore(() => store.claim?.(this.id));
    } catch (error) {
      return { claimed: false, error: storeFailure(error) };
    }
    if (!claim) {
      return { claimed: false, error: new SessionBusyError(this.id) };
    }
    let fresh: AcpSessionRecord | undefined;
    try {
      fresh = await fromStore(() => store.get(this.id));
    } catch (error) {
      await claim.release();
      return { claimed: false, error: storeFailure(error) };
    }
    if (!fresh) {
      // Another process deleted it since this one opened it.
      await claim.release();
      return { claimed: false, error: new SessionNotFoundError(this.id) };
    }
    const unsaved = this.unsaved;
    this.unsaved = undefined;
    if (!unsaved || fresh.turn?.startedAt !== unsaved.startedAt || fresh.turn.user.id !== unsaved.user.id) {
      this.current = { ...fresh, info: this.current.info };
      this.always = new Map(fresh.always);
    }
    return { claimed: true, release: () => claim.release() };
  }

  /**
   * Notes that `turn` ended but its end could not be written: the store still says it is in
   * progress. The next claim here writes over it instead of taking it as the truth.
   */
  leaveUnsaved(turn: Readonly<AcpTurnRecord>): void {
    this.unsaved = turn;
  }

  /** Whether the person chose to always allow (true) or always reject (false) a tool, if they did. */
  remembered(toolName: string): boolean | undefined {
    return this.always.get(toolName);
  }

  /** Remembers an "always" answer and writes it; a failed write is only logged. */
  remember(toolName: string, allow: boolean): void {
    this.always.set(toolName, allow);
    void this.persist().catch(() => undefined);
  }
}
