// Opening sessions in one connection: `session/new` makes one, `session/load` and `session/resume`
// read one back from the store (load replays its conversation and carries on a turn it was cut
// in), or join it where it is open already (in another connection, or with a turn going on).
// Each update about a session waits until the answer that opens it is written.

import { randomUUID } from "node:crypto";

import * as acp from "@agentclientprotocol/sdk";

import type { Logger } from "../../types/logger.js";
import type { Principal } from "../../types/principal.js";
import type { AcpEditorBridge } from "../editor-bridge.js";
import { TurnInProgressError } from "../errors/request-errors.js";
import { fromStore } from "../errors/session-errors.js";
import type { AcpSessionInfo, AcpSessionRecord, AcpSessionStore } from "../record/session-store.js";
import { UpdateSink } from "../session/update-sink.js";
import type { ConfigOptions } from "../surface/config-options.js";
import type { ConnectionState } from "./connection-state.js";
import type { LiveSession } from "./live-session.js";
import type { OpenSessions } from "./open-sessions.js";
import { additionalDirectories, checkCwd } from "./session-directories.js";
import { readRecord } from "./stored-records.js";

/** What opening a session reaches, shared by every connection of one server. */
export interface Opening {
  sessions: OpenSessions;
  store: Pick<AcpSessionStore, "get">;
  logger: Logger;
  editor: AcpEditorBridge | undefined;
  /** The options a session made, loaded or resumed now gets. */
  offered(): Promise<ConfigOptions>;
  /** A session for `record`, open in no connection yet. */
  make(record: AcpSessionRecord, principal: Principal | undefined, offered: ConfigOptions): LiveSession;
}

type OpeningRequest = acp.LoadSessionRequest | acp.ResumeSessionRequest;

export class SessionOpening {
  constructor(
    private readonly opening: Opening,
    private readonly state: ConnectionState,
  ) {}

  async newSession(params: acp.NewSessionRequest): Promise<acp.NewSessionResponse> {
    const { opening, state } = this;
    checkCwd(params.cwd);
    const directories = additionalDirectories(params.cwd, params.additionalDirectories);
    await state.checkDirectories(params.cwd, directories);
    const offered = await opening.offered();
    const record: AcpSessionRecord = {
      info: sessionInfo(`sess_${randomUUID().replaceAll("-", "")}`, params.cwd, params.mcpServers ?? [], directories, state.owner),
      history: [],
      always: [],
      updatedAt: new Date().toISOString(),
      ...(offered.offered ? { config: offered.defaults() } : {}),
    };
    const answer = answerWritten();
    try {
      const session = await this.open(record, answer.written, offered);
      session.clients.attach(state.link);
      try {
        await fromStore(() => session.persist());
      } catch (error) {
        opening.sessions.remove(record.info.id);
        throw error;
      }
      opening.logger.info("Session started", { method: "session/new", sessionId: record.info.id, cwd: params.cwd });
      session.announce({ title: false });
      return { sessionId: record.info.id, ...session.config.announce() };
    } finally {
      answer.returning();
    }
  }

  async load(params: acp.LoadSessionRequest): Promise<acp.LoadSessionResponse> {
    const { opening, state } = this;
    await this.checkOpening(params);
    const joined = this.joinable(params);
    if (joined) {
      // Open elsewhere too: this connection gets the conversation and the turn going on, then
      // the rest of the turn; the load answers when it ends, as a load that carries one on does.
      // Idle here, it is read again first: another process may have run turns since, or been
      // cut in one, which this load then carries on.
      await joined.refresh();
      return this.openHere(joined, async () => {
        await joined.join(state.link, this.replayTo(params.sessionId));
        opening.logger.info("Session joined", { method: "session/load", sessionId: params.sessionId, busy: joined.busy });
        if (!joined.busy && joined.turnInProgress) {
          await joined.carryOn();
        }
        await joined.settled();
      });
    }
    const { record, moved } = await this.loadRecord(params);
    const offered = await opening.offered();
    const answer = answerWritten();
    try {
      const session = await this.reopen(record, moved, answer.written, offered);
      opening.logger.info("Session started", { method: "session/load", sessionId: params.sessionId, cwd: params.cwd, messages: record.history.length, carriesOn: Boolean(record.turn) });
      await session.replay(this.replayTo(params.sessionId));
      session.clients.attach(state.link);
      // A turn the agent was in the middle of when it stopped goes on now; the load answers when
      // it ends (or waits for the person), so the editor sees the whole turn before the answer.
      await session.carryOn();
      session.announce({ title: true });
      return session.config.announce();
    } finally {
      answer.returning();
    }
  }

