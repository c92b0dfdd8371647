// createAgent(): the model/tool loop as a graph. A `model` node streams the model's reply; when it
// asks for tools, a `tools` node runs them (run-tool-calls.ts: the approvals the policy asks for
// first, then every call, each with exactly one result); then back to the model. Given a context
// window, each model call's prompt is first fitted to it (fit-context.ts).

import type { LanguageModelV3, LanguageModelV3CallOptions, SharedV3ProviderOptions } from "@ai-sdk/provider";

import { WeftError } from "../errors/weft-error.js";
import { valueChannel } from "../graph/channels.js";
import type { CompiledGraph, CompileOptions } from "../graph/compiled-graph.js";
import { createMessageId, messagesChannel, replaceMessages } from "../graph/messages.js";
import type { NodeContext } from "../graph/node-context.js";
import type { RunConfig } from "../graph/run-outcome.js";
import { END, START, StateGraph } from "../graph/state-graph.js";
import type { Message } from "../types/messages.js";
import type { Principal } from "../types/principal.js";
import type { ApprovalPolicy } from "./approval-policy.js";
import type { Compaction } from "./compaction.js";
import { type AgentContextOptions, checkContextOptions, checkWindow, type ContextMeasure, promptLimit } from "./context-window.js";
import { describeTool } from "./describe-tool.js";
import { fitContext } from "./fit-context.js";
import { callIdsOf } from "./reply-call-ids.js";
import { runToolCalls } from "./run-tool-calls.js";
import { streamModel } from "./stream-model.js";
import type { Tool } from "./tool.js";

// The agent's options name the approval policy, so its importers find the type here too.
export type { ApprovalPolicy };

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any input type share one list
export type ToolList = readonly Tool<any>[];

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

/** The run as the functions among an agent's options see it. */
function runContext(context: NodeContext): AgentRunContext {
  return { threadId: context.threadId, principal: context.principal, config: context.config };
}

