// Asking the person before a tool runs: `session/request_permission` with the four ACP options
// (the "always" ones naming what they cover, or left out for a call no grant can cover), and
// "Edit first" when the call's input can be edited in a form. Anything but an explicit allow
// (or edit first) counts as no: an error, an unknown option, a cancelled request. A client's
// policy that answered instead of a person says so (unattended-turns.ts).

import { methods, type PermissionOption, RequestError, type ToolCallUpdate } from "@agentclientprotocol/sdk";

import type { SessionClient } from "../session/session-clients.js";
import { answeringPolicy } from "../wire/unattended-turns.js";
import { errorMessage } from "../../errors/error-message.js";

export type PermissionChoice =
  /** `policy`: the client's policy answered, not a person, in these words (see POLICY_META). */
  | { decision: "allow" | "reject"; always: boolean; policy?: string | undefined }
  /** The person wants to edit the call's input before it runs (only when that was offered). */
  | { decision: "edit" }
  /** The person cancelled the turn (or the request was withdrawn because of it). */
  | { decision: "cancelled" }
  /** The request itself failed; the call is treated as rejected. */
  | { decision: "failed"; error: string };

/** What a permission request may offer beyond the four options. */
export interface PermissionOffer {
  /** Offer "Edit first": the person edits the call's input in a form, then it runs. */
  editFirst?: boolean | undefined;
  /**
   * What "always" would cover, in words ("`npm test …`", "edits in `src/`"), named in the two
   * "always" options; `false` offers neither (a call no grant can cover). By default, the tool.
   */
  always?: string | false | undefined;
}

/**
 * Asks for permission. When `signal` aborts (the turn was cancelled), the SDK withdraws the request
 * with `$/cancel_request` and this resolves at once with `cancelled`; nothing waits on the editor.
 * "Edit first" comes right after "Allow once", as another `allow_once` kind, so an editor that
 * picks the first option of a kind still picks the plain allow.
 */
export async function requestPermission(
  client: SessionClient,
  sessionId: string,
  toolCall: ToolCallUpdate,
  toolName: string,
  signal: AbortSignal,
  offer: PermissionOffer = {},
): Promise<PermissionChoice> {
  const options: PermissionOption[] = [{ optionId: "allow_once", name: "Allow once", kind: "allow_once" }];
  if (offer.editFirst) {
    options.push({ optionId: "edit_first", name: "Edit first", kind: "allow_once" });
  }
  const always = offer.always ?? toolName;
  if (always !== false) {
    options.push({ optionId: "allow_always", name: `Always allow ${always}`, kind: "allow_always" });
  }
  options.push({ optionId: "reject_once", name: "Reject", kind: "reject_once" });
  if (always !== false) {
    options.push({ optionId: "reject_always", name: `Always reject ${always}`, kind: "reject_always" });
  }
  try {
    const response = await client.request(methods.client.session.requestPermission, { sessionId, toolCall, options }, { cancellationSignal: signal, stopWaitingOnCancel: true });
    if (signal.aborted || response.outcome.outcome === "cancelled") {
      return { decision: "cancelled" };
    }
    const policy = answeringPolicy(response._meta);
    const rejected = (always: boolean): PermissionChoice => (policy === undefined ? { decision: "reject", always } : { decision: "reject", always, policy });
    switch (response.outcome.optionId) {
      case "allow_once":
        return { decision: "allow", always: false };
      case "allow_always":
        return always === false ? rejected(false) : { decision: "allow", always: true };
      case "edit_first":
        return offer.editFirst ? { decision: "edit" } : rejected(false);
      case "reject_always":
        return rejected(always !== false);
      default:
        return rejected(false);
    }
  } catch (error) {
    if (signal.aborted || (error instanceof RequestError && error.code === -32800)) {
      return { decision: "cancelled" };
    }
    return { decision: "failed", error: errorMessage(error) };
  }
}
