// Asking the person before a tool runs: `session/request_permission` with the four ACP options.
// Anything but an explicit allow counts as no: an error, an unknown option, a cancelled request.

import { type AgentContext, methods, RequestError, type ToolCallUpdate } from "@agentclientprotocol/sdk";

export type PermissionChoice =
  | { decision: "allow" | "reject"; always: boolean }
  /** The person cancelled the turn (or the request was withdrawn because of it). */
  | { decision: "cancelled" }
  /** The request itself failed; the call is treated as rejected. */
  | { decision: "failed"; error: string };

/**
 * Asks for permission. When `signal` aborts (the turn was cancelled), the SDK withdraws the request
 * with `$/cancel_request` and this resolves at once with `cancelled`; nothing waits on the editor.
 */
export async function requestPermission(
  client: AgentContext,
  sessionId: string,
  toolCall: ToolCallUpdate,
  toolName: string,
  signal: AbortSignal,
): Promise<PermissionChoice> {
  try {
    const response = await client.request(
      methods.client.session.requestPermission,
      {
        sessionId,
        toolCall,
        options: [
          { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
          { optionId: "allow_always", name: `Always allow ${toolName}`, kind: "allow_always" },
          { optionId: "reject_once", name: "Reject", kind: "reject_once" },
          { optionId: "reject_always", name: `Always reject ${toolName}`, kind: "reject_always" },
        ],
      },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
    if (signal.aborted || response.outcome.outcome === "cancelled") {
      return { decision: "cancelled" };
    }
    switch (response.outcome.optionId) {
      case "allow_once":
        return { decision: "allow", always: false };
      case "allow_always":
        return { decision: "allow", always: true };
      case "reject_always":
        return { decision: "reject", always: true };
      default:
        return { decision: "reject", always: false };
    }
  } catch (error) {
    if (signal.aborted || (error instanceof RequestError && error.code === -32800)) {
      return { decision: "cancelled" };
    }
    return { decision: "failed", error: error instanceof Error ? error.message : String(error) };
  }
}
