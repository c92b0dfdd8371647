// The public surface of weft. Named exports only, grouped by layer. Store drivers with native or
// network dependencies live on their own subpaths (`weftjs/stores/sqlite`, `…/postgres`, `…/redis`),
// the ACP server (with the Protocol* types of the graph it serves) on `weftjs/acp`, and test fakes
// on `weftjs/testing`.

// Core types: plain data shared by every layer.
export type { JsonObject, JsonValue } from "./types/json.js";
export type {
  AssistantMessage,
  AssistantPart,
  AudioPart,
  FilePart,
  ImagePart,
  LinkPart,
  Message,
  MessagePart,
  ReasoningPart,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
  UserPart,
} from "./types/messages.js";
export type { Principal } from "./types/principal.js";
export type { CompareAndPutOptions, FieldCondition, ListNamespacesOptions, Namespace, PutOptions, SearchOptions, Store, StoreItem } from "./types/store.js";
export type { ToolDisplay, ToolLocation } from "./types/tool-display.js";

// Errors that stay local (they never cross a wire as they are).
export { WeftError, type WeftErrorCode } from "./errors/weft-error.js";
export { InvalidNamespaceError, StoreBusyError, StoreUnavailableError } from "./errors/store-errors.js";

// The in-process store; the others are on their subpaths.
export { MemoryStore } from "./store-core/memory-store.js";

// The graph runtime.
export { StateGraph, START, END } from "./graph/state-graph.js";
export type { ChannelMap, NodeFunction, Router, StateOf, UpdateOf } from "./graph/state-graph.js";
export { type Channel, listChannel, reducerChannel, valueChannel } from "./graph/channels.js";
export { createMessageId, messageText, messagesChannel, replaceMessages, userMessage, type MessagesWrite } from "./graph/messages.js";
export { CompiledGraph, type CompileOptions, type ThreadInfo } from "./graph/compiled-graph.js";
export type { InterruptOptions, InterruptRequest, NodeContext } from "./graph/node-context.js";
export type { FormAnswer, Interrupt } from "./graph/interrupt.js";
export type { CompactionStatus, FinishReason, NodeEvent, NoticeSeverity, PlanEntry, RunEvent, RuntimeEvent, Usage } from "./graph/events.js";
export type { GraphRun, RunConfig, RunFinish, RunOptions, RunOutcome } from "./graph/run-outcome.js";
export { GraphDefinitionError, LeaseLostError, NodeFailedError, ThreadBusyError, UnknownInterruptError } from "./graph/graph-errors.js";

// Agents: the model/tool loop.
export { createAgent, type AgentChannels, type AgentInput, type AgentOptions, type AgentRunContext, type ToolList } from "./agent/create-agent.js";
export { approvalId, type ApprovalPolicy } from "./agent/approval-policy.js";
export type { ToolQuestion } from "./agent/tool-question.js";
export { defineTool, type ApprovalContext, type ApprovalDescription, type Tool, type ToolContext, type ToolOutput } from "./agent/tool.js";
export { isToolApproval, type ApprovalScope, type ToolApprovalAnswer, type ToolApprovalRequest } from "./agent/tool-approval.js";
export { ModelCallError } from "./agent/agent-errors.js";
export type { AgentContextOptions } from "./agent/context-window.js";
export type { Compaction } from "./agent/compaction.js";
export { DEFAULT_SUMMARY_INSTRUCTIONS } from "./agent/summarize-conversation.js";

// Models by "provider:model" string.
export { MODEL_PROVIDERS, ModelSpecError, parseModelSpec, resolveModel, type ModelProvider, type ResolveModelOptions } from "./models/resolve-model.js";
export { lazyModel } from "./models/lazy-model.js";
export { knownModel, type KnownModel, type ModelPrices } from "./models/known-models.js";

// Stores by string ("memory", a SQLite path, postgres://…, redis://…), opened now or on first use.
export { openStore } from "./stores/open-store.js";
export { LazyStore } from "./stores/lazy-store.js";

// Logging (library code logs only through a logger it is given).
export { silentLogger, type Logger } from "./types/logger.js";
