// What a person reviews before a tool call runs: the tool's own description of the call, else its
// usual title and locations; the scope an "always" answer would cover; the input's schema.

import { toJson } from "../store-core/to-json.js";
import type { NodeContext } from "../graph/node-context.js";
import type { JsonObject } from "../types/json.js";
import { describeTool } from "./describe-tool.js";
import type { PreparedCall } from "./prepare-call.js";
import type { ApprovalScope, ToolApprovalRequest } from "./tool-approval.js";

/**
 * What the person reviews for a call's approval: the tool's own description (see
 * Tool.describeApproval), else its usual title and locations; and the input's schema, so the
 * reviewer can offer to edit the input first.
 */
export async function describeApproval(entry: PreparedCall, context: NodeContext): Promise<Pick<ToolApprovalRequest, "title" | "display" | "locations" | "inputSchema" | "scope">> {
  const tool = entry.tool;
  const described = await Promise.resolve()
    .then(() => tool?.describeApproval?.(entry.input, { toolCallId: entry.call.toolCallId, threadId: context.threadId, signal: context.signal }))
    .catch(() => undefined);
  const fields: Pick<ToolApprovalRequest, "title" | "display" | "locations" | "inputSchema" | "scope"> = {};
  const title = described?.title || quietly(() => tool?.title?.(entry.input));
  if (title) {
    fields.title = title;
  }
  if (described?.display?.length) {
    fields.display = described.display;
  }
  const locations = described?.locations?.length ? described.locations : quietly(() => tool?.locations?.(entry.input));
  if (locations?.length) {
    fields.locations = locations;
  }
  if (tool?.approvalScope) {
    // A scope that cannot be made (it throws, or is not one) allows no "always" answer.
    const scope = await Promise.resolve()
      .then(() => tool.approvalScope?.(entry.input, { toolCallId: entry.call.toolCallId, threadId: context.threadId, signal: context.signal }))
      .catch(() => undefined);
    fields.scope = isScope(scope) ? scope : false;
  }
  const schema = tool && describeTool(tool).inputSchema;
  if (schema && typeof schema === "object") {
    fields.inputSchema = toJson(schema) as JsonObject;
  }
  return fields;
}

/** True for a scope with a key and a label, and broader keys only as a list of strings. */
function isScope(value: unknown): value is ApprovalScope {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const scope = value as Partial<ApprovalScope>;
  return (
    typeof scope.key === "string" &&
    scope.key !== "" &&
    typeof scope.label === "string" &&
    (scope.within === undefined || (Array.isArray(scope.within) && scope.within.every((key) => typeof key === "string" && key !== "")))
  );
}

/** What `describe` gives, or undefined when it throws: a description is never worth failing a call. */
function quietly<T>(describe: () => T): T | undefined {
  try {
    return describe();
  } catch {
    return undefined;
  }
}
