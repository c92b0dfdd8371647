// What an error from a SQLite driver means for a caller of the store: the file is locked by another
// connection (busy), or the store cannot be used (unavailable). Both drivers are read here, as
// they report SQLite's result codes differently.

import { inSeconds } from "../../errors/in-seconds.js";
import { StoreBusyError, StoreUnavailableError } from "../../errors/store-errors.js";
import { errorMessage } from "../../errors/error-message.js";

// SQLite's primary result codes for a lock another connection holds (an extended code keeps them in its low byte).
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/**
 * The store error for `error`, thrown by a driver call. SQLITE_BUSY comes back only once SQLite's
 * busy handler has waited `busyTimeoutMs` for the other connection's lock (the store's writes are
 * single statements, so SQLite never gives up early to break a deadlock): the error says so, so
 * the caller knows the store answered and nothing was written. Anything else is an outage.
 */
export function sqliteFailure(error: unknown, busyTimeoutMs: number): StoreBusyError | StoreUnavailableError {
  if (StoreBusyError.isInstance(error) || StoreUnavailableError.isInstance(error)) {
    return error;
  }
  const code = primaryCode(error);
  const message = errorMessage(error);
  if (code === SQLITE_BUSY) {
    return new StoreBusyError("sqlite", { cause: error, detail: `another connection held the database file's lock for longer than the busy timeout (${inSeconds(busyTimeoutMs)}): ${message}` });
  }
  if (code === SQLITE_LOCKED) {
    return new StoreBusyError("sqlite", { cause: error, detail: `a table it needs is locked by another statement: ${message}` });
  }
  return new StoreUnavailableError("sqlite", { cause: error });
}

/**
 * SQLite's primary result code of a driver error, when it carries one: better-sqlite3 names it
 * in `code` ("SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT"), node:sqlite gives the number in `errcode`.
 */
function primaryCode(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) {
    return undefined;
  }
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (typeof errcode === "number") {
    return errcode & 0xff;
  }
  if (typeof code === "string") {
    if (code === "SQLITE_BUSY" || code.startsWith("SQLITE_BUSY_")) {
      return SQLITE_BUSY;
    }
    if (code === "SQLITE_LOCKED" || code.startsWith("SQLITE_LOCKED_")) {
      return SQLITE_LOCKED;
    }
  }
  return undefined;
}
