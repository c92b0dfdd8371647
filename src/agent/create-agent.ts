// createAgent(): the model/tool loop as a graph. A `model` node streams the model's reply; when it
// asks for tools, a `tools` node asks for the approvals it needs (one interrupt per gated call),
// runs the calls in parallel and hands every call exactly one result; then back to the model.
// Given a context window, each model call's prompt is first fitted to it (fit-context.ts).

import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3FunctionTool, SharedV3ProviderOptions } from "@ai-sdk/provider";
import { z } from "zod";

import { WeftError } from "../errors/weft-error.js";
import { valueChannel } from "../graph/channels.js";
import type { CompiledGraph, CompileOptions } from "../graph/compiled-graph.js";
import { createMessageId, messagesChannel, replaceMessages } from "../graph/messages.js";
import { type NodeContext, PauseSignal } from "../graph/node-context.js";
import type { RunConfig } from "../graph/run-outcome.js";
import { END, START, StateGraph } from "../graph/state-graph.js";
import type { JsonObject, JsonValue } from "../types/json.js";
import type { AssistantMessage, Message, ToolCallPart, ToolMessage, ToolResultPart } from "../types/messages.js";
import type { Principal } from "../types/principal.js";
import type { ToolDisplay, ToolLocation } from "../types/tool-display.js";
import type { Compaction } from "./compaction.js";
import { type AgentContextOptions, checkContextOptions, checkWindow, type ContextMeasure, promptLimit } from "./context-window.js";
import { fitContext } from "./fit-context.js";
import { callIdsOf } from "./reply-call-ids.js";
import { streamModel } from "./stream-model.js";
import { isToolOutput, type Tool, type ToolContext } from "./tool.js";
import type { ApprovalScope, ToolApprovalAnswer, ToolApprovalRequest } from "./tool-approval.js";
import type { ToolQuestion } from "./tool-question.js";
import { toJson } from "../store-core/to-json.js";

/**
 * Which tool calls need a person's approval: every call (`true`), the named tools, a map by tool
 * name, or a function of the call. Tools not covered (and calls the function answers undefined
 * for) fall back to their own `needsApproval`.
 */
export type ApprovalPolicy =
  | boolean
  | readonly string[]
  | Readonly<Record<string, boolean>>
  | ((call: { toolName: string; input: unknown; config: RunConfig }) => boolean | undefined);

/**
 * What the functions among an agent's options receive: the run's thread, who it is for, and its
 * settings (for a session served with `serveAcp()`, the values of its config options and its mode).
 */
export interface AgentRunContext {
  threadId: string;
  principal: Principal | undefined;
  config: RunConfig;
}

export interface AgentOptions extends Pick<CompileOptions, "store" | "namespace" | "leaseMs"> {
  /** Names the graph (and its namespace in the store). Default `agent`. */
  name?: string | undefined;
  /**
   * The model, or a function choosing it for each model call from the run's settings, such as the
   * model a person picked in their editor: `({ config }) => models[String(config.model)] ?? fast`.
   * The function is called before every model call, so a choice reaches the next request; build
   * the models once (`lazyModel()` loads a provider only when first called) and pick among them.
   */
  model: LanguageModelV3 | ((context: AgentRunContext) => LanguageModelV3 | Promise<LanguageModelV3>);
  /**
   * The tools the model may call: a list, or a function giving the list for a run's thread (for
   * tools that differ by session, such as an editor's MCP servers). The function is called for
   * every model call and tool step, so it should be quick after its first call for a thread.
   */
  tools?: ToolList | ((context: AgentRunContext) => ToolList | Promise<ToolList>) | undefined;
  /**
   * The system prompt, or a function of the run (who it is for, its settings), asked before every
   * model call; it may read something first (a project's own instructions on disk) and resolve.
   */
  instructions?: string | ((context: AgentRunContext) => string | Promise<string>) | undefined;
  approvals?: ApprovalPolicy | undefined;
  /** The most model calls one run may make; then the run ends as ACP's `max_turn_requests`. Default 25. */
  maxSteps?: number | undefined;
  /** Passed to every model call. */
  maxOutputTokens?: number | undefined;
  temperature?: number | undefined;
  /** Passed to every model call: options, or a function of the run choosing them (a reasoning effort the person picked). */
  providerOptions?: SharedV3ProviderOptions | ((context: AgentRunContext) => SharedV3ProviderOptions | undefined) | undefined;
  /**
   * A model call that sends nothing for this many milliseconds (counting the wait for its reply to
   * start) is stopped, and the run fails with a ModelCallError saying so. Default 300000 (5 min),
   * see DEFAULT_MODEL_IDLE_TIMEOUT_MS for why it is long.
   */
  modelIdleTimeoutMs?: number | undefined;
  /**
   * The model's context window, to keep every model call within it. Before a call whose prompt
   * would take more than `window - reserve` tokens (by estimatePrompt), the older turns are
   * summarised by the model and the model is sent [instructions, summary, recent messages]. The
   * conversation in the state stays whole; the compaction is kept beside it (`compaction`), so it
   * is checkpointed and a restarted process sends the same compacted prompt. Without it, every
   * call sends the whole conversation.
   */
  context?: AgentContextOptions<AgentRunContext> | undefined;
}

