// fromLangGraph(): a compiled LangGraph.js graph (or a LangChain createAgent() agent) as a
// ProtocolGraph, so serveAcp() serves it like one of weft's own. The graph keeps its state in its
// checkpointer, keyed by the session's id as `thread_id`; what the editor is shown comes from the
// graph's stream (stream-mapper.ts), and what the graph waits on from its pending tasks
// (interrupts.ts). The session's conversation is weft's own: every message the graph finishes is
// announced, so the session keeps it, tool calls and all.

import { randomUUID } from "node:crypto";

import { type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { type BaseCheckpointSaver, Command, MemorySaver } from "@langchain/langgraph";

import { WeftError } from "../errors/weft-error.js";
import { EventQueue } from "../graph/event-queue.js";
import type { RunEvent } from "../graph/events.js";
import { ThreadBusyError, UnknownInterruptError } from "../graph/graph-errors.js";
import type { Interrupt } from "../graph/interrupt.js";
import { createMessageId } from "../graph/messages.js";
import type { GraphRun, RunConfig, RunOutcome } from "../graph/run-outcome.js";
import type { ProtocolGraph, ProtocolRunOptions, ProtocolThread } from "../graph/protocol-graph.js";
import type { Message } from "../types/messages.js";
import type { Principal } from "../types/principal.js";
import { breakpointInterrupts, type BreakpointNodes, breakpointPlan, breakpointsOf, changedSinceBreakpoint, stopsAt, unrunResults } from "./breakpoints.js";
import { type BreakpointStop, defaultResumeValue, type PendingInterrupt, pendingInterrupts, type ResumeValue, resumePlan, type TaskLike, type ToolCallLike } from "./interrupts.js";
import { fromLangChain, jsonCopy, toLangChain } from "./messages.js";
import { StreamMapper } from "./stream-mapper.js";
import { howToAnswer } from "./typed-answer.js";
import { errorMessage } from "../errors/error-message.js";

/**
 * What fromLangGraph() takes: a compiled StateGraph, or a createAgent() agent. Loosely typed, so
 * that graphs of any state type fit; what is called is `stream`, `getState` and the checkpointer.
 */
export interface LangGraphLike {
  name?: string | undefined;
  checkpointer?: unknown;
  stream(input: never, config: never): Promise<AsyncIterable<unknown>>;
  getState(config: never): unknown;
}

/** The graph as it is called here. */
interface Graph {
  name?: string | undefined;
  checkpointer?: BaseCheckpointSaver | boolean | undefined;
  stream(input: unknown, config: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: { configurable: Record<string, unknown> }): Promise<StateSnapshotLike>;
  updateState?(config: { configurable: Record<string, unknown> }, values: unknown, asNode?: string): Promise<unknown>;
}

/** The parts of a LangGraph state snapshot read here. */
export interface StateSnapshotLike {
  values: unknown;
  next: readonly string[];
  tasks: readonly TaskLike[];
  createdAt?: string | undefined;
  /** The checkpoint this state is of, and the one before it. */
  config?: { configurable: Record<string, unknown> } | undefined;
  parentConfig?: { configurable: Record<string, unknown> } | undefined;
}

/** What a LangGraph node or tool finds in `config.configurable.weft` (see weftContext()). */
export interface WeftRunContext {
  /** The thread: for an editor session, its session id. */
  sessionId: string;
  /** The session's directory, when the run has one. */
  cwd?: string | undefined;
  /** Who the run acts for. */
  principal?: Principal | undefined;
  /** The run's settings (the session's config values) as they were when it started. */
  config: RunConfig;
}

export interface FromLangGraphOptions {
  /** The graph's name, as servers show it. Defaults to the graph's own, else "langgraph". */
  name?: string | undefined;
  /**
   * Where the graph keeps its checkpoints, when it was compiled without a checkpointer. Without
   * either, a MemorySaver: sessions then last as long as the process.
   */
  checkpointer?: BaseCheckpointSaver | undefined;
  /**
   * The graph's input for a run, from what the protocol server gives (for ACP, `{ messages }`: the
   * session's conversation with the prompt, as weft messages). Defaults to those messages as
   * LangChain messages, only the ones the thread does not hold yet.
   */
  input?: ((input: unknown, context: { known: ReadonlySet<string> }) => unknown) | undefined;
  /**
   * What the person is shown when a run completes, from the graph's final state: text (Markdown),
   * anything else as JSON, undefined or null for nothing. By default nothing for a graph with a
   * `messages` channel (its messages are shown as they stream); for a graph without one, its final
   * state as JSON, and, when `input` was not given, a note that the prompt did not reach it.
   */
  output?: ((state: unknown) => unknown) | undefined;
  /** How an answer to a question (not a tool approval) becomes the resume value. See defaultResumeValue. */
  resumeValue?: ResumeValue | undefined;
  /** The most steps a run may take (LangGraph's recursionLimit). LangGraph's default when absent. */
  recursionLimit?: number | undefined;
}

/** The key under `configurable` where a LangGraph node or tool finds the run's WeftRunContext. */
export const WEFT_CONFIG_KEY = "weft";

/** The run's WeftRunContext, from the `config` a LangGraph node or tool is given; undefined outside weft. */
export function weftContext(config: { configurable?: Record<string, unknown> | undefined } | undefined): WeftRunContext | undefined {
  return config?.configurable?.[WEFT_CONFIG_KEY] as WeftRunContext | undefined;
}

/** Serves a compiled LangGraph graph, or a createAgent() agent, as a ProtocolGraph. */
export function fromLangGraph(graph: LangGraphLike, options: FromLangGraphOptions = {}): ProtocolGraph {
  return new LangGraphAdapter(graph as unknown as Graph, options);
}

type Mode = { kind: "run"; input: unknown } | { kind: "resume"; answers: Record<string, unknown> } | { kind: "continue" };

class LangGraphAdapter implements ProtocolGraph {
  readonly name: string;
  /** Threads with a run in this process. */
  private readonly active = new Set<string>();
  /** The last run id of each thread in this process. */
  private readonly runIds = new Map<string, string>();
  private readonly checkpointer: BaseCheckpointSaver | undefined;
  /** The graph's static breakpoints (interruptBefore, interruptAfter), if it has any. */
  private readonly breakpoints: BreakpointNodes | undefined;

  constructor(
    private readonly graph: Graph,
    private readonly options: FromLangGraphOptions,
  ) {
    this.name = options.name ?? (graph.name && graph.name !== "LangGraph" ? graph.name : "langgraph");
    if (!graph.checkpointer || graph.checkpointer === true) {
      // A graph needs a checkpointer for interrupts and for threads; give it the one we were given.
      graph.checkpointer = options.checkpointer ?? new MemorySaver();
    }
    this.checkpointer = typeof graph.checkpointer === "object" ? graph.checkpointer : undefined;
    this.breakpoints = breakpointsOf(graph);
  }

  run(input: unknown, options: ProtocolRunOptions): GraphRun {
    return this.start({ kind: "run", input }, options);
  }

  resume(answers: Record<string, unknown>, options: ProtocolRunOptions): GraphRun {
    return this.start({ kind: "resume", answers }, options);
  }

  continue(options: ProtocolRunOptions): GraphRun {
    return this.start({ kind: "continue" }, options);
  }

  async thread(threadId: string): Promise<ProtocolThread | undefined> {
    const state = await this.state(threadId);
    if (!state) {
      return undefined;
    }
    const pending = (await this.pending(state)).map((entry) => entry.interrupt);
    const runId = this.runIds.get(threadId) ?? "";
    if (this.active.has(threadId)) {
      return { status: "running", runId, seq: 0, pending: [] };
    }
    if (pending.length > 0) {
      return { status: "interrupted", runId, seq: 0, pending };
    }
    return { status: cutShort(state) ? "unfinished" : "completed", runId, seq: 0, pending: [] };
  }

  async deleteThread(threadId: string): Promise<void> {
    this.runIds.delete(threadId);
    await this.checkpointer?.deleteThread(threadId);
  }

  private start(mode: Mode, options: ProtocolRunOptions): GraphRun {
    const runId = options.runId ?? `run_${randomUUID()}`;
    const events = new EventQueue<RunEvent>();
    const outcome = this.execute(mode, { ...options, runId }, (event) => events.push(event)).then((result) => {
      events.push({ type: "run-end", status: result.status });
      events.close();
      return result;
    });
    return { runId, threadId: options.threadId, outcome, [Symbol.asyncIterator]: () => events[Symbol.asyncIterator]() };
  }

  /** The thread's state, or undefined when it has no checkpoint. */
  private async state(threadId: string): Promise<StateSnapshotLike | undefined> {
    const state = await this.graph.getState({ configurable: { thread_id: threadId } });
    return state.createdAt === undefined && state.next.length === 0 && state.tasks.length === 0 ? undefined : state;
  }

  /** What the thread waits on: its interrupts, or what a stop at a static breakpoint asks. */
  private async pending(state: StateSnapshotLike): Promise<PendingInterrupt[]> {
    const messages = messagesIn(state.values);
    const asked = pendingInterrupts(state.tasks, lastToolCalls(messages));
    if (asked.length > 0 || !this.breakpoints) {
      return asked;
    }
    const stop = await this.breakpointStop(state, this.breakpoints);
    return stop ? breakpointInterrupts(stop, unansweredCalls(messages)) : [];
  }

  /**
   * Where the thread stopped at a breakpoint, when it did: steps are left to run, the graph stops
   * before one of them (or after one of the steps that ran last), and it was not resumed past the
   * stop. Read from the checkpoint, so a stop is asked about again after a restart, and never
   * carried on unasked as a run cut short would be.
   */
  private async breakpointStop(state: StateSnapshotLike, breakpoints: BreakpointNodes): Promise<BreakpointStop | undefined> {
    if (state.next.length === 0 || !state.config || !this.checkpointer) {
      return undefined;
    }
    const tuple = await this.checkpointer.getTuple(state.config);
    if (!tuple || !changedSinceBreakpoint(tuple.checkpoint)) {
      return undefined;
    }
    const checkpointId = tuple.checkpoint.id;
    const before = state.next.filter((node) => stopsAt(breakpoints.before, node));
    if (before.length > 0) {
      return { when: "before", nodes: before, checkpointId };
    }
    if ((breakpoints.after !== "*" && breakpoints.after.length === 0) || !state.parentConfig) {
      return undefined;
    }
    const ran = (await this.graph.getState(state.parentConfig)).next.filter((node) => stopsAt(breakpoints.after, node));
    return ran.length > 0 ? { when: "after", nodes: ran, checkpointId } : undefined;
  }

  private async execute(mode: Mode, options: ProtocolRunOptions & { runId: string }, emit: (event: RunEvent) => void): Promise<RunOutcome> {
    const { threadId, signal } = options;
    if (this.active.has(threadId)) {
      return { status: "failed", error: new ThreadBusyError(threadId) };
    }
    this.active.add(threadId);
    this.runIds.set(threadId, options.runId);
    try {
      const before = await this.state(threadId);
      const known = new Set(messagesIn(before?.values).flatMap((message) => (message.id === undefined ? [] : [message.id])));
      const pendingBefore = before ? await this.pending(before) : [];
      const planned = this.plan(mode, threadId, before, known, pendingBefore);
      if ("outcome" in planned) {
        planned.events?.forEach(emit);
        if (planned.outcome.status === "interrupted") {
          for (const interrupt of planned.outcome.interrupts) {
            emit({ type: "interrupt", interrupt });
          }
        }
        return planned.outcome;
      }
      const { input, rejected, write } = planned;
      if (write) {
        // Written as if the stopped step had run, so the graph goes on past it.
        await this.graph.updateState?.(before?.config ?? { configurable: { thread_id: threadId } }, { messages: write.messages }, write.asNode);
      }
      emit({ type: "run-start", runId: options.runId, threadId, mode: mode.kind });
      const mapper = new StreamMapper(emit, known, rejected);
      if (mode.kind !== "run") {
        // The calls the run was paused or cut before: each ends in this run, or is closed at its end.
        for (const call of unansweredCalls(messagesIn(before?.values))) {
          mapper.expect(call.id ?? "", call.name);
        }
      }
      if (write) {
        mapper.written(write.messages);
      }
      try {
        const stream = await this.graph.stream(input, this.config(options));
        for await (const chunk of stream) {
          mapper.take(chunk);
        }
      } catch (error) {
        if (signal?.aborted) {
          return { status: "cancelled" };
        }
        const refused = mode.kind === "resume" ? await this.refusedAnswer(error, threadId, mode.answers) : undefined;
        if (refused) {
          noteEvents(refused.note).forEach(emit);
          for (const interrupt of refused.pending) {
            emit({ type: "interrupt", interrupt });
          }
          return { status: "interrupted", interrupts: refused.pending };
        }
        return { status: "failed", error: error instanceof Error ? error : new Error(String(error)) };
      }
      if (signal?.aborted) {
        return { status: "cancelled" };
      }
      const after = await this.state(threadId);
      const pending = after ? (await this.pending(after)).map((entry) => entry.interrupt) : [];
      if (pending.length > 0) {
        for (const interrupt of pending) {
          emit({ type: "interrupt", interrupt });
        }
        emit({ type: "checkpoint", step: 0, seq: 0, status: "interrupted" });
        return { status: "interrupted", interrupts: pending };
      }
      mapper.closeOpen();
      const values = (after?.values ?? {}) as Record<string, unknown>;
      const shown = this.shownOutput(values);
      if (shown !== undefined) {
        agentMessage(shown).forEach(emit);
      }
      emit({ type: "checkpoint", step: 0, seq: 0, status: "completed" });
      const messages = messagesIn(values).flatMap((message) => fromLangChain(message) ?? []);
      return { status: "completed", output: { ...values, messages } };
    } catch (error) {
      return signal?.aborted ? { status: "cancelled" } : { status: "failed", error: error instanceof Error ? error : new Error(String(error)) };
    } finally {
      this.active.delete(threadId);
    }
  }

  /**
   * What the stream starts from: the input (null carries the thread on from its last checkpoint)
   * and the calls a resume rejects; or the outcome at once, when there is nothing to run.
   */
  private plan(
    mode: Mode,
    threadId: string,
    before: StateSnapshotLike | undefined,
    known: ReadonlySet<string>,
    pending: readonly PendingInterrupt[],
  ): { input: unknown; rejected: Set<string>; write?: { messages: BaseMessage[]; asNode: string | undefined } } | { outcome: RunOutcome; events?: RunEvent[] } {
    const unfinished = before !== undefined && cutShort(before) && pending.length === 0;
    const waiting: RunOutcome | undefined = pending.length > 0 ? { status: "interrupted", interrupts: pending.map((entry) => entry.interrupt) } : undefined;
    switch (mode.kind) {
      case "run": {
        const input = this.input(mode.input, known, before);
        if (input !== undefined) {
          return { input, rejected: new Set() };
        }
        // The thread holds the input already: a turn started over after a crash. One that waits on
        // the person asks again; any other carries on from its last checkpoint (a run that ended
        // gives its final state again, without running a node).
        return waiting ? { outcome: waiting } : { input: null, rejected: new Set() };
      }
      case "resume": {
        if (unfinished) {
          // Answered before the agent stopped, and carried on since: carry on again.
          return { input: null, rejected: new Set() };
        }
        if (before && pending.some((entry) => entry.breakpoint)) {
          return this.planAtBreakpoint(threadId, before, pending, mode.answers);
        }
        const plan = resumePlan(pending, mode.answers, this.options.resumeValue ?? defaultResumeValue);
        if (plan.invalid.length > 0 && plan.unknown.length === 0 && waiting) {
          // Said why, and asked again: the graph is not resumed with an answer it would refuse.
          return { outcome: waiting, events: plan.invalid.flatMap((entry) => noteEvents(entry.message)) };
        }
        if (plan.unknown.length > 0 || Object.keys(plan.resume).length === 0) {
          const ids = plan.unknown.length > 0 ? plan.unknown : Object.keys(mode.answers);
          return { outcome: { status: "failed", error: new UnknownInterruptError(threadId, ids, plan.unknown.length > 0 ? "not_pending" : "empty") } };
        }
        if (plan.missing.length > 0) {
          return { outcome: { status: "failed", error: new WeftError("unknown_interrupt", `The tool calls of one model turn are answered together; ${plan.missing.join(", ")} had no answer.`) } };
        }
        return { input: new Command({ resume: plan.resume }), rejected: plan.rejected };
      }
      case "continue":
        if (unfinished) {
          return { input: null, rejected: new Set() };
        }
        return waiting ? { outcome: waiting } : { outcome: { status: "failed", error: new WeftError("nothing_to_continue", `Thread ${threadId} has no run to carry on.`) } };
    }
  }

  /**
   * How a run stopped at a breakpoint goes on, by the answers: from the stop (the calls it held
   * back run, or, one rejected, none runs and each is given a result as the stopped step); or the
   * turn ends there ("stop"); or the question is asked again when its answer could not be read.
   */
  private planAtBreakpoint(
    threadId: string,
    before: StateSnapshotLike,
    pending: readonly PendingInterrupt[],
    answers: Record<string, unknown>,
  ): { input: unknown; rejected: Set<string>; write?: { messages: BaseMessage[]; asNode: string | undefined } } | { outcome: RunOutcome; events?: RunEvent[] } {
    const unknown = Object.keys(answers).filter((id) => !pending.some((entry) => entry.interrupt.id === id));
    if (unknown.length > 0) {
      return { outcome: { status: "failed", error: new UnknownInterruptError(threadId, unknown, "not_pending") } };
    }
    const plan = breakpointPlan(pending, answers);
    if (plan.go) {
      const messages = unrunResults(plan);
      if (messages.length === 0) {
        return { input: null, rejected: new Set() };
      }
      const [stopped] = before.next;
      return { input: null, rejected: new Set(messages.map((message) => (message as ToolMessage).tool_call_id)), write: { messages, asNode: before.next.length === 1 ? stopped : undefined } };
    }
    if (plan.stop) {
      const values = (before.values ?? {}) as Record<string, unknown>;
      const output = { ...values, messages: messagesIn(values).flatMap((message) => fromLangChain(message) ?? []) };
      return { outcome: { status: "completed", output }, events: agentMessage(plan.note) };
    }
    if (plan.missing.length > 0) {
      return { outcome: { status: "failed", error: new WeftError("unknown_interrupt", `The calls a breakpoint stopped are answered together; ${plan.missing.join(", ")} had no answer.`) } };
    }
    return { outcome: { status: "interrupted", interrupts: pending.map((entry) => entry.interrupt) }, events: plan.problems.flatMap((problem) => noteEvents(problem)) };
  }

  /**
   * When a resume failed because the graph refused an answer (LangGraph checks it against the
   * interrupt's Zod schema, refinements and all) and the question is still pending: what to tell
   * the person, and the interrupts to ask again. Undefined for any other failure.
   */
  private async refusedAnswer(error: unknown, threadId: string, answers: Record<string, unknown>): Promise<{ note: string; pending: Interrupt[] } | undefined> {
    const issues = refusedAnswerIssues(error);
    if (!issues) {
      return undefined;
    }
    const after = await this.state(threadId);
    const pending = after ? (await this.pending(after)).map((entry) => entry.interrupt) : [];
    const asked = pending.find((interrupt) => interrupt.id in answers && interrupt.schema !== undefined);
    if (!asked?.schema) {
      return undefined;
    }
    const inWords = (answers[asked.id] as { action?: unknown } | null | undefined)?.action === "reply";
    return { note: `That answer does not fit: ${issues}.${inWords ? ` ${howToAnswer(asked.schema)}` : ""}`, pending };
  }

  /** What to show of a completed run's final state (see FromLangGraphOptions.output), or undefined for nothing. */
  private shownOutput(values: Record<string, unknown>): string | undefined {
    if (this.options.output) {
      const shown = this.options.output(values);
      return shown === undefined || shown === null ? undefined : typeof shown === "string" ? shown : jsonBlock(shown);
    }
    if (this.hasMessages(values)) {
      return undefined;
    }
    const state = `The graph finished. Its state has no \`messages\` channel, so here is its final state:\n\n${jsonBlock(values)}`;
    if (this.options.input) {
      return state;
    }
    return (
      `${state}\n\nThe prompt did not reach the graph either: its input is the conversation as \`{ messages }\`, which a graph without a \`messages\` channel ignores. ` +
      "Export `toInput` and `fromOutput` from the `--graph` module (or give fromLangGraph() `input` and `output`) to make a prompt its input and its state a reply."
    );
  }

  /** Whether the graph keeps a conversation: its channels name `messages` (or, when they cannot be read, its state has them). */
  private hasMessages(values: Record<string, unknown>): boolean {
    const graph = this.graph as { channels?: unknown; graph?: { channels?: unknown } };
    const channels = graph.channels ?? graph.graph?.channels;
    return typeof channels === "object" && channels !== null ? "messages" in channels : "messages" in values;
  }

  /** The graph's input; undefined when it adds nothing the thread does not hold. */
  private input(given: unknown, known: ReadonlySet<string>, before: StateSnapshotLike | undefined): unknown {
    if (this.options.input) {
      return this.options.input(given, { known });
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

  private config(options: ProtocolRunOptions & { runId: string }): Record<string, unknown> {
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
    if (this.options.recursionLimit !== undefined) {
      config.recursionLimit = this.options.recursionLimit;
    }
    return config;
  }
}

/**
 * The problems of an answer the graph refused, in words (`city: There is no Atlantis`), when
 * `error` is that: LangGraph marks such errors (from 1.5.3; before, the schema's own error comes
 * as it is), and a Zod error lists its issues, here or as the error's cause.
 */
function refusedAnswerIssues(error: unknown): string | undefined {
  let marked = false;
  let current = error;
  for (let depth = 0; depth < 10 && typeof current === "object" && current !== null; depth++) {
    marked ||= (current as Record<symbol, unknown>)[INVALID_RESUME] === true;
    const issues = (current as { issues?: unknown }).issues;
    if (Array.isArray(issues) && issues.length > 0) {
      return issues
        .map((issue: { path?: unknown; message?: unknown }) => {
          const path = Array.isArray(issue.path) ? issue.path.map(String).join(".") : "";
          const message = typeof issue.message === "string" ? issue.message : "is not allowed";
          return path === "" ? message : `${path}: ${message}`;
        })
        .join("; ");
    }
    current = (current as { cause?: unknown }).cause;
  }
  return marked ? errorMessage(error) : undefined;
}

/** LangGraph's mark on an error thrown because a resume value did not fit its interrupt's schema. */
const INVALID_RESUME = Symbol.for("langgraph.invalid_resume");

/** The events of a message from the adapter itself to the person (why an answer was not taken: a paragraph before the question asked again). */
function noteEvents(text: string): RunEvent[] {
  return agentMessage(`${text}\n\n`);
}

/** The events of a message the adapter shows the person, kept in the conversation (but not in the graph's thread). */
function agentMessage(text: string): RunEvent[] {
  const messageId = createMessageId("langgraph-note");
  return [
    { type: "message-start", messageId },
    { type: "text-delta", messageId, delta: text },
    { type: "message-end", messageId },
    { type: "message", message: { id: messageId, role: "assistant", parts: [{ type: "text", text }], createdAt: new Date().toISOString() } },
  ];
}

/** The most characters of a state shown as JSON. */
const SHOWN_STATE_CHARS = 8000;

/** A value as a fenced JSON block, cut at SHOWN_STATE_CHARS. */
function jsonBlock(value: unknown): string {
  const json = JSON.stringify(jsonCopy(value), null, 2) ?? "null";
  const shown = json.length > SHOWN_STATE_CHARS ? `${json.slice(0, SHOWN_STATE_CHARS)}\n… (${json.length - SHOWN_STATE_CHARS} more characters)` : json;
  return `\`\`\`json\n${shown}\n\`\`\``;
}

/** The LangChain messages of a state's `messages` key. */
function messagesIn(values: unknown): BaseMessage[] {
  const messages = (values as { messages?: unknown } | null | undefined)?.messages;
  return Array.isArray(messages) ? (messages as BaseMessage[]) : [];
}

/** The tool calls of the last model message: the ones a human-in-the-loop interrupt asks about. */
function lastToolCalls(messages: readonly BaseMessage[]): ToolCallLike[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as BaseMessage & { tool_calls?: ToolCallLike[] };
    if (message.type === "ai") {
      return message.tool_calls ?? [];
    }
  }
  return [];
}

/** The last model message's calls that have no result after it. */
function unansweredCalls(messages: readonly BaseMessage[]): ToolCallLike[] {
  const calls = lastToolCalls(messages);
  const answered = new Set(messages.flatMap((message) => (message.type === "tool" ? [(message as BaseMessage & { tool_call_id: string }).tool_call_id] : [])));
  return calls.filter((call) => call.id !== undefined && !answered.has(call.id));
}

/**
 * True when the thread's run stopped before it ended: steps are left to run, or its last checkpoint
 * holds tasks whose writes were kept but whose step was never checkpointed (the process died between
 * the two, which LangGraph shows as no `next` and tasks with results).
 */
function cutShort(state: StateSnapshotLike): boolean {
  return state.next.length > 0 || state.tasks.length > 0;
}
