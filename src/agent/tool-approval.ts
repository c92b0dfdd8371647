// The interrupt an agent asks when a tool call needs a person's approval, and the answer it
// expects. To the graph runtime it is just an interrupt value; protocol servers recognise it with
// `isToolApproval` and ask in their own way (ACP: a permission request).

import type { JsonObject, JsonValue } from "../types/json.js";
import type { ToolDisplay, ToolLocation } from "../types/tool-display.js";

/** The interrupt value `createAgent()` uses to ask for a tool call's approval. */
export interface ToolApprovalRequest {
  kind: "tool-approval";
  toolCallId: string;
  toolName: string;
  input: JsonValue;
  /** The tool's own title for this approval (see `Tool.describeApproval`), else its `title`. */
  title?: string | undefined;
  /** What the tool wants shown with the request: the diff it would make, the command it runs. */
  display?: ToolDisplay[] | undefined;
  /** The files the call would touch. */
  locations?: ToolLocation[] | undefined;
  /** The JSON Schema of the tool's input, so a reviewer can offer to edit the input first. */
  inputSchema?: JsonObject | undefined;
}

/**
 * How a person answers a tool approval. `edit` approves the call with an input the person changed:
 * the tool runs with `input` (checked against its schema like the model's), and its result says so.
 */
export type ToolApprovalAnswer =
  | { decision: "approve" }
  | { decision: "edit"; input: JsonObject }
  | { decision: "reject"; reason?: string | undefined };

/** True when an interrupt's value is a tool approval request. */
export function isToolApproval(value: unknown): value is ToolApprovalRequest {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === "tool-approval" &&
    typeof (value as { toolCallId?: unknown }).toolCallId === "string" &&
    typeof (value as { toolName?: unknown }).toolName === "string"
  );
}
