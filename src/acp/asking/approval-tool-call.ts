// The tool call a permission request carries: what the person is approving, not just the raw
// input. The tool's own title (`Edit src/app.js`), the files it would touch, and what it describes
// of the call (the diff an edit would make, the command and where it runs), all computed before the
// call runs. A request that fails or is withdrawn is never an allow (permissions.ts).

import type { ToolCallUpdate } from "@agentclientprotocol/sdk";

import type { ToolApprovalRequest } from "../../agent/tool-approval.js";
import { toolContent, wireLocations } from "../mapping/tool-calls.js";
import { toolCallUpdate, type UpdateContext } from "../mapping/updates.js";

/** The `toolCall` of the permission request for an approval, in its pending state. */
export function approvalToolCall(view: UpdateContext, request: ToolApprovalRequest): ToolCallUpdate {
  const { sessionUpdate: _announced, ...toolCall } = toolCallUpdate(view, view.ids.of(request.toolCallId), request.toolName, request.input, "pending");
  if (request.title) {
    toolCall.title = request.title;
  }
  if (request.locations?.length) {
    toolCall.locations = wireLocations(request.locations);
  }
  if (request.display?.length) {
    toolCall.content = toolContent(request.display, undefined, view.contentLimit);
  }
  return toolCall;
}
