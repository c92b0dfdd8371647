// toRequestError(), the one place where local errors become JSON-RPC errors: each error is answered
// as what it is, with its own code and data, whichever copy of the package made it.

import { RequestError } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { InvalidNamespaceError, StoreBusyError, StoreUnavailableError } from "../../errors/store-errors.js";
import { WeftError } from "../../errors/weft-error.js";
import { InvalidConfigValueError, InvalidCursorError, InvalidCwdError, InvalidDirectoryError, PromptTooLargeError, TurnInProgressError } from "../errors/request-errors.js";
import type * as sessionErrors from "../errors/session-errors.js";
import { SessionBusyError, SessionConflictError, SessionNotFoundError, SessionStoreUnavailableError, storeFailure, TurnFailedError } from "../errors/session-errors.js";
import { CommandFailedError } from "../surface/slash-commands.js";
import { answering, toRequestError } from "./wire-errors.js";

const wire = (error: unknown, unexpected?: (error: unknown) => void) => {
  const answer = toRequestError(error, unexpected);
  return { code: answer.code, message: answer.message, data: answer.data };
};

describe("toRequestError", () => {
  it("answers a missing session as not found, with its id", () => {
    expect(wire(new SessionNotFoundError("sess_1"))).toEqual({ code: -32002, message: "Resource not found", data: { sessionId: "sess_1" } });
    expect(wire(new SessionNotFoundError(""))).toEqual({ code: -32002, message: "Resource not found", data: { sessionId: "" } });
  });

  it("answers a conflict as a conflict and a busy session as busy, not as an outage", () => {
    expect(wire(new SessionConflictError("sess_1"))).toEqual({
      code: -32603,
      message: "Session sess_1 was changed by another agent process; reload it and try again.",
      data: { code: "session_conflict", sessionId: "sess_1" },
    });
    expect(wire(new SessionBusyError("sess_2"))).toEqual({
      code: -32603,
      message: "Session sess_2 has a turn running in another agent process; try again when it ends.",
      data: { code: "session_busy", sessionId: "sess_2" },
    });
  });

  it("answers an outage of the session store, or of the store under it, as the session store being unavailable", () => {
    expect(wire(new SessionStoreUnavailableError(new Error("connection refused")))).toEqual({
      code: -32603,
      message: "The session store is unavailable: connection refused",
      data: { code: "store_unavailable" },
    });
    expect(wire(new StoreUnavailableError("redis", { cause: new Error("ECONNRESET") }))).toEqual({
      code: -32603,
      message: "The session store is unavailable: The redis store is unavailable: ECONNRESET",
      data: { code: "store_unavailable" },
    });
  });

  it("answers a busy store as busy and a key the store refuses as refused, not as an outage, from whichever layer they come", () => {
    const busy = new StoreBusyError("sqlite", { cause: new Error("database is locked"), detail: "another connection held the database file's lock for longer than the busy timeout (10 s): database is locked" });
    const answer = {
      code: -32603,
      message: "The sqlite store is busy: another connection held the database file's lock for longer than the busy timeout (10 s): database is locked",
      data: { code: "store_busy" },
    };
    expect(wire(busy)).toEqual(answer);
    expect(wire(storeFailure(busy))).toEqual(answer);
    const refused = storeFailure(new InvalidNamespaceError(["weft", "acp", "sessions", "a\u0000b"], "labels cannot contain NUL"));
    expect(wire(refused)).toMatchObject({ code: -32603, data: { code: "invalid_namespace" } });
    expect(wire(refused).message).not.toContain("unavailable");
  });

  it("answers a failed turn with the run's own code when it has one", () => {
    const withCode = new TurnFailedError(new WeftError("model_call_failed", "the model is out of reach"));
    expect(wire(withCode)).toEqual({ code: -32603, message: "The agent failed: the model is out of reach", data: { code: "model_call_failed" } });
    expect(wire(new TurnFailedError(new Error("boom")))).toEqual({ code: -32603, message: "The agent failed: boom", data: { code: "turn_failed" } });
  });

  it("answers a failed slash command with its name", () => {
    expect(wire(new CommandFailedError("review", "no diff to review"))).toEqual({
      code: -32603,
      message: "The command /review failed: no diff to review",
      data: { code: "command_failed", command: "review" },
    });
  });

  it("answers requests refused as sent with invalid params or an invalid request, and what was wrong", () => {
    expect(wire(new InvalidCwdError("relative/dir"))).toEqual({ code: -32602, message: 'Invalid params: cwd must be an absolute path, not "relative/dir".', data: { cwd: "relative/dir" } });
    expect(wire(new InvalidDirectoryError("lib"))).toEqual({
      code: -32602,
      message: 'Invalid params: additionalDirectories must be absolute paths, not "lib".',
      data: { additionalDirectories: "lib" },
    });
    expect(wire(new InvalidCursorError("x"))).toEqual({ code: -32602, message: "Invalid params: Unknown cursor.", data: { cursor: "x" } });
    expect(wire(new PromptTooLargeError(3 * 1024 * 1024, 1024 * 1024))).toEqual({
      code: -32602,
      message: "Invalid params: The prompt is 3.0 MB; this agent accepts prompts up to 1.0 MB.",
      data: { size: 3 * 1024 * 1024, limit: 1024 * 1024 },
    });
    expect(wire(new TurnInProgressError("sess_3"))).toEqual({ code: -32600, message: "Invalid request: Session sess_3 has a turn in progress; cancel it first.", data: { sessionId: "sess_3" } });
    expect(wire(new InvalidConfigValueError("model", "huge", 'Config option "model" has no value "huge".'))).toEqual({
      code: -32602,
      message: 'Invalid params: Config option "model" has no value "huge".',
      data: { configId: "model", value: "huge" },
    });
  });

  it("answers any other weft error with its message and code", () => {
    expect(wire(new WeftError("path_outside", "Refused: outside"))).toEqual({ code: -32603, message: "Refused: outside", data: { code: "path_outside" } });
  });

  it("passes a RequestError through, and answers anything else as an internal error that it reports", () => {
    const given = RequestError.invalidParams({ field: "x" });
    expect(toRequestError(given)).toBe(given);
    const heard: unknown[] = [];
    const bug = new TypeError("undefined is not a function");
    expect(wire(bug, (error) => heard.push(error))).toEqual({ code: -32603, message: "Internal error: undefined is not a function", data: undefined });
    expect(wire("a string", (error) => heard.push(error))).toMatchObject({ code: -32603, message: "Internal error: a string" });
    expect(heard).toEqual([bug, "a string"]);
  });

  it("recognises the errors of another copy of the package", async () => {
    const specifier = "../errors/session-errors.js?second-copy";
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof sessionErrors;
    expect(copy.SessionConflictError).not.toBe(SessionConflictError);
    expect(wire(new copy.SessionNotFoundError("sess_4"))).toEqual({ code: -32002, message: "Resource not found", data: { sessionId: "sess_4" } });
    expect(wire(new copy.SessionConflictError("sess_5"))).toMatchObject({ data: { code: "session_conflict", sessionId: "sess_5" } });
  });
});

describe("answering", () => {
  it("answers what a handler throws through toRequestError, and what it returns as it is", async () => {
    const handler = answering(async (name: string) => {
      if (name === "missing") {
        throw new SessionNotFoundError(name);
      }
      return name.length;
    });
    await expect(handler("four")).resolves.toBe(4);
    await expect(handler("missing")).rejects.toMatchObject({ code: -32002, data: { sessionId: "missing" } });
  });
});
