// The local errors of the session layer. They say what happened to a session (not there, changed
// by another process, its store gone, its run failed); wire-errors.ts turns them into JSON-RPC
// errors where a request is answered.

import { WeftError, type WeftErrorCode } from "../../errors/weft-error.js";
import { errorMessage } from "../../errors/error-message.js";

/** No session has this id (or the id could not name one, such as ""). */
export class SessionNotFoundError extends WeftError {
  static override readonly errorName = "SessionNotFoundError";

  constructor(readonly sessionId: string) {
    super("session_not_found", sessionId === "" ? "The session id is empty." : `There is no session ${sessionId}.`);
  }
}

/** The session store could not be read or written. `cause` is what the store threw. */
export class SessionStoreUnavailableError extends WeftError {
  static override readonly errorName = "SessionStoreUnavailableError";

  constructor(cause: unknown) {
    super("store_unavailable", `The session store is unavailable: ${errorMessage(cause)}`, { cause });
  }
}

/** Another process changed the session since this one read it (its claim on the session ran out). */
export class SessionConflictError extends WeftError {
  static override readonly errorName = "SessionConflictError";

  constructor(readonly sessionId: string) {
    super("session_conflict", `Session ${sessionId} was changed by another agent process; reload it and try again.`);
  }
}

/** Another agent process is running a turn of the session. */
export class SessionBusyError extends WeftError {
  static override readonly errorName = "SessionBusyError";

  constructor(readonly sessionId: string) {
    super("session_busy", `Session ${sessionId} has a turn running in another agent process; try again when it ends.`);
  }
}

/** A turn's run failed. `cause` is the run's error; `reason` its code, when it has one. */
export class TurnFailedError extends WeftError {
  static override readonly errorName = "TurnFailedError";

  readonly reason: WeftErrorCode | undefined;

  constructor(cause: Error) {
    super("turn_failed", `The agent failed: ${cause.message}`, { cause });
    this.reason = WeftError.isInstance(cause) ? cause.code : undefined;
  }
}

/**
 * Runs a call to the session store. What it throws becomes SessionStoreUnavailableError, except
 * errors that already say what happened (a conflict with another process, a session that is not
 * there, a store that is busy, a namespace or key the store refuses).
 */
export async function fromStore<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeFailure(error);
  }
}

/** Codes of store errors that say what happened better than "unavailable" would. */
const SAID: ReadonlySet<WeftErrorCode> = new Set(["session_conflict", "session_not_found", "store_busy", "invalid_namespace"]);

/** What a failed call to the session store means. */
export function storeFailure(error: unknown): WeftError {
  if (WeftError.isInstance(error) && SAID.has(error.code)) {
    return error;
  }
  if (SessionStoreUnavailableError.isInstance(error)) {
    return error;
  }
  return new SessionStoreUnavailableError(error);
}

/**
 * Whether a failed write of a session did not commit for want of the store (it could not be
 * reached, or another connection held its lock), so the store still has the record before it.
 */
export function notWritten(failure: WeftError): boolean {
  return failure.code === "store_unavailable" || failure.code === "store_busy";
}