/**
 * What an agent takes: the whole conversation so far. The run's state starts from exactly it.
 * With `compact: true` the run summarises the conversation (everything that can be) and ends
 * without calling the model for a reply, as a `/compact` command asks.
 */
export interface AgentInput {
  messages: Message[];
  compact?: boolean | undefined;
}

const agentChannels = () => ({
  messages: messagesChannel(),
  modelCalls: valueChannel(0),
  /** The summary the model is sent in place of the conversation's older messages (see compaction.ts). */
  compaction: valueChannel<Compaction | null>(null),
  /** What the last model call's prompt was made of and the tokens the provider counted for it. */
  contextMeasure: valueChannel<ContextMeasure | null>(null),
  /** Set by an input that asks for a compaction now (every input sets it, true or false). */
  compactNow: valueChannel(false),
});

export type AgentChannels = ReturnType<typeof agentChannels>;

/** The interrupt id of a tool call's approval. */
export function approvalId(toolCallId: string): string {
  return `approve:${toolCallId}`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any input type share one list
export type ToolList = readonly Tool<any>[];

/** Each tool's description for the model, computed once per tool. */
const described = new WeakMap<Tool<unknown>, LanguageModelV3FunctionTool>();

function describeTool(tool: Tool<unknown>): LanguageModelV3FunctionTool {
  let description = described.get(tool);
  if (!description) {
    const schema = tool.input ? z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) : (tool.inputSchema ?? { type: "object" });
    description = { type: "function", name: tool.name, description: tool.description, inputSchema: schema as LanguageModelV3FunctionTool["inputSchema"] };
    described.set(tool, description);
  }
  return description;
}

