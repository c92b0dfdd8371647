// The agent behind every connection of one server: the sessions open now, and the protocol's
// methods as each connection answers them. Over stdio (serveAcp) there is one connection and the
// sessions end with it. Served remotely (serveAcpHttp) many connections share the sessions: each
// person signed in sees only their own, a session can be open in several connections at once, and
// a turn goes on when the connection that started it drops, for the next one to join.

import { randomUUID } from "node:crypto";

import * as acp from "@agentclientprotocol/sdk";

import { silentLogger } from "../../types/logger.js";
import type { Principal } from "../../types/principal.js";
import type { ProtocolGraph } from "../../graph/protocol-graph.js";
import { LiveSession } from "./live-session.js";
import { checkInRoots } from "./check-in-roots.js";
import { readSetModelParams, SET_MODEL_METHOD, type SetModelParams } from "../surface/model-state.js";
import { type AcpConfigOption, ConfigOptions } from "../surface/config-options.js";
import { toAcpContentBlock } from "../mapping/content.js";
import type { AcpClientCapabilities, AcpConnection } from "../editor-bridge.js";
import { InvalidCursorError, TurnInProgressError } from "../errors/request-errors.js";
import type { AcpOptions } from "./acp-options.js";
import { type ConnectionLink, SessionClients } from "../session/session-clients.js";
import { additionalDirectories, checkCwd } from "./session-directories.js";
import { fromStore, SessionNotFoundError } from "../errors/session-errors.js";
import { type SessionServices, sessionParts } from "./session-parts.js";
import { type AcpSessionInfo, type AcpSessionQuery, type AcpSessionRecord, type AcpSessionStore, type AcpSessionSummary, MemoryAcpSessionStore } from "../record/session-store.js";
import { checkCommands } from "../surface/slash-commands.js";
import type { LineSink } from "../wire/streams.js";
import { DEFAULT_CONTENT_LIMIT, guessToolKind } from "../mapping/tool-calls.js";
import { isUnattended, WAITING_META } from "../wire/unattended-turns.js";
import { UpdateSink } from "../session/update-sink.js";
import { checkUsageOptions } from "../surface/usage.js";
import { answering } from "./wire-errors.js";

/** The protocol version this module speaks. */
export const ACP_PROTOCOL_VERSION = 1;

const LIST_PAGE = 50;

/** How the agent is served: to one editor over stdio, or to many people remotely. */
export interface AcpServing {
  /**
   * Sessions outlive the connection that opened them, and belong to the principal who started
   * them: another is told they do not exist. Otherwise (stdio) a connection's end stops its sessions.
   */
  shared: boolean;
  /**
   * The directories a principal's sessions are kept in (served remotely): a session's `cwd` and
   * other directories must really lead inside one when it opens, and every path its tools resolve
   * must stay inside one, wherever its directories lead by then. None over stdio.
   */
  roots?: ((principal: Principal | undefined) => readonly string[]) | undefined;
}

/** One connection's side: who is calling, and how to write a replay's lines to it. */
export interface AcpCaller {
  principal?: Principal | undefined;
  lines?: LineSink | undefined;
}

export class AcpAgent {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly store: AcpSessionStore;
  private readonly logger;
  private readonly configOptions: ConfigOptions;
  private readonly checkedOptions = new WeakMap<readonly AcpConfigOption[], ConfigOptions>();
  private readonly stopping = new AbortController();
  /** The connections open now, the newest last. */
  private readonly links: ConnectionLink[] = [];
  private initialized = false;

  constructor(
    private readonly graph: ProtocolGraph,
    private readonly options: AcpOptions,
    private readonly serving: AcpServing,
  ) {
    this.configOptions = new ConfigOptions(typeof options.configOptions === "function" ? [] : options.configOptions, options.modes);
    if (Array.isArray(options.commands)) {
      checkCommands(options.commands);
    }
    if (options.usage) {
      checkUsageOptions(options.usage);
    }
    this.store = options.sessions ?? new MemoryAcpSessionStore();
    this.logger = options.logger ?? silentLogger;
    options.editor?.attach(this.editorConnection());
  }

  /** A session open now, for the server's own changes to it (setConfig, setCommands). */
  live(sessionId: string): LiveSession {
    const session = this.sessions.get(sessionId);
    if (!session) {
      throw new SessionNotFoundError(sessionId);
    }
    return session;
  }

