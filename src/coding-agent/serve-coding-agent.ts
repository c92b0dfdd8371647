// serveCodingAgent(): the coding agent `weft acp` serves: createAgent() with the editor bridge's
// tools, instructions for careful work, sessions and checkpoints in one store, and failures told to
// the person as a message rather than a protocol error.

import type { LanguageModelV3 } from "@ai-sdk/provider";

import { createAgent } from "../agent/create-agent.js";
import { acpEditor } from "../protocols/acp/editor/acp-editor.js";
import { serveAcp, type AcpOptions, type AcpServer } from "../protocols/acp/serve-acp.js";
import { storeAcpSessions } from "../protocols/acp/store-sessions.js";
import type { AcpStreams } from "../protocols/acp/streams.js";
import type { Logger } from "../types/logger.js";
import type { Store } from "../types/store.js";
import { CODING_AGENT_INSTRUCTIONS } from "./coding-agent-instructions.js";
import type { ModelCatalog } from "./model-options.js";

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
}

/** Serves the coding agent on `streams`, with the editor's files, terminals and MCP servers as its tools. */
export function serveCodingAgent(streams: AcpStreams, options: CodingAgentOptions): AcpServer {
  const editor = options.logger ? acpEditor({ logger: options.logger }) : acpEditor();
  const model = options.models?.modelFor ?? options.model;
  if (!model) {
    throw new TypeError("serveCodingAgent needs a model or models.");
  }
  const agent = createAgent({
    name: "weft",
    model,
    providerOptions: options.models?.providerOptionsFor,
    tools: editor.tools,
    instructions: editor.instructions(options.instructions ?? CODING_AGENT_INSTRUCTIONS),
    store: options.store,
    maxSteps: 50,
    modelIdleTimeoutMs: options.modelIdleTimeoutMs,
  });
  return serveAcp(agent, streams, {
    agentInfo: options.agentInfo ?? { name: "weft", title: "weft", version: "0.0.0" },
    editor,
    sessions: storeAcpSessions(options.store),
    failures: "message",
    ...(options.models ? { configOptions: options.models.configOptions, usage: options.models.usage } : {}),
    ...(options.authMethods ? { authMethods: options.authMethods } : {}),
    ...(options.authRequired ? { authRequired: options.authRequired } : {}),
    ...(options.onInitialized ? { onInitialized: options.onInitialized } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