export function createAgent(options: AgentOptions): CompiledGraph<AgentChannels, AgentInput> {
  const idle = options.modelIdleTimeoutMs;
  if (idle !== undefined && !(Number.isFinite(idle) && idle > 0)) {
    throw new WeftError("invalid_option", `modelIdleTimeoutMs must be a positive number of milliseconds, not ${String(idle)}.`);
  }
  const toolsFor = async (context: NodeContext): Promise<Map<string, Tool<unknown>>> => {
    const list = typeof options.tools === "function" ? await options.tools(runContext(context)) : (options.tools ?? []);
    return new Map(list.map((tool) => [tool.name, tool]));
  };
  const maxSteps = options.maxSteps ?? 25;
  if (options.context) {
    checkContextOptions(options.context);
  }
  const windowFor = (context: NodeContext): number | undefined => {
    const window = options.context?.window;
    const size = typeof window === "function" ? window(runContext(context)) : window;
    if (size !== undefined) {
      checkWindow(size);
    }
    return size;
  };

  const graph = new StateGraph({
    name: options.name ?? "agent",
    channels: agentChannels(),
    input: (input: AgentInput) => ({ messages: replaceMessages(input.messages), modelCalls: 0, compactNow: input.compact === true }),
  })
    .addNode("model", async (state, context) => {
      if (state.modelCalls >= maxSteps && !state.compactNow) {
        context.end("max_steps");
        return {};
      }
      const instructions = typeof options.instructions === "function" ? await options.instructions(runContext(context)) : options.instructions;
      const tools = await toolsFor(context);
      const described = tools.size > 0 ? [...tools.values()].map(describeTool) : undefined;
      const model = typeof options.model === "function" ? await options.model(runContext(context)) : options.model;
      const window = options.context ? windowFor(context) : undefined;
      const fitted = await fitContext({
        messages: state.messages,
        compaction: state.compaction,
        measure: state.contextMeasure,
        instructions,
        tools: described,
        window,
        limit: window === undefined ? Infinity : promptLimit(window, options.context?.reserve, options.maxOutputTokens),
        summaryInstructions: options.context?.summaryInstructions,
        model,
        force: state.compactNow,
        emit: context.emit,
        signal: context.signal,
        idleTimeoutMs: options.modelIdleTimeoutMs,
      });
      if (state.compactNow) {
        // The run ends here (see the router): no reply, and no tool call left from before runs.
        return { compaction: fitted.compaction };
      }
      const call: LanguageModelV3CallOptions = { prompt: fitted.prompt, abortSignal: context.signal };
      if (described) {
        call.tools = described;
        call.toolChoice = { type: "auto" };
      }
      if (options.maxOutputTokens !== undefined) {
        call.maxOutputTokens = options.maxOutputTokens;
      }
      if (options.temperature !== undefined) {
        call.temperature = options.temperature;
      }
      const providerOptions = typeof options.providerOptions === "function" ? options.providerOptions(runContext(context)) : options.providerOptions;
      if (providerOptions) {
        call.providerOptions = providerOptions;
      }
      const reply = await streamModel(model, call, createMessageId("msg"), context.emit, {
        idleTimeoutMs: options.modelIdleTimeoutMs,
        takenCallIds: () => callIdsOf(state.messages),
      });
      context.emit({ type: "message", message: reply.message });
      if (reply.finishReason === "length") {
        context.end("max_tokens");
      } else if (reply.finishReason === "content-filter") {
        context.end("refusal");
      }
      const inputTokens = reply.usage?.inputTokens;
      const measure = fitted.measure && inputTokens !== undefined ? { ...fitted.measure, inputTokens } : null;
      return { messages: [reply.message], modelCalls: state.modelCalls + 1, compaction: fitted.compaction, contextMeasure: measure };
    })
    .addNode("tools", async (state, context) => {
      const last = state.messages.at(-1);
      if (last?.role !== "assistant") {
        return {};
      }
      const message = await runToolCalls(last, await toolsFor(context), options.approvals, context);
      context.emit({ type: "message", message });
      return { messages: [message] };
    })
    .addEdge(START, "model")
    .addConditionalEdges("model", (state) => {
      if (state.compactNow) {
        return END;
      }
      const last = state.messages.at(-1);
      return last?.role === "assistant" && last.parts.some((part) => part.type === "tool-call") ? "tools" : END;
    })
    .addEdge("tools", "model");

  const compile: CompileOptions = { maxSteps: maxSteps * 2 + 2 };
  if (options.store) {
    compile.store = options.store;
  }
  if (options.namespace) {
    compile.namespace = options.namespace;
  }
  if (options.leaseMs !== undefined) {
    compile.leaseMs = options.leaseMs;
  }
  return graph.compile(compile);
}

interface PreparedCall {
  call: ToolCallPart;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool of whatever input type the call names
  tool?: Tool<any> | undefined;
  input?: unknown;
  /** Why the call cannot run, when it cannot. */
  problem?: string | undefined;
}

