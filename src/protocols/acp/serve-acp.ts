// serveAcp(): serves a graph to an editor over ACP on the official SDK. This file wires protocol
// methods to sessions; the sessions themselves (turns, permissions, replay) are in acp-session.ts.

import { randomUUID } from "node:crypto";

import * as acp from "@agentclientprotocol/sdk";

import { silentLogger, type Logger } from "../../types/logger.js";
import type { Message } from "../../types/messages.js";
import type { Principal } from "../../types/principal.js";
import type { ProtocolGraph, ProtocolInterrupt } from "../shared.js";
import { LiveSession } from "./acp-session.js";
import { type AcpConfigOption, type AcpConfigValues, ConfigOptions } from "./config-options.js";
import { type AcpContentBlock, toAcpContentBlock } from "./content.js";
import { AcpConnectionError } from "./connection-error.js";
import type { AcpClientCapabilities, AcpConnection, AcpEditorBridge } from "./editor-bridge.js";
import type { LineLimits } from "./line-limits.js";
import type { AcpModes } from "./modes.js";
import { InvalidCursorError, TurnInProgressError } from "./request-errors.js";
import { additionalDirectories, checkCwd } from "./session-directories.js";
import { fromStore, SessionNotFoundError } from "./session-errors.js";
import { type SessionServices, sessionParts } from "./session-parts.js";
import { type AcpSessionInfo, type AcpSessionRecord, type AcpSessionStore, type AcpSessionSummary, MemoryAcpSessionStore } from "./session-store.js";
import type { AcpTitle } from "./session-title.js";
import { type AcpCommand, type AcpCommands, checkCommands } from "./slash-commands.js";
import { toSdkStream, type AcpStreams } from "./streams.js";
import { type AcpToolKind, DEFAULT_CONTENT_LIMIT, guessToolKind } from "./tool-calls.js";
import { type AcpUsageOptions, checkUsageOptions } from "./usage.js";
import { answering } from "./wire-errors.js";

/** The protocol version this module speaks. */
export const ACP_PROTOCOL_VERSION = 1;

