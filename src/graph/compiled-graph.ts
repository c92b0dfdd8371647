// A graph ready to run on threads. It keeps each thread in a Store through ThreadStore, so runs
// survive the process: another instance over the same store sees the same threads and carries on
// where the last checkpoint left off.

import { randomUUID } from "node:crypto";

import { MemoryStore } from "../store-core/memory-store.js";
import type { Namespace, Store } from "../types/store.js";
import { EventQueue } from "./event-queue.js";
import type { RunEvent } from "./events.js";
import type { Interrupt } from "./interrupt.js";
import { executeRun, type RunMode, type RunTarget } from "./run-graph.js";
import type { GraphRun, RunFinish, RunOptions, RunOutcome } from "./run-outcome.js";
import type { ChannelMap, GraphDefinition, StateOf } from "./graph-definition.js";
import { leaseHeld } from "./lease.js";
import { ThreadStates } from "./thread-states.js";
import { ThreadStore, type ThreadStatus } from "./thread-store.js";

export interface CompileOptions {
  /** Where threads are kept. Defaults to a MemoryStore of this graph's own. */
  store?: Store | undefined;
  /** Where in the store. Defaults to `["weft", "graphs", <name>]`. */
  namespace?: Namespace | undefined;
  /** The most steps one run may take before it ends with `finish: "max_steps"`. Default 100. */
  maxSteps?: number | undefined;
  /** How long a run's claim on its thread lasts without renewal. Default 30 s. */
  leaseMs?: number | undefined;
}

/** What a thread is doing. `unfinished`: a run stopped without ending (its process died). */
export interface ThreadInfo {
  status: ThreadStatus | "unfinished";
  runId: string;
  seq: number;
  pending: Interrupt[];
  finish?: RunFinish | undefined;
}

/**
 * Runs, resumes and carries on runs on threads, and reads or forgets a thread. What a run needs
 * (the definition, the thread store and states, the limits) it is handed as a RunTarget, so none of
 * it is public here.
 */
export class CompiledGraph<C extends ChannelMap, I> {
  readonly name: string;
  private readonly target: RunTarget<C, I>;

  constructor(definition: GraphDefinition<C, I>, options: CompileOptions) {
    this.name = definition.name;
    const threads = new ThreadStore(options.store ?? new MemoryStore(), options.namespace ?? ["weft", "graphs", definition.name]);
    this.target = {
      definition,
      threads,
      states: new ThreadStates(definition.channels, threads),
      active: new Set(),
      maxSteps: options.maxSteps ?? 100,
      leaseMs: options.leaseMs ?? 30_000,
    };
  }

  /** Starts a run from the thread's current state with `input` applied. */
  run(input: I, options: RunOptions): GraphRun<StateOf<C>> {
    return this.start({ kind: "run", input }, options);
  }

  /**
   * Answers some or all of the interrupts a paused thread waits on, by id, and carries the run
   * on. An id the thread is not waiting on fails the run with UnknownInterruptError and changes
   * nothing.
   */
  resume(answers: Record<string, unknown>, options: RunOptions): GraphRun<StateOf<C>> {
    return this.start({ kind: "resume", answers }, options);
  }

  /** Carries on a run that stopped without ending (a crash, a cancel, a failure) from its last checkpoint. */
  continue(options: RunOptions): GraphRun<StateOf<C>> {
    return this.start({ kind: "continue" }, options);
  }

  /** The thread's status, from its head alone. */
  async thread(threadId: string): Promise<ThreadInfo | undefined> {
    const read = await this.target.threads.readHead(threadId);
    if (!read) {
      return undefined;
    }
    const { head } = read;
    const status = head.status === "running" && !this.target.active.has(threadId) && !leaseHeld(head.lease) ? "unfinished" : head.status;
    const info: ThreadInfo = { status, runId: head.runId, seq: head.seq, pending: head.pending ?? [] };
    if (head.finish !== undefined) {
      info.finish = head.finish;
    }
    return info;
  }

  /** Forgets a thread: its state, its checkpoints and its status. A run in progress is not stopped. */
  async deleteThread(threadId: string): Promise<void> {
    this.target.states.forget(threadId);
    await this.target.threads.deleteThread(threadId);
  }

  /** The thread's state after its last checkpoint. */
  async state(threadId: string): Promise<StateOf<C> | undefined> {
    const read = await this.target.threads.readHead(threadId);
    return read && (await this.target.states.load(threadId, read.head.seq)).state;
  }

  private start(mode: RunMode<I>, options: RunOptions): GraphRun<StateOf<C>> {
    const runId = options.runId ?? `run_${randomUUID()}`;
    const events = new EventQueue<RunEvent>();
    const outcome: Promise<RunOutcome<StateOf<C>>> = executeRun(this.target, mode, { ...options, runId }, (event) => events.push(event)).then(
      (result) => {
        events.close();
        return result;
      },
    );
    return {
      runId,
      threadId: options.threadId,
      outcome,
      [Symbol.asyncIterator]: () => events[Symbol.asyncIterator](),
    };
  }
}
