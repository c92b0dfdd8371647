// The coding agent's modes: how much it may do without asking. `ask` asks before every write and
// command, `accept-edits` changes files in the project without asking, `plan` only reads and
// proposes a plan, `auto` asks nothing. The run sees the mode as `config.mode`; this file turns it
// into the tools offered, the approvals asked and a note for the model.

import type { ApprovalPolicy, ToolList } from "../agent/create-agent.js";
import type { RunConfig } from "../graph/run-outcome.js";
import type { AcpModes } from "../acp/surface/modes.js";
import { protectedPath } from "../acp/editor/protected-paths.js";

/** A coding agent mode's id, as `config.mode` carries it. */
export type CodingAgentMode = "ask" | "accept-edits" | "plan" | "auto";

/** The modes `weft acp` offers, `ask` first and by default. */
export const CODING_AGENT_MODES: AcpModes = {
  default: "ask",
  available: [
    { id: "ask", name: "Ask", description: "Asks before every file change and every command." },
    { id: "accept-edits", name: "Accept edits", description: "Writes and edits files in the project without asking; still asks before every command." },
    { id: "plan", name: "Plan", description: "Reads the project and proposes a plan; never changes a file or runs a command." },
    { id: "auto", name: "Auto", description: "Asks nothing: changes files and runs commands without your approval." },
  ],
};

/** The tools that change files. */
const EDIT_TOOLS: ReadonlySet<string> = new Set(["write_file", "edit_file"]);

/** The tools plan mode offers: those that only read, plus the agent's own plan and questions. */
const PLAN_TOOLS: ReadonlySet<string> = new Set(["read_file", "list_files", "search_files", "update_plan", "ask_user"]);

/** The mode a run is in; an unknown one counts as `ask`, the most careful that still works. */
export function modeOf(config: RunConfig): CodingAgentMode {
  const mode = config.mode;
  return mode === "accept-edits" || mode === "plan" || mode === "auto" ? mode : "ask";
}

/**
 * The tools a mode offers. Plan mode offers only the ones that read (an MCP server's tools are
 * left out too, since what they do is unknown), so a call the model makes by name anyway to a
 * tool that writes or runs is refused without running, as a call to a tool that does not exist.
 */
export function toolsForMode(tools: ToolList, config: RunConfig): ToolList {
  return modeOf(config) === "plan" ? tools.filter((tool) => PLAN_TOOLS.has(tool.name)) : tools;
}

/**
 * Which calls ask for approval in each mode: `ask` leaves it to each tool (writes, edits and
 * commands ask); `accept-edits` lets a write or an edit of a path inside the project through (a
 * relative path that does not climb out; one by absolute path, such as in another directory of the
 * session, still asks, and so does a protected one: `.git/`, `.env*`); `auto` asks for nothing;
 * `plan` offers nothing that would ask.
 */
export const modeApprovals: Extract<ApprovalPolicy, (...args: never[]) => unknown> = ({ toolName, input, config }) => {
  const mode = modeOf(config);
  if (mode === "auto") {
    return false;
  }
  if (mode === "accept-edits" && EDIT_TOOLS.has(toolName) && insideProject(input)) {
    return false;
  }
  return undefined;
};

/** True when a file tool's `path` is relative and stays inside the session's directory. */
function insideProject(input: unknown): boolean {
  const path = (input as { path?: unknown } | undefined)?.path;
  if (typeof path !== "string" || path === "") {
    return false;
  }
  if (path.startsWith("/") || path.startsWith("\\") || /^[a-zA-Z]:/.test(path) || path.startsWith("file:") || path.startsWith("~")) {
    return false;
  }
  return !path.split(/[\\/]/).includes("..") && protectedPath(path) === undefined;
}

/** What the model is told of the mode it is in, added to its instructions. */
export function modeInstructions(config: RunConfig): string {
  switch (modeOf(config)) {
    case "plan":
      return "You are in plan mode: read and search the project, then propose a plan of the changes (keep it in update_plan) and stop. You cannot write or edit files or run commands in this mode; do not try. The person switches to another mode when they want the plan carried out.";
    case "accept-edits":
      return "You are in accept-edits mode: writes and edits of files in the project run without asking the person; commands still need their approval.";
    case "auto":
      return "You are in auto mode: writes, edits and commands run without asking the person, so be especially careful, and never run anything destructive they did not ask for.";
    case "ask":
      return "You are in ask mode: every write, edit and command needs the person's approval.";
  }
}
