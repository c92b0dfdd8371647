// A graph ready to run on threads. It keeps each thread in a Store through ThreadStore, so runs
// survive the process: another instance over the same store sees the same threads and carries on
// where the last checkpoint left off.

import { randomUUID } from "node:crypto";

import { MemoryStore } from "../store-core/memory-store.js";
import type { Namespace, Store } from "../types/store.js";
import { applyChange } from "./channels.js";
import { EventQueue } from "./event-queue.js";
import type { RunEvent } from "./events.js";
import type { Interrupt } from "./interrupt.js";
import { executeRun, type RunMode } from "./run-graph.js";
import type { GraphRun, RunFinish, RunOptions, RunOutcome } from "./run-outcome.js";
import type { ChannelMap, GraphDefinition, StateOf } from "./graph-definition.js";
import { leaseHeld } from "./lease.js";
import { type StepRecord, ThreadStore, type ThreadStatus } from "./thread-store.js";

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

/** A thread's state as of a step record, cached between runs. */
export interface LoadedThread<S> {
  seq: number;
  state: S;
  last: StepRecord | undefined;
}

const CACHE_LIMIT = 256;

export class CompiledGraph<C extends ChannelMap, I> {
  readonly name: string;
  readonly threads: ThreadStore;
  readonly maxSteps: number;
  readonly leaseMs: number;
  /** Threads with a run in this instance. */
  readonly active = new Set<string>();
  private readonly cache = new Map<string, LoadedThread<StateOf<C>>>();

  constructor(
    readonly definition: GraphDefinition<C, I>,
    options: CompileOptions,
  ) {
    this.name = definition.name;
    this.threads = new ThreadStore(options.store ?? new MemoryStore(), options.namespace ?? ["weft", "graphs", definition.name]);
    this.maxSteps = options.maxSteps ?? 100;
    this.leaseMs = options.leaseMs ?? 30_000;
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
    const read = await this.threads.readHead(threadId);
    if (!read) {
      return undefined;
    }
    const { head } = read;
    const status = head.status === "running" && !this.active.has(threadId) && !leaseHeld(head.lease) ? "unfinished" : head.status;
    const info: ThreadInfo = { status, runId: head.runId, seq: head.seq, pending: head.pending ?? [] };
    if (head.finish !== undefined) {
      info.finish = head.finish;
    }
    return info;
  }

  /** Forgets a thread: its state, its checkpoints and its status. A run in progress is not stopped. */
  async deleteThread(threadId: string): Promise<void> {
    this.cache.delete(threadId);
    await this.threads.deleteThread(threadId);
  }

  /** The thread's state after its last checkpoint. */
  async state(threadId: string): Promise<StateOf<C> | undefined> {
    const read = await this.threads.readHead(threadId);
    return read && (await this.load(threadId, read.head.seq)).state;
  }

  /** The thread's state and last record, using the cache when it is current. */
  async load(threadId: string, headSeq: number): Promise<LoadedThread<StateOf<C>>> {
    const cached = this.cache.get(threadId);
    if (cached && cached.seq === headSeq) {
      return cached;
    }
    const base = cached && cached.seq < headSeq ? cached : { seq: 0, state: this.initialState(), last: undefined };
    const records = await this.threads.readRecords(threadId, base.seq);
    let state = base.state;
    let last = base.last;
    for (const record of records) {
      if (record.changes) {
        state = { ...state };
        for (const [name, change] of Object.entries(record.changes)) {
          if (name in this.definition.channels) {
            (state as Record<string, unknown>)[name] = applyChange(state[name], change);
          }
        }
      }
      last = record;
    }
    const loaded = { seq: last?.seq ?? 0, state, last };
    this.remember(threadId, loaded);
    return loaded;
  }

  remember(threadId: string, loaded: LoadedThread<StateOf<C>>): void {
    this.cache.delete(threadId);
    this.cache.set(threadId, loaded);
    if (this.cache.size > CACHE_LIMIT) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) {
        this.cache.delete(oldest);
      }
    }
  }

  initialState(): StateOf<C> {
    const state: Record<string, unknown> = {};
    for (const [name, channel] of Object.entries(this.definition.channels)) {
      state[name] = channel.initial();
    }
    return state as StateOf<C>;
  }

  private start(mode: RunMode<I>, options: RunOptions): GraphRun<StateOf<C>> {
    const runId = options.runId ?? `run_${randomUUID()}`;
    const events = new EventQueue<RunEvent>();
    const outcome: Promise<RunOutcome<StateOf<C>>> = executeRun(this, mode, { ...options, runId }, (event) => events.push(event)).then(
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
