// The coding agent's tools for a run: the editor's (files, commands, MCP servers) and its own plan
// and question tools, cut down to what the session's mode allows.

import type { AgentRunContext, ToolList } from "../agent/create-agent.js";
import type { AcpEditor } from "../acp/editor/acp-editor.js";
import { askUserTool } from "./ask-user-tool.js";
import { toolsForMode } from "./coding-agent-modes.js";
import { planTool } from "./plan-tool.js";

/** The tools function for createAgent(): asked before every model call and tool step, so a mode change applies at once. */
export function codingAgentTools(editor: Pick<AcpEditor, "tools">): (context: AgentRunContext) => Promise<ToolList> {
  return async (context) => toolsForMode([...(await editor.tools(context)), planTool, askUserTool], context.config);
}
