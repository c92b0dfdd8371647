// Interrupts: a node's question to the outside world. A run pauses with them; `resume` answers
// them by id.

import type { JsonValue } from "../types/json.js";
import type { ToolDisplay } from "../types/tool-display.js";

/** A question a paused run is waiting on. */
export interface Interrupt {
  /** Stable: the same question keeps its id when its node runs again. */
  id: string;
  /** What is asked, as JSON (for example a tool approval request). */
  value: JsonValue;
  /** The node that asked. */
  node: string;
}

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
