// weftjs/acp: serve a graph to an editor over the Agent Client Protocol.

export { ACP_PROTOCOL_VERSION, serveAcp, type AcpOptions, type AcpServer } from "./serve-acp.js";
export type { AcpStopReason } from "./acp-session.js";
export type { AcpContentBlock } from "./content.js";
export type { AcpClientCapabilities, AcpConnection, AcpEditorBridge } from "./editor-bridge.js";
export { SessionConflictError, storeAcpSessions, type SharedAcpSessionStore } from "./store-sessions.js";
export {
  MemoryAcpSessionStore,
  type AcpSessionClaim,
  type AcpSessionInfo,
  type AcpSessionRecord,
  type AcpSessionStore,
  type AcpSessionSummary,
  type AcpTurnRecord,
} from "./session-store.js";
export type { AcpStreams } from "./streams.js";
export { AcpConnectionError, type AcpConnectionErrorCode } from "./connection-error.js";
export type { LineLimits } from "./line-limits.js";
export { guessToolKind, type AcpToolKind } from "./tool-calls.js";
export type { AcpSessionUpdate } from "./updates.js";
export type { ProtocolGraph, ProtocolInterrupt, ProtocolResult, ProtocolRunOptions } from "../shared.js";
export { acpEditor, type AcpEditor, type AcpEditorOptions } from "./editor/acp-editor.js";
export type { EditorLimits } from "./editor/editor-access.js";
export { PathOutsideError } from "./editor/session-paths.js";
