// Reading a LangGraph thread: its state at the last checkpoint, what it waits on (its interrupts, or
// the questions a stop at a static breakpoint asks), and the messages and tool calls in it.

import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";

import type { Interrupt } from "../graph/interrupt.js";
import { breakpointInterrupts, type BreakpointNodes, changedSinceBreakpoint, stopsAt } from "./breakpoints.js";
import { type BreakpointStop, type PendingInterrupt, pendingInterrupts, type ToolCallLike } from "./interrupts.js";
import type { Graph, StateSnapshotLike } from "./langgraph-types.js";

export class ThreadReader {
  constructor(
    private readonly graph: Graph,
    private readonly checkpointer: BaseCheckpointSaver | undefined,
    /** The graph's static breakpoints (interruptBefore, interruptAfter), if it has any. */
    private readonly breakpoints: BreakpointNodes | undefined,
  ) {}

  /** The thread's state, or undefined when it has no checkpoint. */
  async state(threadId: string): Promise<StateSnapshotLike | undefined> {
    const state = await this.graph.getState({ configurable: { thread_id: threadId } });
    return state.createdAt === undefined && state.next.length === 0 && state.tasks.length === 0 ? undefined : state;
  }

  /** What the thread waits on: its interrupts, or what a stop at a static breakpoint asks. */
  async pending(state: StateSnapshotLike): Promise<PendingInterrupt[]> {
    const messages = messagesIn(state.values);
    const asked = pendingInterrupts(state.tasks, lastToolCalls(messages));
    if (asked.length > 0 || !this.breakpoints) {
      return asked;
    }
    const stop = await this.breakpointStop(state, this.breakpoints);
    return stop ? breakpointInterrupts(stop, unansweredCalls(messages)) : [];
  }

  /** The interrupts a state waits on; none for no state. */
  async interrupts(state: StateSnapshotLike | undefined): Promise<Interrupt[]> {
    return state ? (await this.pending(state)).map((entry) => entry.interrupt) : [];
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
}

/** The LangChain messages of a state's `messages` key. */
export function messagesIn(values: unknown): BaseMessage[] {
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
export function unansweredCalls(messages: readonly BaseMessage[]): ToolCallLike[] {
  const calls = lastToolCalls(messages);
  const answered = new Set(messages.flatMap((message) => (message.type === "tool" ? [(message as BaseMessage & { tool_call_id: string }).tool_call_id] : [])));
  return calls.filter((call) => call.id !== undefined && !answered.has(call.id));
}

/**
 * True when the thread's run stopped before it ended: steps are left to run, or its last checkpoint
 * holds tasks whose writes were kept but whose step was never checkpointed (the process died between
 * the two, which LangGraph shows as no `next` and tasks with results).
 */
export function cutShort(state: StateSnapshotLike): boolean {
  return state.next.length > 0 || state.tasks.length > 0;
}
