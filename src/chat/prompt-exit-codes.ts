// The exit codes of a one-shot `weft chat` run (`-p`, or a prompt on stdin): how the turn ended,
// so a script can tell a finished turn from a refusal, a denied permission or a failed agent.

import type * as acp from "@agentclientprotocol/sdk";

export const EXIT_CODES = {
  /** The turn ended normally (stop reason end_turn). */
  done: 0,
  /**
   * The agent could not start, exited, or answered the prompt with an error; or, with `--url`, it
   * could not be reached, refused the credentials, or its connection dropped.
   */
  agentFailed: 1,
  /** Bad usage (the command's flags, or no prompt). */
  usage: 2,
  /** A permission was denied by `--approve` (the turn itself may have ended normally). */
  permissionDenied: 3,
  /** The agent refused (stop reason refusal). */
  refusal: 4,
  /** The model hit its token limit (stop reason max_tokens). */
  maxTokens: 5,
  /** The agent hit its limit of model requests in one turn (stop reason max_turn_requests). */
  maxTurnRequests: 6,
  /** The turn was cancelled (Ctrl-C, SIGTERM, its output closed by the reader; stop reason cancelled). */
  cancelled: 7,
} as const;

/**
 * The exit code of a turn that ended with `stopReason`: a stop reason other than end_turn says it
 * first; a normal end after a denied permission is the denied-permission code, since what was asked
 * for was not (all) done.
 */
export function exitCodeOf(stopReason: acp.StopReason, denied: boolean): number {
  switch (stopReason) {
    case "end_turn":
      return denied ? EXIT_CODES.permissionDenied : EXIT_CODES.done;
    case "refusal":
      return EXIT_CODES.refusal;
    case "max_tokens":
      return EXIT_CODES.maxTokens;
    case "max_turn_requests":
      return EXIT_CODES.maxTurnRequests;
    case "cancelled":
      return EXIT_CODES.cancelled;
    default:
      return EXIT_CODES.agentFailed;
  }
}