  async resume(params: acp.ResumeSessionRequest): Promise<acp.ResumeSessionResponse> {
    const { opening, state } = this;
    await this.checkOpening(params);
    const joined = this.joinable(params);
    if (joined) {
      await joined.refresh();
      return this.openHere(joined, () => Promise.resolve(joined.clients.attach(state.link)));
    }
    const { record, moved } = await this.loadRecord(params);
    const offered = await opening.offered();
    const answer = answerWritten();
    try {
      const session = await this.reopen(record, moved, answer.written, offered);
      session.clients.attach(state.link);
      opening.logger.info("Session started", { method: "session/resume", sessionId: params.sessionId, cwd: params.cwd, messages: record.history.length });
      session.announce({ title: true });
      return session.config.announce();
    } finally {
      answer.returning();
    }
  }

  /** Where a replay to this connection goes. */
  private replayTo(sessionId: string): UpdateSink {
    const { link, lines } = this.state;
    return new UpdateSink(sessionId, (notification) => link.client.notify(acp.methods.client.session.update, notification), this.opening.logger, lines);
  }

  // `answered`: updates about the session wait until the answer that opens it is written.
  private async open(record: AcpSessionRecord, answered: Promise<void>, offered: ConfigOptions): Promise<LiveSession> {
    const session = this.opening.make(record, this.state.principal, offered);
    session.holdUpdatesUntil(answered);
    this.opening.sessions.add(session);
    await this.opening.editor?.openSession?.(record.info);
    return session;
  }

  /** Opens a stored session for a load or resume, writing it back first when its other directories `moved`. */
  private async reopen(record: AcpSessionRecord, moved: boolean, answered: Promise<void>, offered: ConfigOptions): Promise<LiveSession> {
    this.opening.sessions.get(record.info.id)?.clients.detach(this.state.link);
    const session = await this.open(record, answered, offered);
    if (moved) {
      await fromStore(() => session.persist());
    }
    return session;
  }

  /**
   * The session a load or resume joins instead of reading it again: one open in another
   * connection, or with a turn going on (which this connection did not start).
   */
  private joinable(params: OpeningRequest): LiveSession | undefined {
    const { state } = this;
    const session = this.opening.sessions.get(params.sessionId);
    if (!session) {
      return undefined;
    }
    state.checkOwner(params.sessionId, session.info);
    const others = session.clients.size - (session.clients.has(state.link) ? 1 : 0);
    if (session.busy && session.clients.has(state.link)) {
      throw new TurnInProgressError(params.sessionId);
    }
    return state.serving.shared && (session.busy || others > 0) ? session : undefined;
  }

  /** A stored session as a load or resume opens it; `moved` when its other directories are not the ones it had. */
  private async loadRecord(params: OpeningRequest): Promise<{ record: AcpSessionRecord; moved: boolean }> {
    const { sessionId, cwd } = params;
    const directories = additionalDirectories(cwd, params.additionalDirectories);
    if (this.opening.sessions.get(sessionId)?.busy) {
      throw new TurnInProgressError(sessionId);
    }
    const stored = await readRecord(this.opening.store, sessionId);
    this.state.checkOwner(sessionId, stored.info);
    const moved = JSON.stringify(stored.info.additionalDirectories ?? []) !== JSON.stringify(directories ?? []);
    // The session as this connection opens it: its directory and MCP servers.
    return { record: { ...stored, info: sessionInfo(sessionId, cwd, params.mcpServers ?? [], directories, stored.info.owner) }, moved };
  }

  /** Opens a session open elsewhere in this connection too (`attach` does), for a load or resume to answer. */
  private async openHere(session: LiveSession, attach: () => Promise<void>): Promise<acp.LoadSessionResponse> {
    const answer = answerWritten();
    try {
      session.holdUpdatesUntil(answer.written);
      await attach();
      session.announce({ title: true });
      return session.config.announce();
    } finally {
      answer.returning();
    }
  }

  private async checkOpening(params: OpeningRequest): Promise<void> {
    checkCwd(params.cwd);
    await this.state.checkDirectories(params.cwd, additionalDirectories(params.cwd, params.additionalDirectories));
  }
}

/** A session's info: no key for other directories or an owner when there is none. */
function sessionInfo(id: string, cwd: string, mcpServers: acp.McpServer[], directories: string[] | undefined, owner: string | undefined): AcpSessionInfo {
  const info: AcpSessionInfo = { id, cwd, mcpServers };
  if (directories) {
    info.additionalDirectories = directories;
  }
  if (owner !== undefined) {
    info.owner = owner;
  }
  return info;
}

/**
 * A promise that settles once the answer of the request being handled has been written, for a
 * handler that calls `returning()` as it returns: the SDK queues the answer when the handler
 * returns and writes in order, so what is queued after the next turn of the event loop comes after it.
 */
function answerWritten(): { written: Promise<void>; returning(): void } {
  let settle!: () => void;
  const written = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { written, returning: () => setImmediate(settle) };
}
