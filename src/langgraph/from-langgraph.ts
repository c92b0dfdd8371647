// fromLangGraph(): a compiled LangGraph.js graph (or a LangChain createAgent() agent) as a
// ProtocolGraph, so serveAcp() serves it like one of weft's own. The graph keeps its state in its
// checkpointer, keyed by the session's id as `thread_id`; what the editor is shown comes from the
// graph's stream (stream-mapper.ts), and what the graph waits on from its pending tasks
// (interrupts.ts, read by thread-state.ts). How a run starts is run-plan.ts, and what it streams
// the graph with run-input.ts. The session's conversation is weft's own: every message the graph
// finishes is announced, so the session keeps it, tool calls and all.

import { randomUUID } from "node:crypto";

import { type BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph";

import { EventQueue } from "../graph/event-queue.js";
import type { RunEvent } from "../graph/events.js";
import { ThreadBusyError } from "../graph/graph-errors.js";
import type { GraphRun, RunOutcome } from "../graph/run-outcome.js";
import type { ProtocolGraph, ProtocolRunOptions, ProtocolThread } from "../graph/protocol-graph.js";
import { agentMessage, noteEvents, shownOutput } from "./adapter-messages.js";
import { breakpointsOf } from "./breakpoints.js";
import type { FromLangGraphOptions, Graph, LangGraphLike } from "./langgraph-types.js";
import { fromLangChain } from "./messages.js";
import { refusedAnswer } from "./refused-answer.js";
import { graphInput, runConfig } from "./run-input.js";
import { type Mode, planRun } from "./run-plan.js";
import { StreamMapper } from "./stream-mapper.js";
import { cutShort, messagesIn, ThreadReader, unansweredCalls } from "./thread-state.js";

export type { FromLangGraphOptions, LangGraphLike, StateSnapshotLike } from "./langgraph-types.js";
export { WEFT_CONFIG_KEY, weftContext, type WeftRunContext } from "./weft-context.js";

/** Serves a compiled LangGraph graph, or a createAgent() agent, as a ProtocolGraph. */
export function fromLangGraph(graph: LangGraphLike, options: FromLangGraphOptions = {}): ProtocolGraph {
  return new LangGraphAdapter(graph as unknown as Graph, options);
}

class LangGraphAdapter implements ProtocolGraph {
  readonly name: string;
  /** Threads with a run in this process. */
  private readonly active = new Set<string>();
  /** The last run id of each thread in this process. */
  private readonly runIds = new Map<string, string>();
  private readonly checkpointer: BaseCheckpointSaver | undefined;
  private readonly threads: ThreadReader;

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
    this.threads = new ThreadReader(graph, this.checkpointer, breakpointsOf(graph));
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
    const state = await this.threads.state(threadId);
    if (!state) {
      return undefined;
    }
    const pending = await this.threads.interrupts(state);
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

  private async execute(mode: Mode, options: ProtocolRunOptions & { runId: string }, emit: (event: RunEvent) => void): Promise<RunOutcome> {
    const { threadId, signal } = options;
    if (this.active.has(threadId)) {
      return { status: "failed", error: new ThreadBusyError(threadId) };
    }
    this.active.add(threadId);
    this.runIds.set(threadId, options.runId);
    try {
      const before = await this.threads.state(threadId);
      const known = new Set(messagesIn(before?.values).flatMap((message) => (message.id === undefined ? [] : [message.id])));
      const pendingBefore = before ? await this.threads.pending(before) : [];
      const planned = planRun(mode, {
        threadId,
        before,
        pending: pendingBefore,
        input: (given) => graphInput(given, known, before, this.options.input),
        resumeValue: this.options.resumeValue,
      });
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
        const stream = await this.graph.stream(input, runConfig(options, this.options.recursionLimit));
        for await (const chunk of stream) {
          mapper.take(chunk);
        }
      } catch (error) {
        if (signal?.aborted) {
          return { status: "cancelled" };
        }
        const refused = mode.kind === "resume" ? await refusedAnswer(error, mode.answers, async () => this.threads.interrupts(await this.threads.state(threadId))) : undefined;
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
      const after = await this.threads.state(threadId);
      const pending = await this.threads.interrupts(after);
      if (pending.length > 0) {
        for (const interrupt of pending) {
          emit({ type: "interrupt", interrupt });
        }
        emit({ type: "checkpoint", step: 0, seq: 0, status: "interrupted" });
        return { status: "interrupted", interrupts: pending };
      }
      mapper.closeOpen();
      const values = (after?.values ?? {}) as Record<string, unknown>;
      const shown = shownOutput(values, this.graph, this.options);
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
}
