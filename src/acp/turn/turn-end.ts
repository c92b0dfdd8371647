// How a turn ends, as a value: with the stop reason `session/prompt` answers, or with the local error
// the prompt is answered with instead. Also ACP's stop reasons, and which one a finished run earns.

import type { StopReason } from "@agentclientprotocol/sdk";

import type { WeftError } from "../../errors/weft-error.js";
import type { RunFinish } from "../../graph/run-outcome.js";

/** Why a prompt's turn ended: ACP's stop reasons, as the SDK defines them. */
export type AcpStopReason = StopReason;

export type TurnEnd =
  /**
   * The turn ended (cancelled ones too); the prompt is answered with this stop reason. `waiting`:
   * it ended asking these questions in words, and the session's next prompt answers them.
   */
  | { status: "ended"; stopReason: AcpStopReason; waiting?: string[] | undefined }
  /**
   * The prompt is answered with this error: the run failed, the store could not be reached, the
   * prompt was refused. The session is left as docs/sessions.md says for each.
   */
  | { status: "failed"; error: WeftError };

export function ended(stopReason: AcpStopReason, waiting?: string[]): TurnEnd {
  return waiting?.length ? { status: "ended", stopReason, waiting } : { status: "ended", stopReason };
}

export function failed(error: WeftError): TurnEnd {
  return { status: "failed", error };
}

/** The stop reason of a run that completed, from why it finished (`RunOutcome.finish`). */
export function stopReasonOf(finish: RunFinish | undefined): AcpStopReason {
  switch (finish) {
    case "max_steps":
      return "max_turn_requests";
    case "max_tokens":
      return "max_tokens";
    case "refusal":
      return "refusal";
    default:
      return "end_turn";
  }
}
