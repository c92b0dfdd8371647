// `/compact`: the coding agent's command to summarise the conversation now, rather than when it
// next would not fit the model's context window.

import type { AgentInput } from "../agent/create-agent.js";
import type { AcpCommand } from "../acp/surface/slash-commands.js";

/**
 * Runs the agent with the conversation and `compact: true`: the model summarises it, the editor
 * is shown the compaction (when it shows them), and the turn ends without a reply. The model is
 * sent the summary from the next prompt on; the conversation itself, and its replay, stay whole.
 */
export const compactCommand: AcpCommand = {
  name: "compact",
  description: "Summarise the conversation so far, to free the model's context window",
  run: ({ history }) => {
    const input: AgentInput = { messages: [...history], compact: true };
    return { input };
  },
};
