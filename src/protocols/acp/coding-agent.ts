// The coding agent `weft acp` serves: createAgent() with the editor bridge's tools, instructions
// for careful work, sessions and checkpoints in one store, and failures told to the person as a
// message rather than a protocol error.

import type { LanguageModelV3 } from "@ai-sdk/provider";

import { createAgent } from "../../agent/create-agent.js";
import type { Logger } from "../../types/logger.js";
import type { Store } from "../../types/store.js";
import { acpEditor } from "./editor/acp-editor.js";
import { serveAcp, type AcpServer } from "./serve-acp.js";
import { storeAcpSessions } from "./store-sessions.js";
import type { AcpStreams } from "./streams.js";

export const CODING_AGENT_INSTRUCTIONS = `You are weft, a careful coding agent working in the person's project through their editor.

How you work:
- Understand before you change: read the files involved (read_file, list_files, search_files) and follow the project's existing style and conventions.
- Make the smallest change that does the job. Prefer edit_file for changes to existing files; use write_file for new files.
- Check your work: run the project's tests or build with run_command when there are any, and read the output.
- Paths are relative to the project directory. You cannot touch files outside it.
- Writes, edits and commands need the person's approval. If they decline, do not retry; ask what they would prefer.
- Be brief. Say what you did and what is left, without repeating file contents back.`;

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
}

export function serveCodingAgent(streams: AcpStreams, options: CodingAgentOptions): AcpServer {
  const editor = options.logger ? acpEditor({ logger: options.logger }) : acpEditor();
  const agent = createAgent({
    name: "weft",
    model: options.model,
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
    ...(options.onInitialized ? { onInitialized: options.onInitialized } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
