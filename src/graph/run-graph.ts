// Executes one run of a compiled graph: claims the thread, applies the input (or the answers),
// then runs steps until the graph ends, pauses on interrupts, is cancelled, or fails. After every
// step the thread's change is committed to the store before the next step starts. Holding the
// thread is `thread-claim.ts`'s, running a step's nodes `run-tasks.ts`'s, and folding their writes
// into the state and routing `apply-writes.ts`'s; this file orders the phases.

import { WeftError } from "../errors/weft-error.js";
import type { JsonValue } from "../types/json.js";
import { applyWrites, route, stateChanges } from "./apply-writes.js";
import type { RunEvent } from "./events.js";
import { LeaseLostError, NodeFailedError, ThreadBusyError, UnknownInterruptError } from "./graph-errors.js";
import type { RunFinish, RunOptions, RunOutcome } from "./run-outcome.js";
import { type ChannelMap, type GraphDefinition, START, type StateOf } from "./graph-definition.js";
import { leaseHeld } from "./lease.js";
import { runTasks, type TaskRun } from "./run-tasks.js";
import { claimThread, type ThreadClaim } from "./thread-claim.js";
import type { LoadedThread, ThreadStates } from "./thread-states.js";
import type { StepRecord, ThreadHead, ThreadStatus, ThreadStore } from "./thread-store.js";

/** What a run needs from its graph: the definition, where its threads are kept, and the limits. */
export interface RunTarget<C extends ChannelMap, I> {
  readonly definition: GraphDefinition<C, I>;
  readonly threads: ThreadStore;
  readonly states: ThreadStates<C>;
  /** Threads with a run in this instance; a second run on one of them fails at once. */
  readonly active: Set<string>;
  readonly maxSteps: number;
  readonly leaseMs: number;
}

export type RunMode<I> = { kind: "run"; input: I } | { kind: "resume"; answers: Record<string, unknown> } | { kind: "continue" };

/** Runs the graph; the returned promise never rejects. */
export async function executeRun<C extends ChannelMap, I>(
  graph: RunTarget<C, I>,
  mode: RunMode<I>,
  options: RunOptions & { runId: string },
  sink: (event: RunEvent) => void,
): Promise<RunOutcome<StateOf<C>>> {
  const runner = new Runner(graph, mode, options, sink);
  try {
    return await runner.execute();
  } catch (error) {
    return runner.finishFailed(error);
  }
}

class Runner<C extends ChannelMap, I> {
  private readonly threadId: string;
  private readonly controller = new AbortController();
  private claim: ThreadClaim | undefined;
  private ended = false;
  private finishReason: RunFinish | undefined;
  private readonly tasks: TaskRun<C>;
  private readonly emit = (event: RunEvent) => {
    if (!this.ended) {
      this.sink(event);
    }
  };

  constructor(
    private readonly graph: RunTarget<C, I>,
    private readonly mode: RunMode<I>,
    private readonly options: RunOptions & { runId: string },
    private readonly sink: (event: RunEvent) => void,
  ) {
    this.threadId = options.threadId;
    this.tasks = {
      graph: graph.definition,
      threadId: this.threadId,
      runId: options.runId,
      principal: options.principal,
      config: options.config,
      signal: this.controller.signal,
      store: graph.threads.store,
      emit: this.emit,
      end: (reason) => {
        this.finishReason = reason;
      },
    };
  }

