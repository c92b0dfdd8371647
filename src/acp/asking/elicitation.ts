// Asking the person to fill in a form: `elicitation/create` in form mode, scoped to the session
// (and to a tool call when one asks). Only for an editor that advertised `elicitation.form`. Its
// answer is a value: accepted with checked content, declined, cancelled, withdrawn, or failed.

import { type ElicitationSchema, methods, RequestError } from "@agentclientprotocol/sdk";

import type { FormAnswer } from "../../graph/interrupt.js";
import { formContent } from "./form-schema.js";
import type { SessionClient } from "../session/session-clients.js";
import { errorMessage } from "../../errors/error-message.js";

/** A form to show: what it asks, its fields, and the tool call it belongs to, if any. */
export interface FormRequest {
  message: string;
  schema: ElicitationSchema;
  /** The session's id for the tool call that asks. */
  toolCallId?: string | undefined;
}

/**
 * How a form ended: with the person's answer, as the run gets it (accepted, with `content` that fits
 * the form; declined; cancelled), or with none.
 */
export type FormOutcome =
  | Exclude<FormAnswer, { action: "reply" }>
  /** The turn was cancelled, and the request withdrawn with it. */
  | { action: "withdrawn" }
  /** The request failed, or its answer did not fit the form. */
  | { action: "failed"; error: string };

/**
 * Shows a form. When `signal` aborts (the turn was cancelled), the SDK withdraws the request with
 * `$/cancel_request` and this resolves at once with `withdrawn`; nothing waits on the editor.
 */
export async function requestForm(client: SessionClient, sessionId: string, form: FormRequest, signal: AbortSignal): Promise<FormOutcome> {
  try {
    const scope = form.toolCallId === undefined ? { sessionId } : { sessionId, toolCallId: form.toolCallId };
    const response = await client.request(
      methods.client.elicitation.create,
      { ...scope, mode: "form", message: form.message, requestedSchema: form.schema },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
    if (signal.aborted) {
      return { action: "withdrawn" };
    }
    switch (response.action) {
      case "accept": {
        const checked = formContent(form.schema, (response as { content?: unknown }).content);
        return "content" in checked ? { action: "accept", content: checked.content } : { action: "failed", error: `The form's answer does not fit it: ${checked.problem}.` };
      }
      case "decline":
        return { action: "decline" };
      case "cancel":
        return { action: "cancel" };
      default:
        return { action: "failed", error: `The editor answered the form with an unknown action, ${JSON.stringify(response.action)}.` };
    }
  } catch (error) {
    if (signal.aborted || (error instanceof RequestError && error.code === -32800)) {
      return { action: "withdrawn" };
    }
    return { action: "failed", error: errorMessage(error) };
  }
}