  /** Cancels every running turn. */
  stopAll(): void {
    for (const session of this.sessions.values()) {
      session.cancel();
    }
  }

  /** Stops every turn and lets the editor bridge go; for a server shutting down. */
  async close(): Promise<void> {
    this.stopping.abort();
    this.stopAll();
    try {
      await this.options.editor?.detach?.();
    } catch (error) {
      this.logger.warn("The editor bridge failed to detach", { error: String(error) });
    }
  }

  /** Serves one connection: the protocol's methods, answered for `caller`, over `stream`. */
  connect(stream: acp.Stream, caller: AcpCaller, connectOptions?: unknown): acp.AgentConnection {
    const { options, store, logger } = this;
    let clientCapabilities: AcpClientCapabilities = {};
    let booleanOptions = false;
    /** The sign-in methods the editor was listed in its `initialize`. */
    let listedAuth: acp.AuthMethod[] = [];
    const principal = caller.principal ?? options.principal;
    const owner = this.serving.shared ? principal?.id : undefined;
    const app = acp.agent({ name: options.agentInfo?.name ?? this.graph.name });
    // Set once the app is connected, before any message is read; the handlers below read it.
    // eslint-disable-next-line prefer-const -- the handlers must be declared before the app connects
    let link!: ConnectionLink;

    /** A session open in this connection. */
    const live = (sessionId: string): LiveSession => {
      const session = this.sessions.get(sessionId);
      if (!session || !session.clients.has(link)) {
        throw new SessionNotFoundError(sessionId);
      }
      return session;
    };
    /** Throws "not found" for a session that is not this principal's, so that it cannot tell one exists. */
    const checkOwner = (sessionId: string, info: AcpSessionInfo) => {
      if (this.serving.shared && info.owner !== owner) {
        throw new SessionNotFoundError(sessionId);
      }
    };
    const checkDirectories = async (cwd: string, directories: readonly string[] | undefined) => {
      const roots = this.serving.roots?.(principal);
      if (roots) {
        await checkInRoots([cwd, ...(directories ?? [])], roots);
      }
    };
    // Every handler answers what it throws through toRequestError(); errors it does not know are logged.
    const unexpected = (error: unknown) => logger.error("A request failed", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    const handle = <C, R>(handler: (context: C) => R | Promise<R>) => answering(handler, unexpected);
    /** Where a replay to this connection goes. */
    const replayTo = (sessionId: string) => new UpdateSink(sessionId, (notification) => link.client.notify(acp.methods.client.session.update, notification), logger, caller.lines);
    // `answered`: updates about the session wait until the answer that opens it is written.
    const open = async (record: AcpSessionRecord, answered: Promise<void>, offered: ConfigOptions): Promise<LiveSession> => {
      const clients = new SessionClients(record.info.id, this.serving.shared);
      const session = new LiveSession(sessionParts(this.services(clients, principal, offered), record), clients);
      session.holdUpdatesUntil(answered);
      this.sessions.set(record.info.id, session);
      await options.editor?.openSession?.(record.info);
      return session;
    };
    /** Opens a stored session for a load or resume, writing it back first when its other directories `moved`. */
    const reopen = async (record: AcpSessionRecord, moved: boolean, answered: Promise<void>, offered: ConfigOptions): Promise<LiveSession> => {
      this.sessions.get(record.info.id)?.clients.detach(link);
      const session = await open(record, answered, offered);
      if (moved) {
        await fromStore(() => session.persist());
      }
      return session;
    };
    /**
     * The session a load or resume joins instead of reading it again: one open in another
     * connection, or with a turn going on (which this connection did not start).
     */
    const joinable = (params: acp.LoadSessionRequest | acp.ResumeSessionRequest): LiveSession | undefined => {
      const session = this.sessions.get(params.sessionId);
      if (!session) {
        return undefined;
      }
      checkOwner(params.sessionId, session.info);
      const others = session.clients.size - (session.clients.has(link) ? 1 : 0);
      if (session.busy && session.clients.has(link)) {
        throw new TurnInProgressError(params.sessionId);
      }
      return this.serving.shared && (session.busy || others > 0) ? session : undefined;
    };
    /** A stored session as a load or resume opens it; `moved` when its other directories are not the ones it had. */
    const loadRecord = async (params: acp.LoadSessionRequest | acp.ResumeSessionRequest): Promise<{ record: AcpSessionRecord; moved: boolean }> => {
      const { sessionId, cwd } = params;
      const directories = additionalDirectories(cwd, params.additionalDirectories);
      if (this.sessions.get(sessionId)?.busy) {
        throw new TurnInProgressError(sessionId);
      }
      const record = await readRecord(store, sessionId);
      checkOwner(sessionId, record.info);
      const moved = JSON.stringify(record.info.additionalDirectories ?? []) !== JSON.stringify(directories ?? []);
      record.info = sessionInfo(sessionId, cwd, params.mcpServers ?? [], directories, record.info.owner);
      return { record, moved };
    };
    /** Opens a session open elsewhere in this connection too (`attach` does), for a load or resume to answer. */
    const openHere = async (session: LiveSession, attach: () => Promise<void>) => {
      const answer = answerWritten();
      try {
        session.holdUpdatesUntil(answer.written);
        await attach();
        session.announce({ title: true });
        return session.config.announce();
      } finally {
        answer.returning();
      }
    };
    const checkOpening = async (params: acp.LoadSessionRequest | acp.ResumeSessionRequest) => {
      checkCwd(params.cwd);
      await checkDirectories(params.cwd, additionalDirectories(params.cwd, params.additionalDirectories));
    };

    app
      .onRequest(acp.methods.agent.initialize, ({ params }) => {
        clientCapabilities = readCapabilities(params.clientCapabilities);
        if (this.serving.shared) {
          // Served remotely, the agent works on the server's files: the client's are not its to use.
          clientCapabilities = { ...clientCapabilities, fs: { readTextFile: false, writeTextFile: false }, terminal: false };
        }
        booleanOptions = Boolean(params.clientCapabilities?.session?.configOptions?.boolean);
        if (options.onInitialized && !this.initialized) {
          this.initialized = true;
          // After the answer is written: the SDK sends it when this handler returns.
          setImmediate(options.onInitialized);
        }
        const sessionCapabilities: acp.SessionCapabilities = { resume: {}, close: {}, additionalDirectories: {} };
        if (store.list) {
          sessionCapabilities.list = {};
        }
        if (store.delete) {
          sessionCapabilities.delete = {};
        }
        return {
          protocolVersion: ACP_PROTOCOL_VERSION,
          agentCapabilities: {
            loadSession: true,
            promptCapabilities: { image: true, audio: true, embeddedContext: true },
            mcpCapabilities: { http: Boolean(options.editor?.mcpCapabilities?.http), sse: Boolean(options.editor?.mcpCapabilities?.sse) },
            sessionCapabilities,
          },
          agentInfo: implementation(options.agentInfo ?? { name: this.graph.name, version: "0.0.0" }),
          authMethods: (listedAuth = (options.authMethods ?? []).filter((method) => !isTerminal(method) || params.clientCapabilities?.auth?.terminal === true)),
        };
      })
      .onRequest(acp.methods.agent.session.new, handle(async ({ params }) => {
        if (listedAuth.length > 0 && options.authRequired?.()) {
          throw acp.RequestError.authRequired(undefined, `sign in first (${listedAuth.map((method) => method.name).join(", ")})`);
        }
        checkCwd(params.cwd);
        const directories = additionalDirectories(params.cwd, params.additionalDirectories);
        await checkDirectories(params.cwd, directories);
        const record: AcpSessionRecord = {
          info: sessionInfo(`sess_${randomUUID().replaceAll("-", "")}`, params.cwd, params.mcpServers ?? [], directories, owner),
          history: [],
          always: [],
          updatedAt: new Date().toISOString(),
        };
        const offered = await this.sessionOptions();
        if (offered.offered) {
          record.config = offered.defaults();
        }
        const answer = answerWritten();
        try {
          const session = await open(record, answer.written, offered);
          session.clients.attach(link);
          try {
            await fromStore(() => session.persist());
          } catch (error) {
            this.sessions.delete(record.info.id);
            throw error;
          }
          logger.info("Session started", { method: "session/new", sessionId: record.info.id, cwd: params.cwd });
          session.announce({ title: false });
          return { sessionId: record.info.id, ...session.config.announce() };
        } finally {
          answer.returning();
        }
      }))
      .onRequest(acp.methods.agent.session.load, handle(async ({ params }) => {
        await checkOpening(params);
        const joined = joinable(params);
        if (joined) {
          // Open elsewhere too: this connection gets the conversation and the turn going on, then
          // the rest of the turn; the load answers when it ends, as a load that carries one on does.
          // Idle here, it is read again first: another process may have run turns since, or been
          // cut in one, which this load then carries on.
          await joined.refresh();
          return openHere(joined, async () => {
            await joined.join(link, replayTo(params.sessionId));
            logger.info("Session joined", { method: "session/load", sessionId: params.sessionId, busy: joined.busy });
            if (!joined.busy && joined.turnInProgress) {
              await joined.carryOn();
            }
            await joined.settled();
          });
        }
        const { record, moved } = await loadRecord(params);
        const offered = await this.sessionOptions();
        const answer = answerWritten();
        try {
          const session = await reopen(record, moved, answer.written, offered);
          logger.info("Session started", { method: "session/load", sessionId: params.sessionId, cwd: params.cwd, messages: record.history.length, carriesOn: Boolean(record.turn) });
          await session.replay(replayTo(params.sessionId));
          session.clients.attach(link);
          // A turn the agent was in the middle of when it stopped goes on now; the load answers when
          // it ends (or waits for the person), so the editor sees the whole turn before the answer.
          await session.carryOn();
          session.announce({ title: true });
          return session.config.announce();
        } finally {
          answer.returning();
        }
      }))
      .onRequest(acp.methods.agent.session.resume, handle(async ({ params }) => {
        await checkOpening(params);
        const joined = joinable(params);
        if (joined) {
          await joined.refresh();
          return openHere(joined, () => Promise.resolve(joined.clients.attach(link)));
        }
        const { record, moved } = await loadRecord(params);
        const offered = await this.sessionOptions();
        const answer = answerWritten();
        try {
          const session = await reopen(record, moved, answer.written, offered);
          session.clients.attach(link);
          logger.info("Session started", { method: "session/resume", sessionId: params.sessionId, cwd: params.cwd, messages: record.history.length });
          session.announce({ title: true });
          return session.config.announce();
        } finally {
          answer.returning();
        }
      }))
      .onRequest(acp.methods.agent.session.close, handle(async ({ params }) => {
        const session = live(params.sessionId);
        session.clients.detach(link);
        // Closed in the last connection it was open in: its turn stops, as over stdio.
        if (session.clients.size === 0) {
          session.cancel();
          this.sessions.delete(params.sessionId);
          await options.editor?.closeSession?.(params.sessionId);
        }
        return {};
      }))
      .onRequest(acp.methods.agent.session.prompt, handle(async ({ params, signal }) => {
        const session = live(params.sessionId);
        const shown = params.prompt.map((content): acp.SessionUpdate => ({ sessionUpdate: "user_message_chunk", content }));
        const end = await session.prompt(params.prompt.map(toAcpContentBlock), this.serving.shared ? cancelledOnly(signal, link) : signal, { link, shown }, { unattended: isUnattended(params._meta) });
        this.forgetIfIdle(params.sessionId);
        if (end.status === "failed") {
          throw end.error;
        }
        return end.waiting ? { stopReason: end.stopReason, _meta: { [WAITING_META]: { questions: end.waiting } } } : { stopReason: end.stopReason };
      }))
      .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
        const session = this.sessions.get(params.sessionId);
        if (session?.clients.has(link)) {
          session.cancel();
        }
      });

