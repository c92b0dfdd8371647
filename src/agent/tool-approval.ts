// The interrupt an agent asks when a tool call needs a person's approval, and the answer it
// expects. To the graph runtime it is just an interrupt value; protocol servers recognise it with
// `isToolApproval` and ask in their own way (ACP: a permission request).

import type { JsonObject, JsonValue } from "../types/json.js";
import type { ToolDisplay, ToolLocation } from "../types/tool-display.js";
import { isToolCallInterrupt } from "./tool-call-interrupt.js";

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
  /**
   * What an "always" answer to this call would cover (see `Tool.approvalScope`): absent when the
   * tool does not scope its answers (an "always" covers the whole tool), `false` when it does and
   * this call can have none (a compound command): the person is asked every time.
   */
  scope?: ApprovalScope | false | undefined;
}

/**
 * What an "always" answer to a call covers: calls of the same tool whose scope has the same `key`,
 * or names it in `within`. The key is the tool's to define (a command's prefix, a directory).
 */
export interface ApprovalScope {
  /** What a grant made from this call covers, such as `npm test` or `src/`. Plain text. */
  key: string;
  /** The scope in words for the person, such as "`npm test …`" or "edits in src/". */
  label: string;
  /** Broader keys whose grants cover this call too (`npm test` for `npm test unit`; `src/` for `src/lib/`). */
  within?: string[] | undefined;
}

/**
 * How a person answers a tool approval. `edit` approves the call with an input the person changed:
 * the tool runs with `input` (checked against its schema like the model's), and its result says so.
 * A rejection `by: "policy"` was a rule's, with nobody asked (a script's run): the model is told
 * so, and `reason` says which rule, instead of hearing that the person declined.
 */
export type ToolApprovalAnswer =
  | { decision: "approve" }
  | { decision: "edit"; input: JsonObject }
  | { decision: "reject"; reason?: string | undefined; by?: "person" | "policy" | undefined };

/** True when an interrupt's value is a tool approval request. */
export function isToolApproval(value: unknown): value is ToolApprovalRequest {
  return isToolCallInterrupt(value, "tool-approval");
}
