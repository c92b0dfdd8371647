// What each mode asks approval for and offers, as the approval policy and tool filter decide.

import { describe, expect, it } from "vitest";

import { defineTool } from "../agent/tool.js";
import { modeApprovals, modeOf, toolsForMode } from "./coding-agent-modes.js";

const approval = (mode: string, toolName: string, input: unknown) => modeApprovals({ toolName, input, config: { mode } });

describe("coding agent modes", () => {
  it("leaves ask mode to each tool, and asks nothing in auto mode", () => {
    expect(approval("ask", "write_file", { path: "a.txt" })).toBeUndefined();
    expect(approval("ask", "run_command", { command: "ls" })).toBeUndefined();
    expect(approval("auto", "run_command", { command: "rm -rf build" })).toBe(false);
    expect(approval("auto", "some_mcp_tool", {})).toBe(false);
  });

  it("lets accept-edits write and edit by a path inside the project only", () => {
    expect(approval("accept-edits", "write_file", { path: "src/a.ts" })).toBe(false);
    expect(approval("accept-edits", "edit_file", { path: "./a.ts" })).toBe(false);
    for (const path of ["/etc/passwd", "../outside.txt", "src/../../x", "C:\\\\x", "file:///x", "~/x", "", 3]) {
      expect(approval("accept-edits", "write_file", { path })).toBeUndefined();
    }
    expect(approval("accept-edits", "run_command", { command: "ls" })).toBeUndefined();
    // Protected paths still ask.
    for (const path of [".git/config", "./.git/hooks/pre-commit", ".env", "config/.env.production", ".envrc"]) {
      expect(approval("accept-edits", "edit_file", { path }), path).toBeUndefined();
    }
  });

  it("offers plan mode only the tools that read, plan and ask", () => {
    const tools = ["read_file", "write_file", "edit_file", "list_files", "search_files", "run_command", "mcp_deploy", "update_plan", "ask_user"].map((name) =>
      defineTool({ name, description: name, input: undefined as never, execute: () => name }),
    );
    expect(toolsForMode(tools, { mode: "plan" }).map((tool) => tool.name)).toEqual(["read_file", "list_files", "search_files", "update_plan", "ask_user"]);
    expect(toolsForMode(tools, { mode: "auto" })).toHaveLength(tools.length);
  });

  it("takes an unknown or missing mode for ask", () => {
    expect(modeOf({})).toBe("ask");
    expect(modeOf({ mode: "yolo" })).toBe("ask");
  });
});