/** Options for `serveAcp()`. */
export interface AcpOptions {
  /** The agent's name and version, as the editor shows them. */
  agentInfo?: { name: string; version: string; title?: string | undefined } | undefined;
  /**
   * The graph input for a prompt. Defaults to `{ messages }`: the session's conversation and the
   * prompt, which is what an agent from `createAgent()` takes.
   */
  input?: ((prompt: string, session: AcpSessionInfo, history: Message[], blocks: AcpContentBlock[]) => unknown) | undefined;
  /**
   * The answer the next prompt gives a question that is not a tool approval and was asked as the
   * agent's message (the turn then ends). Defaults to the prompt's text, or `{ action: "reply",
   * text }` (a FormAnswer) for a question with an answer schema. A question with a flat answer
   * schema is asked as a form instead when the editor shows forms (docs/architecture.md).
   */
  answer?: ((prompt: string, interrupt: ProtocolInterrupt) => unknown) | undefined;
  /** What a tool does, for the editor. Defaults to a guess from its name. */
  kind?: ((name: string, args: unknown) => AcpToolKind) | undefined;
  /** Who the agent acts for: the person at the editor. */
  principal?: Principal | undefined;
  /**
   * Where sessions are kept. Defaults to memory; `storeAcpSessions()` keeps them in a long-term store,
   * so an editor reopens a session with `session/load` after the agent restarts. A question the last
   * turn asked is kept too, and so is a turn the agent was in the middle of, which the load carries on.
   */
  sessions?: AcpSessionStore | undefined;
  /** Gives the agent what the editor offers: its files, its terminal, and its MCP servers. */
  editor?: AcpEditorBridge | undefined;
  /**
   * Settings a person picks per session in the editor: the model, the reasoning effort, switches
   * of your own. Each is a select (one value out of a list, flat or in groups) or a boolean, with
   * the value a new session starts with. A session keeps its values in its record, so they come
   * back when it is loaded or resumed; its runs see them as `config` (createAgent's `model` can be a
   * function of it), read again before every step, so a change applies from the next model call.
   * Boolean options are offered only to editors that say they show them; for the others a
   * session keeps the default. See also AcpServer.setConfig, for changes the agent makes itself.
   *
   * A function instead is asked as each session is made, loaded or resumed (so a list that
   * grows, such as a model server's, reaches the next session); it should answer the same array
   * while nothing changes, since each new array is checked again.
   */
  configOptions?: readonly AcpConfigOption[] | (() => readonly AcpConfigOption[] | Promise<readonly AcpConfigOption[]>) | undefined;
  /**
   * The session's modes (such as ask and code), of which it is in one at a time. Offered both as
   * ACP's `modes` and as the config option `mode` of category "mode", since editors read one or
   * the other, and kept the same: the run sees the mode as `config.mode`.
   */
  modes?: AcpModes | undefined;
  /**
   * Slash commands the person can type in the editor (`/review src`): each has a name, a
   * description, an optional hint for its input, and a `run` that answers by itself (a reply, as
   * the agent's message, with no model call), or gives the prompt to run instead, or the graph's
   * input for the turn. A list, or a function of the session and its config (asked again when the
   * config changes, so a mode can have commands of its own). The editor is sent the list once it
   * knows a session, and again when it changes; a prompt starting with `/name` of one of them runs
   * it, and any other prompt (an unknown `/word` too) goes to the graph as always. See also
   * AcpServer.setCommands.
   */
  commands?: AcpCommands | undefined;
  /**
   * How full the context window is and what the session cost, for the editor's usage display:
   * the window of the model in use (per config, such as the model picked) and, optionally, its
   * prices per million tokens. After each model call the editor is sent `usage_update` with the
   * tokens now in the context (that call's input and output, never more than the window) and the
   * session's cost so far, which its record keeps across restarts; after new, load and resume too.
   * Without it (or for a model whose window it does not know) no usage is sent.
   */
  usage?: AcpUsageOptions | undefined;
  /**
   * A new session's title, made from its first prompt (it may ask a model). By default the title
   * is the start of that prompt. Either way the title is kept in the session's record, listed by
   * `session/list` and sent as `session_info_update`; until title() answers, and when it fails
   * (which is logged), the default stands.
   */
  title?: AcpTitle | undefined;
  /** Where to report what happens. Nothing is logged by default; never log to stdout. */
  logger?: Logger | undefined;
  /** The largest prompt accepted, in bytes of JSON. Default 16 MiB; larger ones get -32602. */
  maxPromptBytes?: number | undefined;
  /**
   * The longest line read from the editor (default 64 MiB) and the deepest nesting of arrays and
   * objects in one (default 128), checked before the line is parsed. A line over either gets a
   * JSON-RPC error (with its id, when its top level shows one) and is never read whole; the agent
   * reads on at the next line.
   */
  lineLimits?: Partial<LineLimits> | undefined;
  /** The most characters of one tool call's output shown to the editor. Default 64 KiB. */
  contentLimit?: number | undefined;
  /**
   * Called once the first `initialize` has been answered: the moment to warm up what the first
   * session will need (open the session store, load a model provider) without delaying the answer.
   */
  onInitialized?: (() => void) | undefined;
  /**
   * What a turn whose run fails (a model that cannot be reached, a key that is refused) does:
   * `error` (the default) answers the prompt with a JSON-RPC error and takes the prompt back
   * (unless a tool ran), so the editor can send it again; `message` tells the person what went
   * wrong as the agent's message, keeps both, and ends the turn normally, as an end-user agent
   * should. A prompt that stays keeps its attachments only as notes (see docs/sessions.md).
   */
  failures?: "error" | "message" | undefined;
  /**
   * How a person signs in, as `initialize` lists them. A `terminal` method (the editor runs the
   * agent's own command again, with `args` added, in a terminal) is listed only to editors that
   * say they can (`clientCapabilities.auth.terminal`); any other method is one the editor asks
   * for with `authenticate`, which `authenticate` below answers.
   */
  authMethods?: readonly acp.AuthMethod[] | undefined;
  /**
   * Answers `authenticate` for a method of `authMethods` that is not a terminal one; resolves
   * once the person is signed in. What it throws is the request's error. Without it, such a
   * request gets -32602.
   */
  authenticate?: ((methodId: string) => void | Promise<void>) | undefined;
  /**
   * Whether the person must sign in before a session can start (no model is set up yet, say).
   * While it answers true, `session/new` fails with auth_required (-32000), so the editor offers
   * the methods it was listed; an editor listed none gets its session as usual.
   */
  authRequired?: (() => boolean) | undefined;
}