    if (options.authMethods?.length) {
      const authenticate = options.authenticate;
      app.onRequest(acp.methods.agent.authenticate, handle(async ({ params }) => {
        const method = options.authMethods?.find((candidate) => candidate.id === params.methodId);
        if (!method || isTerminal(method) || !authenticate) {
          const why = !method ? "is not one of this agent's" : isTerminal(method) ? "is a terminal method, which the editor runs itself" : "cannot be asked for here";
          throw acp.RequestError.invalidParams({ methodId: params.methodId }, `Authentication method ${JSON.stringify(params.methodId)} ${why}.`);
        }
        await authenticate(method.id);
        return {};
      }));
    }
    if (this.configOptions.offered || typeof options.configOptions === "function") {
      app.onRequest(acp.methods.agent.session.setConfigOption, handle(async ({ params }) => {
        // A boolean comes with `type: "boolean"`, a select's value without; the option says which it takes.
        return { configOptions: await live(params.sessionId).config.setOption(params.configId, params.value) };
      }));
    }
    if (this.configOptions.offered || typeof options.configOptions === "function") {
      // The unstable model API, removed from the protocol but still used by some clients: it sets the model option.
      app.onRequest(SET_MODEL_METHOD, readSetModelParams, handle(async ({ params }: { params: SetModelParams }) => {
        await live(params.sessionId).config.setModel(params.modelId);
        return {};
      }));
    }
    if (this.configOptions.modes) {
      app.onRequest(acp.methods.agent.session.setMode, handle(async ({ params }) => {
        await live(params.sessionId).config.setMode(params.modeId);
        return {};
      }));
    }
    if (store.list) {
      const list = store.list.bind(store);
      app.onRequest(acp.methods.agent.session.list, handle(async ({ params }) => {
        const offset = readCursor(params.cursor);
        const query: AcpSessionQuery = { offset, limit: LIST_PAGE + 1 };
        if (params.cwd) {
          checkCwd(params.cwd);
          query.cwd = params.cwd;
        }
        if (this.serving.shared) {
          // Only the caller's own; a caller without a principal owns none.
          query.owner = owner ?? "\0";
        }
        const found = await fromStore(() => list(query));
        const page = found.slice(0, LIST_PAGE).map(listEntry);
        const response: acp.ListSessionsResponse = { sessions: page };
        if (found.length > LIST_PAGE) {
          response.nextCursor = String(offset + LIST_PAGE);
        }
        return response;
      }));
    }
    if (store.delete) {
      const remove = store.delete.bind(store);
      app.onRequest(acp.methods.agent.session.delete, handle(async ({ params }) => {
        if (namesNoSession(params.sessionId)) {
          throw new SessionNotFoundError(params.sessionId);
        }
        if (this.serving.shared) {
          checkOwner(params.sessionId, (await readRecord(store, params.sessionId)).info);
        }
        this.sessions.get(params.sessionId)?.cancel();
        // From the store first: when it cannot be reached, the session stays as it was.
        await fromStore(() => remove(params.sessionId));
        this.sessions.delete(params.sessionId);
        await options.editor?.closeSession?.(params.sessionId);
        await this.graph.deleteThread?.(params.sessionId);
        return {};
      }));
    }

