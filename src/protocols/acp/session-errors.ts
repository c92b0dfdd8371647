// The local errors of the session layer. They say what happened to a session (not there, changed
// by another process, its store gone, its run failed); wire-errors.ts turns them into JSON-RPC
// errors where a request is answered.

import { WeftError } from "../../errors/weft-error.js";

/** No session has this id (or the id could not name one, such as ""). */
export class SessionNotFoundError extends WeftError {
  constructor(readonly sessionId: string) {
    super("session_not_found", sessionId === "" ? "The session id is empty." : `There is no session ${sessionId}.`);
    this.name = "SessionNotFoundError";
  }
}

/** The session store could not be read or written. `cause` is what the store threw. */
export class SessionStoreUnavailableError extends WeftError {
  constructor(cause: unknown) {
    super("store_unavailable", `The session store is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "SessionStoreUnavailableError";
  }
}

/** Another agent process is running a turn of the session. */
export class SessionBusyError extends WeftError {
  constructor(readonly sessionId: string) {
    super("session_busy", `Session ${sessionId} has a turn running in another agent process; try again when it ends.`);
    this.name = "SessionBusyError";
  }
}

/** A turn's run failed. `cause` is the run's error; `reason` its code, when it has one. */
export class TurnFailedError extends WeftError {
  readonly reason: string | undefined;

  constructor(cause: Error) {
    super("turn_failed", `The agent failed: ${cause.message}`, { cause });
    this.name = "TurnFailedError";
    this.reason = WeftError.isInstance(cause) ? cause.code : undefined;
  }
}

/**
 * Runs a call to the session store. What it throws becomes SessionStoreUnavailableError, except
 * errors that already say what happened (a conflict with another process, a bad session id).
 */
export async function fromStore<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeFailure(error);
  }
}

/** What a failed call to the session store means. */
export function storeFailure(error: unknown): Error {
  if (WeftError.isInstance(error) && (error.code === "session_conflict" || error.code === "session_not_found" || error.code === "store_unavailable")) {
    return error.code === "store_unavailable" && !(error instanceof SessionStoreUnavailableError) ? new SessionStoreUnavailableError(error) : error;
  }
  return new SessionStoreUnavailableError(error);
}
