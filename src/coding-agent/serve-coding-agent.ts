// serveCodingAgent(): the coding agent `weft acp` serves: createAgent() with the editor bridge's
// tools, instructions for careful work, sessions and checkpoints in one store, and failures told to
// the person as a message rather than a protocol error; its modes, slash commands, plan and
// question tools, the project's AGENTS.md, and titles from the model.

import type { LanguageModelV3 } from "@ai-sdk/provider";

import { createAgent } from "../agent/create-agent.js";
import { acpEditor } from "../protocols/acp/editor/acp-editor.js";
import { serveAcp, type AcpServer } from "../protocols/acp/serve-acp.js";
import { storeAcpSessions } from "../protocols/acp/store-sessions.js";
import type { AcpStreams } from "../protocols/acp/streams.js";
import type { Logger } from "../types/logger.js";
import type { Store } from "../types/store.js";
import { CODING_AGENT_INSTRUCTIONS } from "./coding-agent-instructions.js";
import { CODING_AGENT_MODES, modeApprovals } from "./coding-agent-modes.js";
import { codingAgentTools } from "./coding-agent-tools.js";
import { compactCommand } from "./compact-command.js";
import { codingAgentCommands } from "./commands/coding-agent-commands.js";
import type { CommandSettings } from "./commands/command-settings.js";
import { permissionsCommand } from "./permissions-command.js";
import { sessionInstructions } from "./session-instructions.js";
import { modelSessionTitle } from "./session-title-model.js";

/** Options for `serveCodingAgent()`: the model and store are required, the rest has defaults. */
export interface CodingAgentOptions {
  model: LanguageModelV3;
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
   * when not known). With a window, older turns are summarised to keep every call within it, and
   * the editor is sent usage_update. `/compact` summarises on demand either way.
   */
  contextWindow?: number | ((modelId: string) => number | undefined) | undefined;
}

/** Serves the coding agent on `streams`, with the editor's files, terminals and MCP servers as its tools. */
export function serveCodingAgent(streams: AcpStreams, options: CodingAgentOptions): AcpServer {
  const editor = options.logger ? acpEditor({ logger: options.logger }) : acpEditor();
  const { contextWindow } = options;
  const windowOf = () => (typeof contextWindow === "function" ? contextWindow(options.model.modelId) : contextWindow);
  const agent = createAgent({
    name: "weft",
    model: options.model,
    tools: codingAgentTools(editor),
    instructions: sessionInstructions(editor, options.instructions ?? CODING_AGENT_INSTRUCTIONS),
    approvals: modeApprovals,
    store: options.store,
    maxSteps: 50,
    modelIdleTimeoutMs: options.modelIdleTimeoutMs,
    context: { window: windowOf },
  });
  const settings: CommandSettings = {
    modes: CODING_AGENT_MODES,
    // The config options serveAcp is given (a model picker, when there is one), so /model can show and switch it.
    configOptions: [],
    // The server is made below; a command runs only once it serves.
    setConfig: (sessionId, values) => server.setConfig(sessionId, values),
  };
  // /help, /mode, /model and /init; the agent's other commands join in the list after them.
  const commands = codingAgentCommands(settings, [compactCommand, permissionsCommand()]);
  const server = serveAcp(agent, streams, {
    agentInfo: options.agentInfo ?? { name: "weft", title: "weft", version: "0.0.0" },
    editor,
    sessions: storeAcpSessions(options.store),
    modes: CODING_AGENT_MODES,
    commands,
    title: modelSessionTitle({ model: options.model }),
    failures: "message",
    ...(contextWindow !== undefined ? { usage: { contextWindow: windowOf } } : {}),
    ...(options.onInitialized ? { onInitialized: options.onInitialized } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return server;
}
