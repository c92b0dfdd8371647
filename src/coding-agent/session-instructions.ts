// The coding agent's instructions for a run: its own, the editor bridge's notes on the session, a
// note on the mode it is in, and the project's AGENTS.md files, read from disk for every model call.

import type { AgentRunContext } from "../agent/create-agent.js";
import type { AcpEditor } from "../acp/editor/acp-editor.js";
import { modeInstructions } from "./coding-agent-modes.js";
import { projectInstructionsSection } from "./project-instructions.js";

/** The instructions function for createAgent(), over `base` (the agent's own instructions). */
export function sessionInstructions(editor: Pick<AcpEditor, "instructions" | "session">, base: string): (context: AgentRunContext) => Promise<string> {
  const fromEditor = editor.instructions(base);
  return async (context) => {
    const cwd = editor.session(context.threadId)?.cwd;
    const project = cwd === undefined ? "" : await projectInstructionsSection(cwd);
    return [fromEditor(context), modeInstructions(context.config), project].filter((part) => part !== "").join("\n\n");
  };
}
