// The one place where local errors become JSON-RPC errors: every request handler of serveAcp()
// answers through toRequestError(), so a missing session is "not found", a conflict a conflict and
// an outage an outage on every method, with `data.code` for programs to tell them apart.

import { RequestError } from "@agentclientprotocol/sdk";

import { WeftError } from "../../errors/weft-error.js";
import { DirectoryNotAllowedError, InvalidConfigValueError, InvalidCursorError, InvalidCwdError, InvalidDirectoryError, PromptTooLargeError, TurnInProgressError } from "../errors/request-errors.js";
import { SessionBusyError, SessionConflictError, SessionNotFoundError, TurnFailedError } from "../errors/session-errors.js";
import { CommandFailedError } from "../surface/slash-commands.js";
import { errorMessage } from "../../errors/error-message.js";

/**
 * The JSON-RPC error for what a handler threw. RequestErrors pass as they are; weft errors keep
 * their message and carry their code as `data.code`, except requests refused as sent (invalid
 * params, an invalid request), which carry what was wrong; anything else is an internal error (its
 * message, never its stack), and `unexpected` hears about it so it can be logged.
 */
export function toRequestError(error: unknown, unexpected?: (error: unknown) => void): RequestError {
  if (error instanceof RequestError) {
    return error;
  }
  if (!WeftError.isInstance(error)) {
    unexpected?.(error);
    return RequestError.internalError(undefined, errorMessage(error));
  }
  if (SessionNotFoundError.isInstance(error)) {
    return RequestError.sessionNotFound(error.sessionId);
  }
  if (SessionConflictError.isInstance(error) || SessionBusyError.isInstance(error)) {
    return new RequestError(-32603, error.message, { code: error.code, sessionId: error.sessionId });
  }
  if (TurnFailedError.isInstance(error)) {
    // The run's own code (model_call_failed, store_unavailable, ...) says more than "turn_failed".
    return new RequestError(-32603, error.message, { code: error.reason ?? error.code });
  }
  if (CommandFailedError.isInstance(error)) {
    return new RequestError(-32603, error.message, { code: error.code, command: error.command });
  }
  if (InvalidCwdError.isInstance(error)) {
    return RequestError.invalidParams({ cwd: error.cwd }, error.message);
  }
  if (InvalidDirectoryError.isInstance(error)) {
    return RequestError.invalidParams({ additionalDirectories: error.directory }, error.message);
  }
  if (DirectoryNotAllowedError.isInstance(error)) {
    return RequestError.invalidParams({ code: error.code, directory: error.directory, allowed: [...error.allowed] }, error.message);
  }
  if (InvalidCursorError.isInstance(error)) {
    return RequestError.invalidParams({ cursor: error.cursor }, error.message);
  }
  if (PromptTooLargeError.isInstance(error)) {
    return RequestError.invalidParams({ size: error.size, limit: error.limit }, error.message);
  }
  if (InvalidConfigValueError.isInstance(error)) {
    return RequestError.invalidParams({ configId: error.configId, value: error.value }, error.message);
  }
  if (TurnInProgressError.isInstance(error)) {
    return RequestError.invalidRequest({ sessionId: error.sessionId }, error.message);
  }
  if (error.code === "store_unavailable") {
    return new RequestError(-32603, error.message.startsWith("The session store") ? error.message : `The session store is unavailable: ${error.message}`, { code: error.code });
  }
  return new RequestError(-32603, error.message, { code: error.code });
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
