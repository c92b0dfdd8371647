// serveCodingAgent(): the coding agent `weft acp` serves: createAgent() with the editor bridge's
// tools, instructions for careful work, sessions and checkpoints in one store, and failures told to
// the person as a message rather than a protocol error; its modes, slash commands, plan and
// question tools, the project's AGENTS.md, and titles from the model; and, given a catalog, the
// models and thought levels a person picks per session, with each pick's context window and prices.

import type { LanguageModelV3 } from "@ai-sdk/provider";

import { createAgent } from "../agent/create-agent.js";
import type { RunConfig } from "../graph/run-outcome.js";
import { acpEditor, type AcpEditorOptions } from "../acp/editor/acp-editor.js";
import { serveAcp, type AcpOptions, type AcpServer } from "../acp/serve-acp.js";
import { storeAcpSessions } from "../acp/record/store-sessions.js";
import type { AcpStreams } from "../acp/wire/streams.js";
import type { ProtocolGraph } from "../graph/protocol-graph.js";
import type { Logger } from "../types/logger.js";
import type { Store } from "../types/store.js";
import { CODING_AGENT_INSTRUCTIONS } from "./coding-agent-instructions.js";
import { CODING_AGENT_MODES, modeApprovals } from "./coding-agent-modes.js";
import { codingAgentTools } from "./coding-agent-tools.js";
import { compactCommand } from "./compact-command.js";
import { codingAgentCommands } from "./commands/coding-agent-commands.js";
import type { CommandSettings } from "./commands/command-settings.js";
import type { ModelCatalog } from "./model-options.js";
import { permissionsCommand } from "./permissions-command.js";
import { sessionInstructions } from "./session-instructions.js";
import { modelSessionTitle } from "./session-title-model.js";

/** Options for `serveCodingAgent()`: a model (or models) and the store are required, the rest has defaults. */
export interface CodingAgentOptions {
  /** The one model every session uses; give `models` instead to let the person pick. */
  model?: LanguageModelV3 | undefined;
  /** The models a person picks from per session, with their thought levels and usage figures. */
  models?: ModelCatalog | undefined;
  /** Ways to sign in, for `initialize` (see AcpOptions.authMethods). */
  authMethods?: AcpOptions["authMethods"] | undefined;
  /** Whether a new session must wait for the person to sign in (see AcpOptions.authRequired). */
  authRequired?: AcpOptions["authRequired"] | undefined;
  /** Where sessions and the graph's checkpoints are kept. */
  store: Store;
  logger?: Logger | undefined;
  agentInfo?: { name: string; version: string; title?: string | undefined } | undefined;
  instructions?: string | undefined;
  /** Called once the editor's `initialize` is answered, to warm up the store or the model. */
  onInitialized?: (() => void) | undefined;
  /** Stop a model call that sends nothing for this long; see createAgent's `modelIdleTimeoutMs`. */
  modelIdleTimeoutMs?: number | undefined;
  /**
   * The model's context window in tokens, or a function of the model's id giving it (undefined
   * when not known). It overrides the window `models` knows for a session's pick. With a window,
   * older turns are summarised to keep every call within it, and the editor is sent usage_update.
   * `/compact` summarises on demand either way.
   */
  contextWindow?: number | ((modelId: string) => number | undefined) | undefined;
  /**
   * How the editor bridge works (its logger is `logger`): served remotely, which MCP servers of
   * the client's to connect to (`mcp.allow`) and the sandbox commands run in (`commandSandbox`).
   */
  editor?: Omit<AcpEditorOptions, "logger"> | undefined;
}

/** Serves the coding agent on `streams`, with the editor's files, terminals and MCP servers as its tools. */
export function serveCodingAgent(streams: AcpStreams, options: CodingAgentOptions): AcpServer {
  const made = codingAgent(options);
  const server = serveAcp(made.graph, streams, made.options);
  made.serves(server);
  return server;
}

/** The coding agent's graph and what it is served with; `serves` names the server its commands change sessions through. */
export function codingAgent(options: CodingAgentOptions): { graph: ProtocolGraph; options: AcpOptions; serves(server: Pick<AcpServer, "setConfig">): void } {
  const editor = acpEditor({ ...options.editor, ...(options.logger ? { logger: options.logger } : {}) });
  const catalog = options.models;
  const single = options.model;
  if (!catalog && !single) {
    throw new TypeError("serveCodingAgent needs a model or models.");
  }
  const modelFor = (config: RunConfig): LanguageModelV3 => (catalog ? catalog.modelFor({ config }) : (single as LanguageModelV3));
  const { contextWindow } = options;
  // The window of the model the session picked: the override given (WEFT_CONTEXT_WINDOW), else the
  // one the catalog knows for it (its config file's, else the known-models table's).
  const windowOf = (config: RunConfig): number | undefined => {
    const given = typeof contextWindow === "function" ? contextWindow(modelFor(config).modelId) : contextWindow;
    return given ?? (catalog ? resolveUsage(catalog.usage.contextWindow, config) : undefined);
  };
  const agent = createAgent({
    name: "weft",
    model: catalog ? catalog.modelFor : (single as LanguageModelV3),
    providerOptions: catalog?.providerOptionsFor,
    tools: codingAgentTools(editor),
    instructions: sessionInstructions(editor, options.instructions ?? CODING_AGENT_INSTRUCTIONS),
    approvals: modeApprovals,
    store: options.store,
    maxSteps: 50,
    modelIdleTimeoutMs: options.modelIdleTimeoutMs,
    context: { window: ({ config }) => windowOf(config) },
  });
  const settings: CommandSettings = {
    modes: CODING_AGENT_MODES,
    // The config options serveAcp is given (the catalog's model picker, when there is one), so /model can show and switch it.
    configOptions: catalog ? catalog.configOptions : [],
    // The server is made after; a command runs only once it serves.
    setConfig: (sessionId, values) => {
      if (!server) {
        throw new Error("The coding agent is not served yet.");
      }
      return server.setConfig(sessionId, values);
    },
  };
  // /help, /mode, /model and /init; the agent's other commands join in the list after them.
  const commands = codingAgentCommands(settings, [compactCommand, permissionsCommand()]);
  let server: Pick<AcpServer, "setConfig"> | undefined;
  const served: AcpOptions = {
    agentInfo: options.agentInfo ?? { name: "weft", title: "weft", version: "0.0.0" },
    editor,
    sessions: storeAcpSessions(options.store),
    modes: CODING_AGENT_MODES,
    commands,
    // The title is asked of the model the session picked.
    title: modelSessionTitle({ model: modelFor }),
    failures: "message",
    ...(catalog ? { configOptions: catalog.configOptions } : {}),
    ...(catalog || contextWindow !== undefined ? { usage: { contextWindow: windowOf, ...(catalog?.usage.prices ? { prices: catalog.usage.prices } : {}) } } : {}),
    ...(options.authMethods ? { authMethods: options.authMethods } : {}),
    ...(options.authRequired ? { authRequired: options.authRequired } : {}),
    ...(options.onInitialized ? { onInitialized: options.onInitialized } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  };
  return {
    graph: agent,
    options: served,
    serves: (made) => {
      server = made;
    },
  };
}

/** A usage figure that is a value or a function of the session's config, for that config. */
function resolveUsage<Value>(figure: Value | ((config: RunConfig) => Value | undefined), config: RunConfig): Value | undefined {
  return typeof figure === "function" ? (figure as (config: RunConfig) => Value | undefined)(config) : figure;
}
