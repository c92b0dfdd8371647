// The names each entry point of the package exports, pinned: a name added to or removed from an
// entry (a value at run time, or a type) fails here until the list below says so, which makes
// every change to the public surface a deliberate one. The entries are the package.json "exports".

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import ts from "typescript";
import { describe, expect, it } from "vitest";

import { repoRoot } from "./support/agent-process.js";

interface Surface {
  /** What `import * as entry` holds at run time: functions, classes, constants. */
  values: string[];
  /** The names that exist only for the compiler: interfaces and type aliases. */
  types: string[];
}

/** Every entry of package.json "exports" (but ./package.json), by its subpath. */
const surfaces: Record<string, Surface> = {
  ".": {
    values: [
      "CompiledGraph",
      "DEFAULT_SUMMARY_INSTRUCTIONS",
      "END",
      "GraphDefinitionError",
      "InvalidNamespaceError",
      "LazyStore",
      "LeaseLostError",
      "MODEL_PROVIDERS",
      "MemoryStore",
      "ModelCallError",
      "ModelSpecError",
      "NodeFailedError",
      "START",
      "StateGraph",
      "StoreBusyError",
      "StoreUnavailableError",
      "ThreadBusyError",
      "UnknownInterruptError",
      "WeftError",
      "approvalId",
      "createAgent",
      "createMessageId",
      "defineTool",
      "isToolApproval",
      "knownModel",
      "lazyModel",
      "listChannel",
      "messageText",
      "messagesChannel",
      "openStore",
      "parseModelSpec",
      "reducerChannel",
      "replaceMessages",
      "resolveModel",
      "silentLogger",
      "userMessage",
      "valueChannel",
    ],
    types: [
      "AgentChannels",
      "AgentContextOptions",
      "AgentInput",
      "AgentOptions",
      "AgentRunContext",
      "ApprovalContext",
      "ApprovalDescription",
      "ApprovalPolicy",
      "ApprovalScope",
      "AssistantMessage",
      "AssistantPart",
      "AudioPart",
      "Channel",
      "ChannelMap",
      "Compaction",
      "CompactionStatus",
      "CompareAndPutOptions",
      "CompileOptions",
      "FieldCondition",
      "FilePart",
      "FinishReason",
      "FormAnswer",
      "GraphRun",
      "ImagePart",
      "Interrupt",
      "InterruptOptions",
      "InterruptRequest",
      "JsonObject",
      "JsonValue",
      "KnownModel",
      "LinkPart",
      "ListNamespacesOptions",
      "Logger",
      "Message",
      "MessagePart",
      "MessagesWrite",
      "ModelPrices",
      "ModelProvider",
      "Namespace",
      "NodeContext",
      "NodeEvent",
      "NodeFunction",
      "NoticeSeverity",
      "PlanEntry",
      "Principal",
      "PutOptions",
      "ReasoningPart",
      "ResolveModelOptions",
      "Router",
      "RunConfig",
      "RunEvent",
      "RunFinish",
      "RunOptions",
      "RunOutcome",
      "RuntimeEvent",
      "SearchOptions",
      "StateOf",
      "Store",
      "StoreItem",
      "SystemMessage",
      "TextPart",
      "ThreadInfo",
      "Tool",
      "ToolApprovalAnswer",
      "ToolApprovalRequest",
      "ToolCallPart",
      "ToolContext",
      "ToolDisplay",
      "ToolList",
      "ToolLocation",
      "ToolMessage",
      "ToolOutput",
      "ToolQuestion",
      "ToolResultPart",
      "UpdateOf",
      "Usage",
      "UserMessage",
      "UserPart",
      "WeftErrorCode",
    ],
  },
  "./acp": {
    values: [
      "ACP_PROTOCOL_VERSION",
      "AcpConnectionError",
      "CommandFailedError",
      "CommandSandbox",
      "CorruptLedgerError",
      "DirectoryNotAllowedError",
      "HttpRefusal",
      "InvalidConfigValueError",
      "InvalidTokensError",
      "MemoryAcpSessionStore",
      "REMOTE_CONNECTION_LIMITS",
      "SessionConflictError",
      "acpEditor",
      "anyOf",
      "bearerTokens",
      "checkOrigin",
      "guessToolKind",
      "jwtAuth",
      "listenHttp",
      "parseTokenList",
      "serveAcp",
      "serveAcpHttp",
      "storeAcpSessions",
    ],
    types: [
      "AcpBooleanConfigOption",
      "AcpClientCapabilities",
      "AcpCommand",
      "AcpCommandCall",
      "AcpCommandContext",
      "AcpCommandResult",
      "AcpCommands",
      "AcpConfigCategory",
      "AcpConfigChoice",
      "AcpConfigChoiceGroup",
      "AcpConfigOption",
      "AcpConfigValues",
      "AcpConnection",
      "AcpConnectionErrorCode",
      "AcpContentBlock",
      "AcpEditor",
      "AcpEditorBridge",
      "AcpEditorOptions",
      "AcpGrant",
      "AcpHttpAuthenticate",
      "AcpHttpOptions",
      "AcpHttpServer",
      "AcpMode",
      "AcpModes",
      "AcpNotice",
      "AcpOptions",
      "AcpPermissions",
      "AcpPrices",
      "AcpSelectConfigOption",
      "AcpServer",
      "AcpSessionClaim",
      "AcpSessionInfo",
      "AcpSessionQuery",
      "AcpSessionRecord",
      "AcpSessionStore",
      "AcpSessionSummary",
      "AcpSessionUpdate",
      "AcpStopReason",
      "AcpStreams",
      "AcpTitle",
      "AcpTitleRequest",
      "AcpToolKind",
      "AcpTurnRecord",
      "AcpUsageOptions",
      "AcpUsageRecord",
      "BearerTokenEntries",
      "CommandSandboxOptions",
      "EditorLimits",
      "HttpHandlers",
      "HttpListener",
      "JwtAuthOptions",
      "JwtClaims",
      "LineLimits",
      "ListenHttpOptions",
      "McpServerPolicy",
      "ProtocolEvent",
      "ProtocolGraph",
      "ProtocolInterrupt",
      "ProtocolResult",
      "ProtocolRun",
      "ProtocolRunOptions",
      "ProtocolThread",
      "SandboxCheck",
      "SandboxPlace",
      "SandboxedCommand",
      "SharedAcpSessionStore",
    ],
  },
  "./stores/sqlite": {
    values: ["SqliteStore", "SqliteUnavailableError"],
    types: ["SqliteDriverFailure", "SqliteDriverName", "SqliteStoreOptions"],
  },
  "./stores/postgres": {
    values: ["PostgresStore"],
    types: ["PostgresStoreOptions"],
  },
  "./stores/redis": {
    values: ["RedisStore"],
    types: ["RedisStoreOptions"],
  },
  "./langgraph": {
    values: ["InvalidAnswerError", "WEFT_CONFIG_KEY", "WeftCheckpointSaver", "defaultResumeValue", "fromLangGraph", "weftContext"],
    types: ["FromLangGraphOptions", "LangGraphLike", "ResumeValue", "StateSnapshotLike", "WeftCheckpointSaverOptions", "WeftRunContext"],
  },
  "./testing": {
    values: ["FakeMessagesServer", "FakeModelServer", "FakeResponsesServer", "ScriptedModel", "SCENARIO_IDS", "SCENARIO_TIERS", "checkAcpAgent", "expectAcpAgentToConform", "formatReport", "formatResult", "formatSummary"],
    types: ["CheckAcpAgentOptions", "CheckReport", "ScenarioResult", "Tier", "ChatRequest", "FakeModelMessage", "FakeModelOptions", "FakeModelRequest", "FakeModelServerOptions", "FakeModelToolCall", "FakeReply", "FakeScript", "FakeScriptFor", "Script", "ScriptedReply"],
  },
};

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { exports: Record<string, string | { types: string; default: string }> };