/** Gates, runs and answers every tool call of an assistant message. */
async function runToolCalls(
  message: AssistantMessage,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see PreparedCall
  tools: Map<string, Tool<any>>,
  approvals: ApprovalPolicy | undefined,
  context: NodeContext,
): Promise<ToolMessage> {
  const calls = message.parts.filter((part): part is ToolCallPart => part.type === "tool-call");
  const prepared = calls.map((call) => prepare(call, tools));
  const gated = prepared.filter((entry) => entry.tool && !entry.problem && needsApproval(entry, approvals, context.config));
  // Ask for every approval before running anything: the node runs again from here on resume.
  const requests = await Promise.all(
    gated.map(async (entry) => {
      const id = approvalId(entry.call.toolCallId);
      const request: ToolApprovalRequest = {
        kind: "tool-approval",
        toolCallId: entry.call.toolCallId,
        toolName: entry.call.toolName,
        input: toJson(entry.input),
      };
      if (!context.answer(id).answered) {
        Object.assign(request, await describeApproval(entry, context));
      }
      return { id, value: request as unknown as JsonValue };
    }),
  );
  const answers = context.interruptAll<unknown>(requests);
  const settled = await Promise.allSettled(
    prepared.map((entry) => {
      const answer = answers[approvalId(entry.call.toolCallId)];
      return runOne(entry, answer === undefined ? undefined : readApproval(answer), context);
    }),
  );
  const parts: ToolResultPart[] = [];
  for (const result of settled) {
    if (result.status === "rejected") {
      // A tool that asked a question pauses the node; a cancel ends it. Either way, stop here.
      throw result.reason;
    }
    parts.push(result.value);
  }
  return { id: createMessageId("tool"), role: "tool", parts, createdAt: new Date().toISOString() };
}

function prepare(call: ToolCallPart, tools: Map<string, Tool<unknown>>): PreparedCall {
  const tool = tools.get(call.toolName);
  if (!tool) {
    return { call, problem: `There is no tool named "${call.toolName}". Available tools: ${[...tools.keys()].join(", ") || "none"}.` };
  }
  const raw = call.input as { __invalidJson?: unknown } | undefined;
  if (raw && typeof raw === "object" && "__invalidJson" in raw) {
    return { call, tool, problem: `The arguments were not valid JSON: ${String(raw.__invalidJson)}` };
  }
  if (!tool.input) {
    return call.input !== null && typeof call.input === "object" && !Array.isArray(call.input)
      ? { call, tool, input: call.input }
      : { call, tool, problem: `The arguments for ${call.toolName} must be a JSON object.` };
  }
  const parsed = tool.input.safeParse(call.input);
  if (!parsed.success) {
    return { call, tool, problem: `Invalid arguments for ${call.toolName}: ${z.prettifyError(parsed.error)}` };
  }
  return { call, tool, input: parsed.data };
}

function needsApproval(entry: PreparedCall, policy: ApprovalPolicy | undefined, config: RunConfig): boolean {
  const toolName = entry.call.toolName;
  if (typeof policy === "boolean") {
    return policy;
  }
  if (typeof policy === "function") {
    return policy({ toolName, input: entry.input, config }) ?? Boolean(entry.tool?.needsApproval);
  }
  if (Array.isArray(policy)) {
    return policy.includes(toolName) || Boolean(entry.tool?.needsApproval);
  }
  if (policy && typeof policy === "object") {
    const byName = (policy as Record<string, boolean>)[toolName];
    if (byName !== undefined) {
      return byName;
    }
  }
  return Boolean(entry.tool?.needsApproval);
}

/**
 * What the person reviews for a call's approval: the tool's own description (see
 * Tool.describeApproval), else its usual title and locations; and the input's schema, so the
 * reviewer can offer to edit the input first.
 */
