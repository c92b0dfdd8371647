// The exit codes of a one-shot `weft chat` run (`-p`, or a prompt on stdin): how the turn ended,
// so a script can tell a finished turn from a refusal, a denied permission, a failed agent or a
// question waiting for its answer.

import type * as acp from "@agentclientprotocol/sdk";

export const EXIT_CODES = {
  /** The turn ended normally (stop reason end_turn). */
  done: 0,
  /**
   * The agent could not start, exited, or answered the prompt with an error (a failed model call,
   * a graph that threw, an unknown `--resume` session); or, with `--url`, it could not be reached,
   * refused the credentials, or its connection dropped.
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
  /**
   * The turn ended asking a question (ask_user, a graph's interrupt) that no policy answers: the
   * agent waits, and the session's next prompt is the answer. weft's own agent says so (WAITING_META).
   */
  waiting: 8,
} as const;

/**
 * The exit code of a turn that ended with `stopReason`: a stop reason other than end_turn says it
 * first; then a question left waiting for its answer, since the work is not over; then a denied
 * permission, since what was asked for was not (all) done.
 */
export function exitCodeOf(stopReason: acp.StopReason, turn: { denied: boolean; waiting: boolean }): number {
  switch (stopReason) {
    case "end_turn":
      return turn.waiting ? EXIT_CODES.waiting : turn.denied ? EXIT_CODES.permissionDenied : EXIT_CODES.done;
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
