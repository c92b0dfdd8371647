// weftjs/acp: serve a graph to an editor over the Agent Client Protocol. What an integrator needs
// and nothing more: the server and its options, where sessions are kept, the bridge to what the
// editor offers, the errors a caller can meet, and the wire types those mention. The client side
// of fs and terminals (`weft chat`) and the coding agent (`weft acp`) are the CLI's, not this entry's.

// Serving a graph.
export { ACP_PROTOCOL_VERSION, serveAcp, type AcpOptions, type AcpServer } from "./serve-acp.js";
export type { AcpStreams } from "./wire/streams.js";
export type { LineLimits } from "./wire/line-limits.js";
export { guessToolKind } from "./mapping/tool-calls.js";

// What a person picks per session: config options (a model, an effort, switches) and modes.
export type {
  AcpBooleanConfigOption,
  AcpConfigCategory,
  AcpConfigChoice,
  AcpConfigChoiceGroup,
  AcpConfigOption,
  AcpConfigValues,
  AcpSelectConfigOption,
} from "./surface/config-options.js";
export type { AcpMode, AcpModes } from "./surface/modes.js";

// What the editor shows about a session: slash commands, usage and cost, and its title.
export { CommandFailedError, type AcpCommand, type AcpCommandCall, type AcpCommandContext, type AcpCommandResult, type AcpCommands, type AcpPermissions } from "./surface/slash-commands.js";
export type { AcpPrices, AcpUsageOptions } from "./surface/usage.js";
export type { AcpTitle, AcpTitleRequest } from "./surface/session-title.js";

// What a protocol server serves: the graph seam (createAgent() and StateGraph graphs implement it).
export type { ProtocolEvent, ProtocolGraph, ProtocolInterrupt, ProtocolResult, ProtocolRun, ProtocolRunOptions, ProtocolThread } from "../graph/protocol-graph.js";

// Sessions and the stores that keep them.
export {
  MemoryAcpSessionStore,
  type AcpSessionClaim,
  type AcpSessionInfo,
  type AcpSessionQuery,
  type AcpSessionRecord,
  type AcpSessionStore,
  type AcpSessionSummary,
  type AcpTurnRecord,
  type AcpUsageRecord,
} from "./record/session-store.js";
export { storeAcpSessions, type SharedAcpSessionStore } from "./record/store-sessions.js";
export { CorruptLedgerError, type AcpGrant } from "./record/permission-grants.js";

// The editor bridge: the editor's files, terminals and MCP servers as the agent's tools.
export type { AcpClientCapabilities, AcpConnection, AcpEditorBridge, AcpNotice } from "./editor-bridge.js";
export { acpEditor, type AcpEditor, type AcpEditorOptions } from "./editor/acp-editor.js";
export type { EditorLimits } from "./editor/editor-access.js";
// What a remote principal may have the agent do on the server: which of its MCP servers to connect
// to, and the bubblewrap sandbox its commands run in.
export type { McpServerPolicy } from "./editor/mcp-policy.js";
export { CommandSandbox, type CommandSandboxOptions, type SandboxCheck, type SandboxedCommand, type SandboxPlace } from "../process/command-sandbox.js";

// Serving over HTTP: who is calling (bearer tokens, JWTs, or a hook of one's own), and which
// browser pages may call.
export { serveAcpHttp, REMOTE_CONNECTION_LIMITS, type AcpHttpOptions, type AcpHttpServer } from "./remote/serve-acp-http.js";
export { listenHttp, type HttpHandlers, type HttpListener, type ListenHttpOptions } from "./remote/listen-http.js";
export type { AcpHttpAuthenticate } from "./remote/auth/acp-http-authenticate.js";
export { anyOf } from "./remote/auth/any-of.js";
export { bearerTokens, type BearerTokenEntries } from "./remote/auth/bearer-tokens.js";
export { parseTokenList } from "./remote/auth/token-lists.js";
export { jwtAuth, type JwtAuthOptions, type JwtClaims } from "./remote/auth/jwt-auth.js";
export { checkOrigin } from "./remote/auth/check-origin.js";
export { HttpRefusal } from "./remote/auth/http-refusal.js";
export { InvalidTokensError } from "./remote/auth/invalid-tokens-error.js";

// Errors: why a connection ended (AcpServer.closed), the conflict a shared session store reports,
// a config value a session does not offer (AcpServer.setConfig), and a slash command that failed
// (exported above, with the commands).
export { AcpConnectionError, type AcpConnectionErrorCode } from "./wire/connection-error.js";
export { SessionConflictError } from "./errors/session-errors.js";
export { DirectoryNotAllowedError, InvalidConfigValueError } from "./errors/request-errors.js";

// Wire types, as the SDK defines them, under the names the options above use.
export type { AcpContentBlock } from "./mapping/content.js";
export type { AcpSessionUpdate } from "./mapping/updates.js";
export type { AcpStopReason } from "./turn/turn-end.js";
export type { AcpToolKind } from "./mapping/tool-calls.js";