    const connection = (app.connect as (stream: acp.Stream, options?: unknown) => acp.AgentConnection)(stream, connectOptions);
    link = {
      client: connection.client,
      capabilities: () => clientCapabilities,
      booleanOptions: () => booleanOptions,
      lines: caller.lines,
      signal: connection.signal,
    };
    this.links.push(link);
    void connection.closed.then(() => this.disconnected(link));
    return connection;
  }

  /** A connection ended: its sessions are no longer open in it, and over stdio they stop. */
  private disconnected(link: ConnectionLink): void {
    this.links.splice(this.links.indexOf(link), 1);
    for (const [id, session] of this.sessions) {
      if (!session.clients.has(link)) {
        continue;
      }
      session.clients.detach(link);
      if (!this.serving.shared) {
        session.cancel();
      } else {
        this.forgetIfIdle(id);
      }
    }
  }

  /** Lets go of a session served remotely once it is open nowhere and no turn runs; its record stays. */
  private forgetIfIdle(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (this.serving.shared && session && session.clients.size === 0 && !session.busy) {
      this.sessions.delete(sessionId);
      void this.options.editor?.closeSession?.(sessionId);
    }
  }

  /** The options a session made, loaded or resumed now gets. */
  private async sessionOptions(): Promise<ConfigOptions> {
    const declared = this.options.configOptions;
    if (typeof declared !== "function") {
      return this.configOptions;
    }
    const list = await declared();
    let checked = this.checkedOptions.get(list);
    if (!checked) {
      checked = new ConfigOptions(list, this.options.modes);
      this.checkedOptions.set(list, checked);
    }
    return checked;
  }

  /** What one session's parts are made with. */
  private services(clients: SessionClients, principal: Principal | undefined, offered: ConfigOptions): SessionServices {
    const { options } = this;
    return {
      graph: this.graph,
      client: clients,
      capabilities: () => clients.capabilities(),
      store: this.store,
      editor: options.editor,
      logger: this.logger,
      kind: options.kind ?? guessToolKind,
      contentLimit: options.contentLimit ?? DEFAULT_CONTENT_LIMIT,
      configOptions: offered,
      booleanOptions: () => clients.booleanOptions(),
      commands: options.commands,
      usage: options.usage,
      title: options.title,
      closing: this.stopping.signal,
      settings: {
        principal,
        input: options.input,
        answer: options.answer,
        failures: options.failures ?? "error",
        maxPromptBytes: options.maxPromptBytes ?? 16 * 1024 * 1024,
      },
    };
  }

  /** The editor's side as the bridge sees it: requests go to the connections the session is open in. */
  private editorConnection(): AcpConnection {
    const latest = () => this.links[this.links.length - 1];
    const request = (method: string, params: unknown, signal?: AbortSignal): Promise<unknown> => {
      const sessionId = (params as { sessionId?: unknown } | undefined)?.sessionId;
      const target = typeof sessionId === "string" ? this.sessions.get(sessionId)?.clients : undefined;
      const requestOptions = signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined;
      if (target) {
        return target.request(method, params, requestOptions);
      }
      const link = latest();
      return link ? link.client.request(method, params, requestOptions) : Promise.reject(new Error("No editor is connected."));
    };
    return {
      request: request as AcpConnection["request"],
      capabilities: () => latest()?.capabilities() ?? {},
      session: (sessionId) => this.sessions.get(sessionId)?.info,
      bounds: (sessionId) => {
        const session = this.sessions.get(sessionId);
        return session && this.serving.roots?.(session.principal);
      },
      notify: async (sessionId, text) => {
        await this.sessions.get(sessionId)?.say(text);
      },
      notice: async (sessionId, notice) => this.sessions.get(sessionId)?.notice(notice) ?? false,
    };
  }
}

