// The seam between a graph and a protocol server. A server needs only this: start a run on a
// thread with some input, answer the interrupts a paused run waits on, watch the events, and read
// the outcome. Graphs built with StateGraph (and agents from createAgent) implement it.

import type { ThreadInfo } from "./compiled-graph.js";
import type { RunEvent } from "./events.js";
import type { Interrupt } from "./interrupt.js";
import type { GraphRun, RunOptions, RunOutcome } from "./run-outcome.js";

/** A question a paused run waits on, with its stable id. */
export type ProtocolInterrupt = Interrupt;

/** How a run ended: `completed`, `interrupted`, `cancelled` or `failed`. */
export type ProtocolResult = RunOutcome;

/** The thread, principal and cancel signal of a run. */
export type ProtocolRunOptions = RunOptions;

/** One event of a run. */
export type ProtocolEvent = RunEvent;

/** A run in progress: its events, then its outcome. */
export type ProtocolRun = GraphRun;

/** A thread's status, for servers that carry on runs after a restart. */
export type ProtocolThread = ThreadInfo;

/** What a protocol server can serve. */
export interface ProtocolGraph {
  readonly name: string;
  /** Starts a run on `options.threadId` with `input`. */
  run(input: unknown, options: ProtocolRunOptions): ProtocolRun;
  /** Answers interrupts by id and carries the paused run on. */
  resume(answers: Record<string, unknown>, options: ProtocolRunOptions): ProtocolRun;
  /** Carries on a run that stopped without ending, from its last checkpoint. */
  continue?(options: ProtocolRunOptions): ProtocolRun;
  /** The thread's status, without loading its state. */
  thread?(threadId: string): Promise<ProtocolThread | undefined>;
  /** Forgets a thread (when its session is deleted). */
  deleteThread?(threadId: string): Promise<void>;
}