  async execute(): Promise<RunOutcome<StateOf<C>>> {
    const { graph, threadId } = this;
    this.emit({ type: "run-start", runId: this.options.runId, threadId, mode: this.mode.kind });
    if (graph.active.has(threadId)) {
      return this.end({ status: "failed", error: new ThreadBusyError(threadId) });
    }
    graph.active.add(threadId);
    const onAbort = () => this.controller.abort();
    this.options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await this.executeClaimed();
    } finally {
      this.options.signal?.removeEventListener("abort", onAbort);
      this.claim?.stop();
      graph.active.delete(threadId);
    }
  }

  private async executeClaimed(): Promise<RunOutcome<StateOf<C>>> {
    if (this.options.signal?.aborted) {
      return this.end({ status: "cancelled" });
    }
    const read = await this.graph.threads.readHead(this.threadId);
    const early = await this.refuse(read?.head);
    if (early) {
      return early;
    }
    this.claim = await claimThread(
      this.graph.threads,
      this.threadId,
      { runId: this.options.runId, leaseMs: this.graph.leaseMs, keepPending: this.mode.kind !== "run", onLost: () => this.controller.abort() },
      read,
    );
    if (!this.claim) {
      return this.end({ status: "failed", error: new ThreadBusyError(this.threadId) });
    }
    let loaded = await this.graph.states.load(this.threadId, this.claim.head.seq);
    let seq = Math.max(read?.head.seq ?? 0, loaded.seq);
    let last = loaded.last;

    if (this.mode.kind === "run") {
      const writes = this.graph.definition.input ? this.graph.definition.input(this.mode.input) : this.mode.input;
      const state = applyWrites(this.graph.definition, loaded.state, [writes as Record<string, unknown>]);
      seq++;
      const next = route(this.graph.definition, [START], state);
      last = { v: 1, seq, runId: this.options.runId, kind: "input", step: 0, scheduledAt: seq, next, status: next.length > 0 ? "running" : "completed" };
      const changes = stateChanges(this.graph.definition, loaded.state, state);
      if (changes) {
        last.changes = changes;
      }
      loaded = await this.commit(last, state, next.length > 0 ? "running" : "completed");
    } else if (this.mode.kind === "resume" && last) {
      const answered = new Set(Object.keys(this.mode.answers));
      seq++;
      last = {
        ...last,
        seq,
        runId: this.options.runId,
        kind: "resume",
        status: "running",
        answers: { ...last.answers, ...(this.mode.answers as Record<string, JsonValue>) },
        pending: (last.pending ?? []).filter((interrupt) => !answered.has(interrupt.id)),
      };
      delete last.changes;
      loaded = await this.commit(last, loaded.state, "running");
    }
    if (!last) {
      return this.end({ status: "failed", error: new WeftError("nothing_to_continue", `Thread ${this.threadId} has no run to carry on.`) });
    }
    return this.loop(loaded, last);
  }

  /** Outcomes decided before the thread is claimed: busy, bad answers, nothing to do. */
  private async refuse(head: ThreadHead | undefined): Promise<RunOutcome<StateOf<C>> | undefined> {
    if (head?.status === "running" && leaseHeld(head.lease)) {
      return this.end({ status: "failed", error: new ThreadBusyError(this.threadId) });
    }
    if (this.mode.kind === "resume") {
      const ids = Object.keys(this.mode.answers);
      if (ids.length === 0) {
        return this.end({ status: "failed", error: new UnknownInterruptError(this.threadId, [], "empty") });
      }
      const pending = new Set(head?.status === "interrupted" ? (head.pending ?? []).map((interrupt) => interrupt.id) : []);
      const unknown = ids.filter((id) => !pending.has(id));
      if (unknown.length > 0) {
        return this.end({ status: "failed", error: new UnknownInterruptError(this.threadId, unknown, "not_pending") });
      }
    }
    if (this.mode.kind === "continue") {
      if (!head) {
        return this.end({ status: "failed", error: new WeftError("nothing_to_continue", `Thread ${this.threadId} has no run to carry on.`) });
      }
      if (head.status === "interrupted") {
        return this.end({ status: "interrupted", interrupts: head.pending ?? [] });
      }
      if (head.status === "completed") {
        const loaded = await this.graph.states.load(this.threadId, head.seq);
        // A step's head is written before its record: when the record is missing (the process
        // died between the two writes), the last step runs again instead of its writes being lost.
        if (loaded.seq >= head.seq) {
          return this.end(withFinish({ status: "completed", output: loaded.state }, head.finish));
        }
      }
    }
    return undefined;
  }

  /** Makes a step durable: head first (so a lost lease stops us before we write), then the record. */
  private async commit(record: StepRecord, state: StateOf<C>, status: ThreadStatus): Promise<LoadedThread<StateOf<C>>> {
    const final = status !== "running";
    const patch: Partial<ThreadHead> = { seq: record.seq, status, runId: this.options.runId };
    patch.pending = status === "interrupted" ? (record.pending ?? []) : [];
    if (record.finish !== undefined) {
      patch.finish = record.finish;
    }
    // The claim is there: a run commits only once it holds its thread.
    await this.claim?.writeHead(patch, final);
    await this.graph.threads.writeRecord(this.threadId, record);
    const loaded = { seq: record.seq, state, last: record };
    this.graph.states.remember(this.threadId, loaded);
    this.emit({ type: "checkpoint", step: record.step, seq: record.seq, status: record.status });
    return loaded;
  }

  private async loop(loaded: LoadedThread<StateOf<C>>, record: StepRecord): Promise<RunOutcome<StateOf<C>>> {
    let state = loaded.state;
    let last = record;
    for (;;) {
      if (this.controller.signal.aborted) {
        return this.stop();
      }
      if (last.status === "completed" || last.next.length === 0) {
        return this.end(withFinish({ status: "completed", output: state }, last.finish));
      }
      const done = last.done ?? {};
      const tasks = last.next.filter((node) => !(node in done));
      const results = await runTasks(this.tasks, tasks, state, last);
      if (results === "aborted" || this.controller.signal.aborted) {
        return this.stop();
      }
      const failed = results.find((result) => result.kind === "failed");
      if (failed?.kind === "failed") {
        const error = failed.error instanceof WeftError ? failed.error : new NodeFailedError(failed.node, failed.error);
        return this.finishFailed(error);
      }
      const paused = results.filter((result) => result.kind === "paused");
      const seq = last.seq + 1;
      if (paused.length > 0) {
        const finished = { ...done };
        for (const result of results) {
          if (result.kind === "ok") {
            finished[result.node] = result.writes;
          }
        }
        const pending = paused.flatMap((result) => (result.kind === "paused" ? result.interrupts : []));
        const memos: Record<string, Record<string, JsonValue>> = {};
        for (const result of paused) {
          if (result.kind === "paused" && Object.keys(result.memos).length > 0) {
            memos[result.node] = result.memos;
          }
        }
        const pausedRecord: StepRecord = { ...last, seq, runId: this.options.runId, kind: "paused", status: "interrupted", done: finished, pending, memos };
        delete pausedRecord.changes;
        await this.commit(pausedRecord, state, "interrupted");
        for (const interrupt of pending) {
          this.emit({ type: "interrupt", interrupt });
        }
        return this.end({ status: "interrupted", interrupts: pending });
      }
      const byNode = new Map(results.map((result) => [result.node, result]));
      const writes = last.next.map((node) => {
        const result = byNode.get(node);
        return done[node] ?? (result?.kind === "ok" ? result.writes : {});
      });
      const nextState = applyWrites(this.graph.definition, state, writes);
      const step = last.step + 1;
      const next = this.finishReason === undefined ? route(this.graph.definition, last.next, nextState) : [];
      const stepRecord: StepRecord = { v: 1, seq, runId: this.options.runId, kind: "step", step, scheduledAt: seq, next, status: "running" };
      const changes = stateChanges(this.graph.definition, state, nextState);
      if (changes) {
        stepRecord.changes = changes;
      }
      if (this.finishReason !== undefined) {
        stepRecord.finish = this.finishReason;
      } else if (next.length > 0 && step >= this.graph.maxSteps) {
        stepRecord.finish = "max_steps";
      }
      if (next.length === 0 || stepRecord.finish !== undefined) {
        stepRecord.status = "completed";
      }
      await this.commit(stepRecord, nextState, stepRecord.status === "completed" ? "completed" : "running");
      state = nextState;
      last = stepRecord;
    }
  }

  private async stop(): Promise<RunOutcome<StateOf<C>>> {
    if (this.claim?.lost) {
      return this.end({ status: "failed", error: new LeaseLostError(this.threadId) });
    }
    await this.release({ status: "cancelled" });
    return this.end({ status: "cancelled" });
  }

  async finishFailed(cause: unknown): Promise<RunOutcome<StateOf<C>>> {
    const error = cause instanceof Error ? cause : new WeftError("run_failed", String(cause));
    const record: ThreadHead["error"] = { name: error.name, message: error.message };
    if (WeftError.isInstance(error)) {
      record.code = error.code;
    }
    await this.release({ status: "failed", error: record });
    return this.end({ status: "failed", error });
  }

  /** Drops the lease with a final status, if the thread is still ours. Store errors are swallowed. */
  private async release(patch: Partial<ThreadHead>): Promise<void> {
    await this.claim?.release(patch);
  }

  private end(outcome: RunOutcome<StateOf<C>>): RunOutcome<StateOf<C>> {
    this.emit({ type: "run-end", status: outcome.status });
    this.ended = true;
    return outcome;
  }
}

function withFinish<S>(outcome: { status: "completed"; output: S }, finish: RunFinish | undefined): RunOutcome<S> {
  return finish === undefined ? outcome : { ...outcome, finish };
}