/** The source file an entry is built from: `./dist/acp/index.js` is `src/acp/index.ts`. */
function sourceOf(subpath: string): string {
  const target = manifest.exports[subpath];
  if (typeof target !== "object") {
    throw new Error(`package.json exports ${subpath} has no types and default`);
  }
  return join(repoRoot, target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
}

/** Every name a source entry exports, types included, as the compiler sees them. */
function compiledNames(): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(repoRoot, "tsconfig.build.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const files = Object.keys(surfaces).map(sourceOf);
  const program = ts.createProgram(files, { ...config?.options, noEmit: true });
  const checker = program.getTypeChecker();
  return new Map(
    Object.keys(surfaces).map((subpath) => {
      const source = program.getSourceFile(sourceOf(subpath));
      const module = source && checker.getSymbolAtLocation(source);
      if (!module) {
        throw new Error(`the compiler found no module at ${sourceOf(subpath)}`);
      }
      return [subpath, checker.getExportsOfModule(module).map((symbol) => symbol.name)];
    }),
  );
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe("the package's entry points", () => {
  it("are the ones pinned here, each built from a source file beside its declarations", () => {
    expect(sorted(Object.keys(manifest.exports).filter((subpath) => subpath !== "./package.json"))).toEqual(sorted(Object.keys(surfaces)));
    for (const subpath of Object.keys(surfaces)) {
      const target = manifest.exports[subpath] as { types: string; default: string };
      expect(Object.keys(target), subpath).toEqual(["types", "default"]);
      expect(target.types, subpath).toBe(target.default.replace(/\.js$/, ".d.ts"));
    }
  });

  for (const [subpath, surface] of Object.entries(surfaces)) {
    it(`${subpath} exports exactly its pinned values at run time`, async () => {
      const entry = (await import(pathToFileURL(sourceOf(subpath)).href)) as Record<string, unknown>;
      expect(sorted(Object.keys(entry))).toEqual(sorted(surface.values));
    });
  }

  it("export exactly their pinned names, types included, to the compiler", () => {
    const names = compiledNames();
    for (const [subpath, surface] of Object.entries(surfaces)) {
      expect(sorted(names.get(subpath) ?? []), subpath).toEqual(sorted([...surface.values, ...surface.types]));
    }
  }, 60_000);

  it("export each name from one entry only", () => {
    const owners = new Map<string, string[]>();
    for (const [subpath, surface] of Object.entries(surfaces)) {
      for (const name of [...surface.values, ...surface.types]) {
        owners.set(name, [...(owners.get(name) ?? []), subpath]);
      }
    }
    expect([...owners].filter(([, subpaths]) => subpaths.length > 1)).toEqual([]);
  });
});
