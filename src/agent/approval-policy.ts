// The approval policy: which tool calls wait for a person's approval before they run (the agent's
// `approvals` option, else each tool's own `needsApproval`), and the interrupt id that approval
// is asked and answered under.

import type { RunConfig } from "../graph/run-outcome.js";
import type { Tool } from "./tool.js";

/**
 * Which tool calls need a person's approval: every call (`true`), the named tools, a map by tool
 * name, or a function of the call. Tools not covered (and calls the function answers undefined
 * for) fall back to their own `needsApproval`.
 */
export type ApprovalPolicy =
  | boolean
  | readonly string[]
  | Readonly<Record<string, boolean>>
  | ((call: { toolName: string; input: unknown; config: RunConfig }) => boolean | undefined);

/** The interrupt id of a tool call's approval. */
export function approvalId(toolCallId: string): string {
  return `approve:${toolCallId}`;
}

/**
 * True when the call must be approved first: the policy decides where it covers the tool (a
 * function answering undefined covers nothing), the tool's `needsApproval` elsewhere.
 */
export function needsApproval(call: { toolName: string; input: unknown; tool: Tool<unknown> | undefined }, policy: ApprovalPolicy | undefined, config: RunConfig): boolean {
  const { toolName, input, tool } = call;
  if (typeof policy === "boolean") {
    return policy;
  }
  if (typeof policy === "function") {
    return policy({ toolName, input, config }) ?? Boolean(tool?.needsApproval);
  }
  if (Array.isArray(policy)) {
    return policy.includes(toolName) || Boolean(tool?.needsApproval);
  }
  if (policy && typeof policy === "object") {
    const byName = (policy as Record<string, boolean>)[toolName];
    if (byName !== undefined) {
      return byName;
    }
  }
  return Boolean(tool?.needsApproval);
}