/**
 * A prompt's signal as a remote session takes it: it stops the turn when the client withdraws the
 * prompt, not when the connection drops (the SDK aborts its requests then too, after the connection).
 */
function cancelledOnly(signal: AbortSignal, link: ConnectionLink): AbortSignal {
  const controller = new AbortController();
  signal.addEventListener(
    "abort",
    () => {
      if (!link.signal.aborted) {
        controller.abort(signal.reason);
      }
    },
    { once: true },
  );
  return controller.signal;
}

/** Whether `sessionId` is one no store can hold (empty, a NUL in it): it names no session, so it is "not found", not an outage. */
function namesNoSession(sessionId: string): boolean {
  return sessionId === "" || sessionId.includes("\0");
}

async function readRecord(store: AcpSessionStore, sessionId: string): Promise<AcpSessionRecord> {
  if (namesNoSession(sessionId)) {
    throw new SessionNotFoundError(sessionId);
  }
  const record = await fromStore(() => store.get(sessionId));
  if (!record) {
    throw new SessionNotFoundError(sessionId);
  }
  return record;
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

function readCursor(cursor: string | null | undefined): number {
  if (cursor === undefined || cursor === null) {
    return 0;
  }
  const offset = Number(cursor);
  if (!Number.isInteger(offset) || offset < 0) {
    throw new InvalidCursorError(cursor);
  }
  return offset;
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

/** Whether a sign-in method is one the editor runs in a terminal (never sent to `authenticate`). */
function isTerminal(method: acp.AuthMethod): boolean {
  return "type" in method && method.type === "terminal";
}

function advertised(capability: unknown): boolean {
  return capability !== undefined && capability !== null;
}

function readCapabilities(capabilities: acp.ClientCapabilities | undefined): AcpClientCapabilities {
  const result: AcpClientCapabilities = {
    fs: { readTextFile: Boolean(capabilities?.fs?.readTextFile), writeTextFile: Boolean(capabilities?.fs?.writeTextFile) },
    terminal: Boolean(capabilities?.terminal),
    // `elicitation: {}` alone advertises no mode: forms need `form` itself.
    elicitation: { form: advertised(capabilities?.elicitation?.form) },
    // `{}` advertises each of these; omitted and null do not.
    session: { notices: advertised(capabilities?.session?.notices), compaction: advertised(capabilities?.session?.compaction) },
  };
  return result;
}

/** The agent's name and version as `initialize` sends them: no title key when there is none. */
function implementation(info: NonNullable<AcpOptions["agentInfo"]>): acp.Implementation {
  const result: acp.Implementation = { name: info.name, version: info.version };
  if (info.title !== undefined) {
    result.title = info.title;
  }
  return result;
}

/** A session as `session/list` sends it: no title or other directories key when there are none. */
function listEntry(summary: AcpSessionSummary): acp.SessionInfo {
  const entry: acp.SessionInfo = { sessionId: summary.sessionId, cwd: summary.cwd, updatedAt: summary.updatedAt };
  if (summary.additionalDirectories?.length) {
    entry.additionalDirectories = summary.additionalDirectories;
  }
  if (summary.title !== undefined) {
    entry.title = summary.title;
  }
  return entry;
}
