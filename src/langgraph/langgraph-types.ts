// The shapes fromLangGraph() reads a LangGraph graph by (what it calls, the state snapshots it
// reads), and the options it takes.

import type { BaseCheckpointSaver } from "@langchain/langgraph";

import type { ResumeValue, TaskLike } from "./interrupts.js";

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
export interface Graph {
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
