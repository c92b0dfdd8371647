// The one place where local errors become JSON-RPC errors: every request handler of serveAcp()
// answers through toRequestError(), so a missing session is "not found", a conflict a conflict and
// an outage an outage on every method, with `data.code` for programs to tell them apart.

import { RequestError } from "@agentclientprotocol/sdk";

import { WeftError } from "../../errors/weft-error.js";

/**
 * The JSON-RPC error for what a handler threw. RequestErrors pass as they are; weft errors keep
 * their message and carry their code as `data.code`; anything else is an internal error (its
 * message, never its stack), and `unexpected` hears about it so it can be logged.
 */
export function toRequestError(error: unknown, unexpected?: (error: unknown) => void): RequestError {
  if (error instanceof RequestError) {
    return error;
  }
  if (WeftError.isInstance(error)) {
    const fields = error as WeftError & { sessionId?: unknown; reason?: unknown };
    switch (error.code) {
      case "session_not_found":
        return typeof fields.sessionId === "string" ? RequestError.sessionNotFound(fields.sessionId) : RequestError.resourceNotFound();
      case "session_conflict":
      case "session_busy":
        return new RequestError(-32603, error.message, typeof fields.sessionId === "string" ? { code: error.code, sessionId: fields.sessionId } : { code: error.code });
      case "store_unavailable":
        return new RequestError(-32603, error.message.startsWith("The session store") ? error.message : `The session store is unavailable: ${error.message}`, { code: error.code });
      case "turn_failed":
        // The run's own code (model_call_failed, store_unavailable, ...) says more than "turn_failed".
        return new RequestError(-32603, error.message, { code: typeof fields.reason === "string" ? fields.reason : error.code });
      default:
        return new RequestError(-32603, error.message, { code: error.code });
    }
  }
  unexpected?.(error);
  return RequestError.internalError(undefined, error instanceof Error ? error.message : String(error));
}

/** A request handler that answers what it throws through toRequestError(). */
export function answering<C, R>(handler: (context: C) => R | Promise<R>, unexpected?: (error: unknown) => void): (context: C) => Promise<R> {
  return async (context) => {
    try {
      return await handler(context);
    } catch (error) {
      throw toRequestError(error, unexpected);
    }
  };
}
