// What a run streams the graph with: its input (by default only the messages the thread does not
// hold yet, as LangChain messages) and its config (the thread, the stream modes, the cancel signal,
// and the WeftRunContext its nodes and tools find).

import { ToolMessage } from "@langchain/core/messages";

import type { ProtocolRunOptions } from "../graph/protocol-graph.js";
import type { Message } from "../types/messages.js";
import type { FromLangGraphOptions, StateSnapshotLike } from "./langgraph-types.js";
import { toLangChain } from "./messages.js";
import { messagesIn, unansweredCalls } from "./thread-state.js";
import { WEFT_CONFIG_KEY, type WeftRunContext } from "./weft-context.js";

/** The graph's input; undefined when it adds nothing the thread does not hold. */
export function graphInput(given: unknown, known: ReadonlySet<string>, before: StateSnapshotLike | undefined, input: FromLangGraphOptions["input"]): unknown {
  if (input) {
    return input(given, { known });
  }
  const messages = (given as { messages?: unknown } | null | undefined)?.messages;
  if (!Array.isArray(messages)) {
    return given;
  }
  // The thread holds the conversation up to its last message it knows; only what follows is new.
  const list = messages as Message[];
  let from = 0;
  list.forEach((message, index) => {
    if (known.has(message.id)) {
      from = index + 1;
    }
  });
  const fresh = list.slice(from);
  if (fresh.length === 0) {
    return undefined;
  }
  // Calls the thread left without a result (a turn cancelled while it asked about them) get one
  // first, as every provider wants a result for each call before the next prompt.
  const answered = new Set(fresh.flatMap((message) => (message.role === "tool" ? message.parts.map((part) => part.toolCallId) : [])));
  const dangling = unansweredCalls(messagesIn(before?.values)).filter((call) => call.id !== undefined && !answered.has(call.id));
  const results = dangling.map((call) => new ToolMessage({ tool_call_id: call.id ?? "", name: call.name, content: "This tool call did not run: the turn ended before it did.", status: "error" }));
  return { messages: [...results, ...toLangChain(fresh)] };
}

/** The config a run streams the graph with. */
export function runConfig(options: ProtocolRunOptions & { runId: string }, recursionLimit: number | undefined): Record<string, unknown> {
  const values = typeof options.config === "function" ? options.config() : (options.config ?? {});
  const context: WeftRunContext = { sessionId: options.threadId, config: values };
  if (options.cwd !== undefined) {
    context.cwd = options.cwd;
  }
  if (options.principal) {
    context.principal = options.principal;
  }
  const config: Record<string, unknown> = {
    configurable: { thread_id: options.threadId, [WEFT_CONFIG_KEY]: context },
    streamMode: ["messages", "updates", "custom", "tools"],
    subgraphs: true,
    // LangGraph writes a step's checkpoint while the next step runs unless told to wait: a kill
    // in that step could then lose the steps before it, and a carried-on turn would run the
    // model and the tools again. Each step waits for its checkpoint to be stored.
    durability: "sync",
  };
  if (options.signal) {
    config.signal = options.signal;
  }
  if (recursionLimit !== undefined) {
    config.recursionLimit = recursionLimit;
  }
  return config;
}
