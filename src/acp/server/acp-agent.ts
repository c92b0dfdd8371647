// The agent behind every connection of one server, and the wiring of the protocol's methods to the
// pieces that answer them (initialize.ts, session-opening.ts, session-listing.ts; the prompt, close,
// cancel and config methods here, each a few lines). Over stdio (serveAcp) there is one connection
// and the sessions end with it. Served remotely (serveAcpHttp) many connections share the sessions
// (open-sessions.ts): each person signed in sees only their own, a session can be open in several
// connections at once, and a turn goes on when the connection that started it drops, for the next
// one to join.

import * as acp from "@agentclientprotocol/sdk";

import { silentLogger } from "../../types/logger.js";
import type { Principal } from "../../types/principal.js";
import type { ProtocolGraph } from "../../graph/protocol-graph.js";
import { LiveSession } from "./live-session.js";
import { readSetModelParams, SET_MODEL_METHOD, type SetModelParams } from "../surface/model-state.js";
import { type AcpConfigOption, ConfigOptions } from "../surface/config-options.js";
import { toAcpContentBlock } from "../mapping/content.js";
import type { AcpOptions } from "./acp-options.js";
import { type ConnectionLink, SessionClients } from "../session/session-clients.js";
import { type SessionServices, sessionParts } from "./session-parts.js";
import { type AcpSessionRecord, type AcpSessionStore, MemoryAcpSessionStore } from "../record/session-store.js";
import { checkCommands } from "../surface/slash-commands.js";
import { DEFAULT_CONTENT_LIMIT, guessToolKind } from "../mapping/tool-calls.js";
import { isUnattended, WAITING_META } from "../wire/unattended-turns.js";
import { checkUsageOptions } from "../surface/usage.js";
import { answering } from "./wire-errors.js";
import { type AcpCaller, type AcpServing, ConnectionState } from "./connection-state.js";
import { OpenSessions } from "./open-sessions.js";
import { EditorConnection } from "./editor-connection.js";
import { answerAuthenticate, answerInitialize, checkSignedIn } from "./initialize.js";
import { type Opening, SessionOpening } from "./session-opening.js";
import { deleteSession, listSessions } from "./session-listing.js";

export { ACP_PROTOCOL_VERSION } from "./initialize.js";
export type { AcpCaller, AcpServing } from "./connection-state.js";

export class AcpAgent {
  private readonly sessions: OpenSessions;
  private readonly store: AcpSessionStore;
  private readonly logger;
  private readonly configOptions: ConfigOptions;
  private readonly checkedOptions = new WeakMap<readonly AcpConfigOption[], ConfigOptions>();
  private readonly stopping = new AbortController();
  /** What opening a session in any connection reaches. */
  private readonly opening: Opening;
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
    this.sessions = new OpenSessions(serving.shared, options.editor);
    this.opening = {
      sessions: this.sessions,
      store: this.store,
      logger: this.logger,
      editor: options.editor,
      offered: () => this.sessionOptions(),
      make: (record, principal, offered) => this.makeSession(record, principal, offered),
    };
    options.editor?.attach(new EditorConnection(this.sessions, serving.roots));
  }

  /** A session open now, for the server's own changes to it (setConfig, setCommands). */
  live(sessionId: string): LiveSession {
    return this.sessions.live(sessionId);
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
    const { options, store, logger, sessions } = this;
    const state = new ConnectionState(this.serving, caller.principal ?? options.principal, caller.lines);
    const opening = new SessionOpening(this.opening, state);
    const app = acp.agent({ name: options.agentInfo?.name ?? this.graph.name });
    // Every handler answers what it throws through toRequestError(); errors it does not know are logged.
    const unexpected = (error: unknown) => logger.error("A request failed", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    const handle = <C, R>(handler: (context: C) => R | Promise<R>) => answering(handler, unexpected);
    /** A session open in this connection. */
    const live = (sessionId: string): LiveSession => sessions.liveIn(sessionId, state.link);

    app
      .onRequest(acp.methods.agent.initialize, ({ params }) => {
        const answer = answerInitialize(params, state, { options, name: this.graph.name, store });
        if (options.onInitialized && !this.initialized) {
          this.initialized = true;
          // After the answer is written: the SDK sends it when this handler returns.
          setImmediate(options.onInitialized);
        }
        return answer;
      })
      .onRequest(acp.methods.agent.session.new, handle(async ({ params }) => {
        checkSignedIn(state, options.authRequired);
        return await opening.newSession(params);
      }))
      .onRequest(acp.methods.agent.session.load, handle(({ params }) => opening.load(params)))
      .onRequest(acp.methods.agent.session.resume, handle(({ params }) => opening.resume(params)))
      .onRequest(acp.methods.agent.session.close, handle(async ({ params }) => {
        const session = live(params.sessionId);
        session.clients.detach(state.link);
        // Closed in the last connection it was open in: its turn stops, as over stdio.
        if (session.clients.size === 0) {
          session.cancel();
          sessions.remove(params.sessionId);
          await options.editor?.closeSession?.(params.sessionId);
        }
        return {};
      }))
      .onRequest(acp.methods.agent.session.prompt, handle(async ({ params, signal }) => {
        const { link } = state;
        const session = live(params.sessionId);
        const shown = params.prompt.map((content): acp.SessionUpdate => ({ sessionUpdate: "user_message_chunk", content }));
        const end = await session.prompt(params.prompt.map(toAcpContentBlock), this.serving.shared ? cancelledOnly(signal, link) : signal, { link, shown }, { unattended: isUnattended(params._meta) });
        sessions.forgetIfIdle(params.sessionId);
        if (end.status === "failed") {
          throw end.error;
        }
        return end.waiting ? { stopReason: end.stopReason, _meta: { [WAITING_META]: { questions: end.waiting } } } : { stopReason: end.stopReason };
      }))
      .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
        const session = sessions.get(params.sessionId);
        if (session?.clients.has(state.link)) {
          session.cancel();
        }
      });

    if (options.authMethods?.length) {
      app.onRequest(acp.methods.agent.authenticate, handle(({ params }) => answerAuthenticate(params, options)));
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
      app.onRequest(acp.methods.agent.session.list, handle(({ params }) => listSessions(list, state, params)));
    }
    if (store.delete) {
      const remove = store.delete.bind(store);
      const deleting = { store, sessions, editor: options.editor, graph: this.graph };
      app.onRequest(acp.methods.agent.session.delete, handle(({ params }) => deleteSession(remove, state, deleting, params)));
    }

    const connection = (app.connect as (stream: acp.Stream, options?: unknown) => acp.AgentConnection)(stream, connectOptions);
    const link: ConnectionLink = {
      client: connection.client,
      capabilities: () => state.capabilities,
      booleanOptions: () => state.booleanOptions,
      lines: caller.lines,
      signal: connection.signal,
    };
    state.link = link;
    sessions.connected(link);
    void connection.closed.then(() => sessions.disconnected(link));
    return connection;
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

  /** A session for `record`, open in no connection yet. */
  private makeSession(record: AcpSessionRecord, principal: Principal | undefined, offered: ConfigOptions): LiveSession {
    const clients = new SessionClients(record.info.id, this.serving.shared);
    return new LiveSession(sessionParts(this.services(clients, principal, offered), record), clients);
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