/** A running ACP connection. */
export interface AcpServer {
  /**
   * Resolves when the connection ends: with nothing when the editor closed its end or `close()` was
   * called, and with the reason when it broke (reading from the editor or writing to it failed).
   * An agent's process should then say why and exit non-zero.
   */
  closed: Promise<AcpConnectionError | undefined>;
  /** Stops every running prompt and closes the connection. */
  close(): void;
  /**
   * Changes config values (or the mode, under `mode`) of a session open on this connection, as the
   * agent's own choice: a tool that leaves plan mode, a model the agent falls back to. The values
   * are checked first (an InvalidConfigValueError says what is wrong, a SessionNotFoundError that
   * the session is not open here), written to the session's record, and shown to the editor: the
   * full list as `config_option_update`, and a new mode as `current_mode_update` too. A run going
   * on sees them from its next step. Resolves once the record is written.
   */
  setConfig(sessionId: string, values: Readonly<AcpConfigValues>): Promise<void>;
  /**
   * Gives a session open on this connection its own slash commands instead of AcpOptions.commands
   * (undefined goes back to those), and sends the editor the new list. The commands are checked
   * first (a WeftError, code `invalid_option`, says what is wrong; a SessionNotFoundError that the
   * session is not open here). They last as long as the session is open here.
   */
  setCommands(sessionId: string, commands: readonly AcpCommand[] | undefined): void;
}

const LIST_PAGE = 50;

/**
 * Serves a graph to an editor over ACP. Run it as the agent's process:
 *
 * ```ts
 * serveAcp(agent, { input: process.stdin, output: process.stdout }, { agentInfo: { name: "reviewer", version: "1.0.0" } });
 * ```
 */