async function describeApproval(entry: PreparedCall, context: NodeContext): Promise<Pick<ToolApprovalRequest, "title" | "display" | "locations" | "inputSchema" | "scope">> {
  const tool = entry.tool;
  const described = await Promise.resolve()
    .then(() => tool?.describeApproval?.(entry.input, { toolCallId: entry.call.toolCallId, threadId: context.threadId, signal: context.signal }))
    .catch(() => undefined);
  const fields: Pick<ToolApprovalRequest, "title" | "display" | "locations" | "inputSchema" | "scope"> = {};
  const title = described?.title || quietly(() => tool?.title?.(entry.input));
  if (title) {
    fields.title = title;
  }
  if (described?.display?.length) {
    fields.display = described.display;
  }
  const locations = described?.locations?.length ? described.locations : quietly(() => tool?.locations?.(entry.input));
  if (locations?.length) {
    fields.locations = locations;
  }
  if (tool?.approvalScope) {
    // A scope that cannot be made (it throws, or is not one) allows no "always" answer.
    const scope = await Promise.resolve()
      .then(() => tool.approvalScope?.(entry.input, { toolCallId: entry.call.toolCallId, threadId: context.threadId, signal: context.signal }))
      .catch(() => undefined);
    fields.scope = isScope(scope) ? scope : false;
  }
  const schema = tool && describeTool(tool).inputSchema;
  if (schema && typeof schema === "object") {
    fields.inputSchema = toJson(schema) as JsonObject;
  }
  return fields;
}

/** True for a scope with a key and a label, and broader keys only as a list of strings. */
function isScope(value: unknown): value is ApprovalScope {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const scope = value as Partial<ApprovalScope>;
  return (
    typeof scope.key === "string" &&
    scope.key !== "" &&
    typeof scope.label === "string" &&
    (scope.within === undefined || (Array.isArray(scope.within) && scope.within.every((key) => typeof key === "string" && key !== "")))
  );
}

/** What `describe` gives, or undefined when it throws: a description is never worth failing a call. */
function quietly<T>(describe: () => T): T | undefined {
  try {
    return describe();
  } catch {
    return undefined;
  }
}

function readApproval(answer: unknown): ToolApprovalAnswer {
  if (answer === true || answer === "approve") {
    return { decision: "approve" };
  }
  if (typeof answer === "object" && answer !== null && (answer as { decision?: unknown }).decision === "approve") {
    return { decision: "approve" };
  }
  if (typeof answer === "object" && answer !== null && (answer as { decision?: unknown }).decision === "edit") {
    const input = (answer as { input?: unknown }).input;
    if (input !== null && typeof input === "object" && !Array.isArray(input)) {
      return { decision: "edit", input: input as JsonObject };
    }
    return { decision: "reject", reason: "The edited input was not an object." };
  }
  const reason = (answer as { reason?: unknown } | undefined)?.reason;
  const rejection: Extract<ToolApprovalAnswer, { decision: "reject" }> = typeof reason === "string" ? { decision: "reject", reason } : { decision: "reject" };
  if ((answer as { by?: unknown } | undefined)?.by === "policy") {
    rejection.by = "policy";
  }
  return rejection;
}

/** What the model is told of a rejected call: the person declined it, or a policy refused it with nobody asked. */
function rejectionText(approval: Extract<ToolApprovalAnswer, { decision: "reject" }>): string {
  const reason = approval.reason ? ` Reason: ${approval.reason}` : "";
  if (approval.by === "policy") {
    return `This tool call was not run: the run's approval policy refused it, and no person was asked.${reason} Do not retry it; carry on without it, or stop and say what it would need.`;
  }
  return `The person declined to run this tool call.${reason} Do not retry it unless they ask.`;
}

