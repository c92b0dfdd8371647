// Reading a session's record from the store for a method that names it (load, resume, delete), and
// the ids no store can hold, which name no session ("not found", never an outage).

import { fromStore, SessionNotFoundError } from "../errors/session-errors.js";
import type { AcpSessionRecord, AcpSessionStore } from "../record/session-store.js";

/** Whether `sessionId` is one no store can hold (empty, a NUL in it): it names no session, so it is "not found", not an outage. */
export function namesNoSession(sessionId: string): boolean {
  return sessionId === "" || sessionId.includes("\0");
}

/** The stored record of `sessionId`, or "not found". */
export async function readRecord(store: Pick<AcpSessionStore, "get">, sessionId: string): Promise<AcpSessionRecord> {
  if (namesNoSession(sessionId)) {
    throw new SessionNotFoundError(sessionId);
  }
  const record = await fromStore(() => store.get(sessionId));
  if (!record) {
    throw new SessionNotFoundError(sessionId);
  }
  return record;
}
