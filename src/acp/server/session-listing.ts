// `session/list` and `session/delete`: the stored sessions a caller may see, a page at a time, and
// deleting one (from the store first, then from the open sessions, the editor bridge and the graph).

import type * as acp from "@agentclientprotocol/sdk";

import type { ProtocolGraph } from "../../graph/protocol-graph.js";
import type { AcpEditorBridge } from "../editor-bridge.js";
import { InvalidCursorError } from "../errors/request-errors.js";
import { fromStore, SessionNotFoundError } from "../errors/session-errors.js";
import type { AcpSessionQuery, AcpSessionStore, AcpSessionSummary } from "../record/session-store.js";
import type { ConnectionState } from "./connection-state.js";
import type { OpenSessions } from "./open-sessions.js";
import { checkCwd } from "./session-directories.js";
import { namesNoSession, readRecord } from "./stored-records.js";

const LIST_PAGE = 50;

/** Answers `session/list` from `list` (the store's), with only the caller's own when served remotely. */
export async function listSessions(list: NonNullable<AcpSessionStore["list"]>, state: ConnectionState, params: acp.ListSessionsRequest): Promise<acp.ListSessionsResponse> {
  const offset = readCursor(params.cursor);
  const query: AcpSessionQuery = { offset, limit: LIST_PAGE + 1 };
  if (params.cwd) {
    checkCwd(params.cwd);
    query.cwd = params.cwd;
  }
  if (state.serving.shared) {
    // Only the caller's own; a caller without a principal owns none.
    query.owner = state.owner ?? "\0";
  }
  const found = await fromStore(() => list(query));
  const page = found.slice(0, LIST_PAGE).map(listEntry);
  const response: acp.ListSessionsResponse = { sessions: page };
  if (found.length > LIST_PAGE) {
    response.nextCursor = String(offset + LIST_PAGE);
  }
  return response;
}

/** What deleting a session reaches besides the store. */
export interface Deleting {
  store: Pick<AcpSessionStore, "get">;
  sessions: OpenSessions;
  editor: AcpEditorBridge | undefined;
  graph: Pick<ProtocolGraph, "deleteThread">;
}

/** Answers `session/delete` with `remove` (the store's); a session that is not the caller's is "not found". */
export async function deleteSession(remove: NonNullable<AcpSessionStore["delete"]>, state: ConnectionState, deleting: Deleting, params: acp.DeleteSessionRequest): Promise<acp.DeleteSessionResponse> {
  if (namesNoSession(params.sessionId)) {
    throw new SessionNotFoundError(params.sessionId);
  }
  if (state.serving.shared) {
    state.checkOwner(params.sessionId, (await readRecord(deleting.store, params.sessionId)).info);
  }
  deleting.sessions.get(params.sessionId)?.cancel();
  // From the store first: when it cannot be reached, the session stays as it was.
  await fromStore(() => remove(params.sessionId));
  deleting.sessions.remove(params.sessionId);
  await deleting.editor?.closeSession?.(params.sessionId);
  await deleting.graph.deleteThread?.(params.sessionId);
  return {};
}

function readCursor(cursor: string | null | undefined): number {
  if (cursor === undefined || cursor === null) {
    return 0;
  }
  const offset = Number(cursor);
  if (!Number.isInteger(offset) || offset < 0) {
    throw new InvalidCursorError(cursor);
  }
  return offset;
}

/** A session as `session/list` sends it: no title or other directories key when there are none. */
function listEntry(summary: AcpSessionSummary): acp.SessionInfo {
  const entry: acp.SessionInfo = { sessionId: summary.sessionId, cwd: summary.cwd, updatedAt: summary.updatedAt };
  if (summary.additionalDirectories?.length) {
    entry.additionalDirectories = summary.additionalDirectories;
  }
  if (summary.title !== undefined) {
    entry.title = summary.title;
  }
  return entry;
}