export function serveAcp(graph: ProtocolGraph, streams: AcpStreams, options: AcpOptions = {}): AcpServer {
  const configOptions = new ConfigOptions(typeof options.configOptions === "function" ? [] : options.configOptions, options.modes);
  const declaredOptions = options.configOptions;
  const checkedOptions = new WeakMap<readonly AcpConfigOption[], ConfigOptions>();
  /** The options a session made, loaded or resumed now gets. */
  const sessionOptions = async (): Promise<ConfigOptions> => {
    if (typeof declaredOptions !== "function") {
      return configOptions;
    }
    const declared = await declaredOptions();
    let checked = checkedOptions.get(declared);
    if (!checked) {
      checked = new ConfigOptions(declared, options.modes);
      checkedOptions.set(declared, checked);
    }
    return checked;
  };
  if (Array.isArray(options.commands)) {
    checkCommands(options.commands);
  }
  if (options.usage) {
    checkUsageOptions(options.usage);
  }
  const store = options.sessions ?? new MemoryAcpSessionStore();
  const logger = options.logger ?? silentLogger;
  const sessions = new Map<string, LiveSession>();
  let clientCapabilities: AcpClientCapabilities = {};
  let booleanOptions = false;
  let initialized = false;
  /** The sign-in methods the editor was listed in its `initialize`. */
  let listedAuth: acp.AuthMethod[] = [];

  const app = acp.agent({ name: options.agentInfo?.name ?? graph.name });
  const live = (sessionId: string): LiveSession => {
    const session = sessions.get(sessionId);
    if (!session) {
      throw new SessionNotFoundError(sessionId);
    }
    return session;
  };
  // Every handler answers what it throws through toRequestError(); errors it does not know are logged.
  const unexpected = (error: unknown) => logger.error("A request failed", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  const handle = <C, R>(handler: (context: C) => R | Promise<R>) => answering(handler, unexpected);
  // Handlers run only once messages arrive, after `services` below is set up.
  // `answered`: updates about the session wait until the answer that opens it is written.
  const open = async (record: AcpSessionRecord, answered: Promise<void>, offered: ConfigOptions): Promise<LiveSession> => {
    const session = new LiveSession(sessionParts(offered === configOptions ? services : { ...services, configOptions: offered }, record));
    session.holdUpdatesUntil(answered);
    sessions.set(record.info.id, session);
    await options.editor?.openSession?.(record.info);
    return session;
  };
  /** Opens a stored session for a load or resume, writing it back first when its other directories `moved`. */
  const reopen = async (record: AcpSessionRecord, moved: boolean, answered: Promise<void>, offered: ConfigOptions): Promise<LiveSession> => {
    const session = await open(record, answered, offered);
    if (moved) {
      await fromStore(() => session.persist());
    }
    return session;
  };
  /** A stored session as a load or resume opens it; `moved` when its other directories are not the ones it had. */
  const loadRecord = async (params: acp.LoadSessionRequest | acp.ResumeSessionRequest): Promise<{ record: AcpSessionRecord; moved: boolean }> => {
    const { sessionId, cwd } = params;
    checkCwd(cwd);
    const directories = additionalDirectories(cwd, params.additionalDirectories);
    if (sessions.get(sessionId)?.busy) {
      throw new TurnInProgressError(sessionId);
    }
    const record = await readRecord(store, sessionId);
    const moved = JSON.stringify(record.info.additionalDirectories ?? []) !== JSON.stringify(directories ?? []);
    record.info = sessionInfo(sessionId, cwd, params.mcpServers ?? [], directories);
    return { record, moved };
  };

  app
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      clientCapabilities = readCapabilities(params.clientCapabilities);
      booleanOptions = Boolean(params.clientCapabilities?.session?.configOptions?.boolean);
      if (options.onInitialized && !initialized) {
        initialized = true;
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
        agentInfo: implementation(options.agentInfo ?? { name: graph.name, version: "0.0.0" }),
        authMethods: (listedAuth = (options.authMethods ?? []).filter((method) => !isTerminal(method) || params.clientCapabilities?.auth?.terminal === true)),
      };
    })
    .onRequest(acp.methods.agent.session.new, handle(async ({ params }) => {
      if (listedAuth.length > 0 && options.authRequired?.()) {
        throw acp.RequestError.authRequired(undefined, `sign in first (${listedAuth.map((method) => method.name).join(", ")})`);
      }
      checkCwd(params.cwd);
      const record: AcpSessionRecord = {
        info: sessionInfo(`sess_${randomUUID().replaceAll("-", "")}`, params.cwd, params.mcpServers ?? [], additionalDirectories(params.cwd, params.additionalDirectories)),
        history: [],
        always: [],
        updatedAt: new Date().toISOString(),
      };
      const offered = await sessionOptions();
      if (offered.offered) {
        record.config = offered.defaults();
      }
      const answer = answerWritten();
      try {
        const session = await open(record, answer.written, offered);
        try {
          await fromStore(() => session.persist());
        } catch (error) {
          sessions.delete(record.info.id);
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
      const { record, moved } = await loadRecord(params);
      const offered = await sessionOptions();
      const answer = answerWritten();
      try {
        const session = await reopen(record, moved, answer.written, offered);
        logger.info("Session started", { method: "session/load", sessionId: params.sessionId, cwd: params.cwd, messages: record.history.length, carriesOn: Boolean(record.turn) });
        await session.replay();
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
      const { record, moved } = await loadRecord(params);
      const offered = await sessionOptions();
      const answer = answerWritten();
      try {
        const session = await reopen(record, moved, answer.written, offered);
        logger.info("Session started", { method: "session/resume", sessionId: params.sessionId, cwd: params.cwd, messages: record.history.length });
        session.announce({ title: true });
        return session.config.announce();
      } finally {
        answer.returning();
      }
    }))
    .onRequest(acp.methods.agent.session.close, handle(async ({ params }) => {
      const session = live(params.sessionId);
      session.cancel();
      sessions.delete(params.sessionId);
      await options.editor?.closeSession?.(params.sessionId);
      return {};
    }))
    .onRequest(acp.methods.agent.session.prompt, handle(async ({ params, signal }) => {
      const end = await live(params.sessionId).prompt(params.prompt.map(toAcpContentBlock), signal);
      if (end.status === "failed") {
        throw end.error;
      }
      return { stopReason: end.stopReason };
    }))
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
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
  if (configOptions.offered || typeof declaredOptions === "function") {
    app.onRequest(acp.methods.agent.session.setConfigOption, handle(async ({ params }) => {
      // A boolean comes with `type: "boolean"`, a select's value without; the option says which it takes.
      return { configOptions: await live(params.sessionId).config.setOption(params.configId, params.value) };
    }));
  }
  if (configOptions.modes) {
    app.onRequest(acp.methods.agent.session.setMode, handle(async ({ params }) => {
      await live(params.sessionId).config.setMode(params.modeId);
      return {};
    }));
  }
  if (store.list) {
    const list = store.list.bind(store);
    app.onRequest(acp.methods.agent.session.list, handle(async ({ params }) => {
      const offset = readCursor(params.cursor);
      const query: { cwd?: string | undefined; offset: number; limit: number } = { offset, limit: LIST_PAGE + 1 };
      if (params.cwd) {
        checkCwd(params.cwd);
        query.cwd = params.cwd;
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
      if (params.sessionId === "") {
        throw new SessionNotFoundError(params.sessionId);
      }
      sessions.get(params.sessionId)?.cancel();
      // From the store first: when it cannot be reached, the session stays as it was.
      await fromStore(() => remove(params.sessionId));
      sessions.delete(params.sessionId);
      await options.editor?.closeSession?.(params.sessionId);
      await graph.deleteThread?.(params.sessionId);
      return {};
    }));
  }

  const wire = toSdkStream(streams, { logger, ...(options.lineLimits ? { limits: options.lineLimits } : {}) });
  const connection = app.connect(wire.stream);
  const services: SessionServices = {
    graph,
    client: connection.client,
    capabilities: () => clientCapabilities,
    // A replay's lines stop with the connection, as the SDK's notifications do.
    lines: (text) => {
      if (connection.signal.aborted) {
        throw connection.signal.reason;
      }
      return wire.writeLines(text);
    },
    store,
    editor: options.editor,
    logger,
    kind: options.kind ?? guessToolKind,
    contentLimit: options.contentLimit ?? DEFAULT_CONTENT_LIMIT,
    configOptions,
    booleanOptions: () => booleanOptions,
    commands: options.commands,
    usage: options.usage,
    title: options.title,
    closing: connection.signal,
    settings: {
      principal: options.principal,
      input: options.input,
      answer: options.answer,
      failures: options.failures ?? "error",
      maxPromptBytes: options.maxPromptBytes ?? 16 * 1024 * 1024,
    },
  };
  const bridgeConnection: AcpConnection = {
    request: editorRequest(connection.client),
    capabilities: () => clientCapabilities,
    session: (sessionId) => sessions.get(sessionId)?.info,
    notify: async (sessionId, text) => {
      await sessions.get(sessionId)?.say(text);
    },
    notice: async (sessionId, notice) => sessions.get(sessionId)?.notice(notice) ?? false,
  };
  options.editor?.attach(bridgeConnection);

  const stopAll = () => {
    for (const session of sessions.values()) {
      session.cancel();
    }
  };
  let closing = false;
  const closed = connection.closed.then(async () => {
    const failure = wire.failure() ?? (closing || wire.ended() ? undefined : new AcpConnectionError("connection_failed", "The ACP connection failed", { cause: connection.signal.reason }));
    stopAll();
    try {
      await options.editor?.detach?.();
    } catch (error) {
      logger.warn("The editor bridge failed to detach", { error: String(error) });
    }
    return failure;
  });
  return {
    closed,
    close: () => {
      closing = true;
      stopAll();
      connection.close();
    },
    setConfig: async (sessionId, values) => {
      await live(sessionId).config.change(values);
    },
    setCommands: (sessionId, commands) => {
      live(sessionId).commands.set(commands);
    },
  };
}

async function readRecord(store: AcpSessionStore, sessionId: string): Promise<AcpSessionRecord> {
  // An id no store can hold (empty, a NUL in it) names no session: "not found", not an outage.
  if (sessionId === "" || sessionId.includes("\0")) {
    throw new SessionNotFoundError(sessionId);
  }
  const record = await fromStore(() => store.get(sessionId));
  if (!record) {
    throw new SessionNotFoundError(sessionId);
  }
  return record;
}

/** A session's info: no key for other directories when there are none. */
function sessionInfo(id: string, cwd: string, mcpServers: unknown[], directories: string[] | undefined): AcpSessionInfo {
  const info: AcpSessionInfo = { id, cwd, mcpServers };
  if (directories) {
    info.additionalDirectories = directories;
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

/** Requests to the editor, for a bridge: ACP's own methods typed, and a signal withdraws the request. */
function editorRequest(client: acp.AgentContext): AcpConnection["request"] {
  function request<Method extends acp.ClientRequestMethod>(method: Method, params: acp.ClientRequestParamsByMethod[Method], signal?: AbortSignal): Promise<acp.ClientRequestResponsesByMethod[Method]>;
  function request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  function request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    return client.request(method, params, signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined);
  }
  return request;
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