async function runOne(entry: PreparedCall, approval: ToolApprovalAnswer | undefined, context: NodeContext): Promise<ToolResultPart> {
  const { call } = entry;
  const result = (isError: boolean, output: unknown, extra: { display?: ToolDisplay[] | undefined; locations?: ToolLocation[] | undefined } = {}): ToolResultPart => {
    const part: ToolResultPart = { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: toJson(output) };
    if (isError) {
      part.isError = true;
    }
    if (extra.display?.length) {
      part.display = extra.display;
    }
    if (extra.locations?.length) {
      part.locations = extra.locations;
    }
    return part;
  };
  if (entry.problem || !entry.tool) {
    const part = result(true, entry.problem ?? "The tool could not run.");
    context.emit({ type: "tool-end", toolCallId: call.toolCallId, toolName: call.toolName, status: "error", output: part.output });
    return part;
  }
  if (approval?.decision === "reject") {
    const part = result(true, rejectionText(approval));
    context.emit({ type: "tool-end", toolCallId: call.toolCallId, toolName: call.toolName, status: "rejected", output: part.output });
    return part;
  }
  const tool = entry.tool;
  let input = entry.input;
  if (approval?.decision === "edit") {
    // The person changed the input before approving: it is checked as the model's would be.
    const edited = tool.input ? tool.input.safeParse(approval.input) : { success: true as const, data: approval.input };
    if (!edited.success) {
      const part = result(true, `The person edited the input of this call, and the edited input is not valid: ${z.prettifyError(edited.error)}`);
      part.editedInput = approval.input;
      context.emit({ type: "tool-end", toolCallId: call.toolCallId, toolName: call.toolName, status: "error", output: part.output });
      return part;
    }
    input = edited.data;
  }
  const stored = await context.memo(call.toolCallId, async () => {
    const part = await execute(tool, input, call, context, result);
    if (approval?.decision === "edit") {
      part.editedInput = toJson(input);
    }
    return part as unknown as JsonValue;
  });
  return stored as unknown as ToolResultPart;
}

async function execute(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see PreparedCall
  tool: Tool<any>,
  input: unknown,
  call: ToolCallPart,
  context: NodeContext,
  result: (isError: boolean, output: unknown, extra?: { display?: ToolDisplay[] | undefined; locations?: ToolLocation[] | undefined }) => ToolResultPart,
): Promise<ToolResultPart> {
  const start: Extract<Parameters<NodeContext["emit"]>[0], { type: "tool-start" }> = { type: "tool-start", toolCallId: call.toolCallId, toolName: call.toolName, input: toJson(input) };
  const title = tool.title?.(input);
  if (title) {
    start.title = title;
  }
  const locations = tool.locations?.(input);
  if (locations?.length) {
    start.locations = locations;
  }
  context.emit(start);
  let questions = 0;
  const toolContext: ToolContext = {
    toolCallId: call.toolCallId,
    threadId: context.threadId,
    runId: context.runId,
    principal: context.principal,
    config: context.config,
    signal: context.signal,
    store: context.store,
    ask: <T>(question: JsonValue, options?: { schema?: JsonObject | undefined }) => {
      const value: ToolQuestion = { kind: "question", toolCallId: call.toolCallId, toolName: call.toolName, question };
      const id = `ask:${call.toolCallId}:${questions++}`;
      return context.interrupt<T>(value as unknown as JsonValue, options?.schema ? { id, schema: options.schema } : { id });
    },
    report: (update) => context.emit({ type: "tool-update", toolCallId: call.toolCallId, ...update }),
    plan: (entries) => context.emit({ type: "plan", entries: entries.map((entry) => ({ content: entry.content, priority: entry.priority, status: entry.status })) }),
  };
  let part: ToolResultPart;
  try {
    const returned: unknown = await tool.execute(input, toolContext);
    part = isToolOutput(returned) ? result(Boolean(returned.isError), returned.output, returned) : result(false, returned);
  } catch (error) {
    if (error instanceof PauseSignal || context.signal.aborted) {
      throw error;
    }
    part = result(true, `Error: ${error instanceof Error ? error.message : String(error)}`);
  }
  const end: Extract<Parameters<NodeContext["emit"]>[0], { type: "tool-end" }> = {
    type: "tool-end",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    status: part.isError ? "error" : "success",
    output: part.output,
  };
  if (part.display) {
    end.display = part.display;
  }
  if (part.locations) {
    end.locations = part.locations;
  }
  context.emit(end);
  return part;
}

/** The run as the functions among an agent's options see it. */
function runContext(context: NodeContext): AgentRunContext {
  return { threadId: context.threadId, principal: context.principal, config: context.config };
}

