// A tool as the model is told of it: its name, description and the JSON Schema of its input,
// made once per tool and shared by the model call and the approval request.

import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import { z } from "zod";

import type { Tool } from "./tool.js";

/** Each tool's description for the model, computed once per tool. */
const described = new WeakMap<Tool<unknown>, LanguageModelV3FunctionTool>();

export function describeTool(tool: Tool<unknown>): LanguageModelV3FunctionTool {
  let description = described.get(tool);
  if (!description) {
    const schema = tool.input ? z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) : (tool.inputSchema ?? { type: "object" });
    description = { type: "function", name: tool.name, description: tool.description, inputSchema: schema as LanguageModelV3FunctionTool["inputSchema"] };
    described.set(tool, description);
  }
  return description;
}
