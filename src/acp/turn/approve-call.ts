// A tool approval the run asked for, answered: by a standing grant (the project's ledger, or an
// "always" answer the session kept from before the ledger) or by the person, through
// session/request_permission; "Edit first" lets them change the call's input in a form before it runs.

import type { ElicitationSchema, ToolCallUpdate } from "@agentclientprotocol/sdk";

import type { ToolApprovalAnswer, ToolApprovalRequest } from "../../agent/tool-approval.js";
import type { JsonObject } from "../../types/json.js";
import type { Logger } from "../../types/logger.js";
import { approvalToolCall } from "../asking/approval-tool-call.js";
import { editedInput, editFirstForm } from "../asking/edit-first.js";
import type { FormOutcome, FormRequest } from "../asking/elicitation.js";
import type { PermissionLedger } from "../asking/permission-ledger.js";
import type { PermissionChoice, PermissionOffer } from "../asking/permissions.js";
import { WHOLE_TOOL } from "../record/permission-grants.js";
import type { StoredSession } from "../session/stored-session.js";
import { type AnnounceInputs, announceUnseen } from "./announce-unseen.js";
import type { LiveToolCalls } from "./live-tool-calls.js";

/** What answering an approval works with. */
export interface ApproveInputs extends AnnounceInputs {
  /** The "always" answers this session kept from before the ledger. */
  session: Pick<StoredSession, "id" | "remembered">;
  /** The project's permission grants: the "always" answers that answer a call without asking. */
  ledger: Pick<PermissionLedger, "lookup" | "grant">;
  /** Asks the person about a tool call (session/request_permission). */
  askPermission: (toolCall: ToolCallUpdate, toolName: string, signal: AbortSignal, offer?: PermissionOffer) => Promise<PermissionChoice>;
  /** Whether the editor shows forms (it advertised `elicitation.form`): "Edit first" needs one. */
  showsForms: () => boolean;
  /** Asks the person to fill in a form (elicitation/create); only when `showsForms()`. */
  askForm: (form: FormRequest, signal: AbortSignal) => Promise<FormOutcome>;
  logger: Logger;
}

/** The turn an approval is asked in. */
export interface Approving {
  /** How the turn's tool calls were last shown. */
  live: LiveToolCalls;
  /** Aborts when the turn is cancelled. */
  signal: AbortSignal;
  /** Nobody is at the client: no grant answers, the client's policy does (see TurnOptions.unattended). */
  unattended: boolean;
}

/**
 * The answer to an approval: a grant's (the project's ledger, or an answer this session kept
 * from before the ledger), or the person's; `cancelled` when the turn was. A ledger that cannot
 * be read answers nothing: the person is asked. An "always" answer becomes a grant for the
 * call's scope; a call that can have none is not offered one. An unattended turn consults no
 * grant: the client's policy answers every call.
 */
export async function approveCall(request: ToolApprovalRequest, inputs: ApproveInputs, turn: Approving): Promise<ToolApprovalAnswer | "cancelled"> {
  const { session, view, logger, ledger } = inputs;
  if (!turn.unattended) {
    const remembered = session.remembered(request.toolName);
    if (remembered === false) {
      return { decision: "reject", reason: `The person chose to always reject ${request.toolName}.` };
    }
    if (remembered === true && request.scope === undefined) {
      return { decision: "approve" };
    }
    const known = await ledger.lookup(request);
    if (known.found === "grant") {
      const what = known.grant.scope === WHOLE_TOOL ? request.toolName : `${request.toolName} for ${known.grant.label}`;
      return known.grant.allow ? { decision: "approve" } : { decision: "reject", reason: `The person chose to always reject ${what}.` };
    }
  }
  await announceUnseen(inputs, turn.live, request.toolCallId, request.toolName, request.input);
  // What the person approves: the tool's title, files and description of the call (its diff).
  const toolCall = approvalToolCall(view, request);
  turn.live.noteToolCall(toolCall);
  const editForm = inputs.showsForms() ? editFirstForm(request) : undefined;
  const offer: PermissionOffer = { editFirst: editForm !== undefined };
  if (request.scope !== undefined) {
    // What "always" covers: the call's scope, or nothing for a call that can have none (without a scope, the tool).
    offer.always = request.scope === false ? false : request.scope.label;
  }
  const choice = await inputs.askPermission(toolCall, request.toolName, turn.signal, offer);
  switch (choice.decision) {
    case "cancelled":
      return "cancelled";
    case "failed":
      logger.warn("The permission request failed; the tool call is rejected", { sessionId: session.id, error: choice.error });
      return { decision: "reject", reason: "The permission request failed." };
    case "edit":
      return editForm ? editFirst(request, toolCall, editForm, inputs, turn.signal) : { decision: "reject" };
    case "allow":
    case "reject":
      if (choice.always && request.scope !== false) {
        await ledger.grant(request, choice.decision === "allow");
      }
      if (choice.decision === "allow") {
        return { decision: "approve" };
      }
      return choice.policy === undefined ? { decision: "reject" } : { decision: "reject", by: "policy", reason: choice.policy };
  }
}

/**
 * "Edit first": the call's input in a form, filled in; what the person accepts is the input the
 * call runs with. Anything else (declined, dismissed, failed) rejects the call: only an explicit
 * choice lets it run.
 */
async function editFirst(request: ToolApprovalRequest, toolCall: ToolCallUpdate, form: ElicitationSchema, inputs: ApproveInputs, signal: AbortSignal): Promise<ToolApprovalAnswer | "cancelled"> {
  const message = `Edit the input of ${toolCall.title ?? request.toolName} before it runs.`;
  const outcome = await inputs.askForm({ message, schema: form, toolCallId: toolCall.toolCallId }, signal);
  switch (outcome.action) {
    case "withdrawn":
      return "cancelled";
    case "accept":
      return { decision: "edit", input: editedInput(request.input as JsonObject, form, outcome.content) };
    case "failed":
      inputs.logger.warn("The form to edit a tool call's input failed; the tool call is rejected", { sessionId: inputs.session.id, error: outcome.error });
      return { decision: "reject", reason: "The form to edit the input failed." };
    case "decline":
    case "cancel":
      return { decision: "reject", reason: "The person chose to edit the input first, then closed the form without running it." };
  }
}
