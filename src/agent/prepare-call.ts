// A tool call made ready to run: the tool it names found and its input checked against the
// tool's schema, or the problem the model is told of instead.

import { z } from "zod";

import type { ToolCallPart } from "../types/messages.js";
import type { Tool } from "./tool.js";

export interface PreparedCall {
  call: ToolCallPart;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool of whatever input type the call names
  tool?: Tool<any> | undefined;
  input?: unknown;
  /** Why the call cannot run, when it cannot. */
  problem?: string | undefined;
}

/** Finds the tool a call names and checks its input; a call that cannot run says why in `problem`. */
export function prepareCall(call: ToolCallPart, tools: Map<string, Tool<unknown>>): PreparedCall {
  const tool = tools.get(call.toolName);
  if (!tool) {
    return { call, problem: `There is no tool named "${call.toolName}". Available tools: ${[...tools.keys()].join(", ") || "none"}.` };
  }
  const raw = call.input as { __invalidJson?: unknown } | undefined;
  if (raw && typeof raw === "object" && "__invalidJson" in raw) {
    return { call, tool, problem: `The arguments were not valid JSON: ${String(raw.__invalidJson)}` };
  }
  if (!tool.input) {
    return call.input !== null && typeof call.input === "object" && !Array.isArray(call.input)
      ? { call, tool, input: call.input }
      : { call, tool, problem: `The arguments for ${call.toolName} must be a JSON object.` };
  }
  const parsed = tool.input.safeParse(call.input);
  if (!parsed.success) {
    return { call, tool, problem: `Invalid arguments for ${call.toolName}: ${z.prettifyError(parsed.error)}` };
  }
  return { call, tool, input: parsed.data };
}
