// The interrupt an agent asks when a tool call needs a person's approval, and the answer it
// expects. To the graph runtime it is just an interrupt value; protocol servers recognise it with
// `isToolApproval` and ask in their own way (ACP: a permission request).

import type { JsonValue } from "../types/json.js";
import type { ToolDisplay } from "../types/tool-display.js";

/** The interrupt value `createAgent()` uses to ask for a tool call's approval. */
export interface ToolApprovalRequest {
  kind: "tool-approval";
  toolCallId: string;
  toolName: string;
  input: JsonValue;
  /** The tool's own title for this approval (see `Tool.describeApproval`). */
  title?: string | undefined;
  /** What the tool wants shown with the request. */
  display?: ToolDisplay[] | undefined;
}

/** How a person answers a tool approval. */
export type ToolApprovalAnswer = { decision: "approve" } | { decision: "reject"; reason?: string | undefined };

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
