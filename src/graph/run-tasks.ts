// Running one step's tasks: each scheduled node called with its context (its answers, memos and
// the run's settings), at the same time, until all are done or the run is aborted. A node that
// asks a question it has no answer for pauses; what the step makes of the results is the run's.

import { WeftError } from "../errors/weft-error.js";
import type { JsonValue } from "../types/json.js";
import type { Principal } from "../types/principal.js";
import type { Store } from "../types/store.js";
import type { StepGraph } from "./apply-writes.js";
import type { RunEvent } from "./events.js";
import type { ChannelMap, StateOf } from "./graph-definition.js";
import type { Interrupt } from "./interrupt.js";
import { type InterruptOptions, type InterruptRequest, type NodeContext, PauseSignal } from "./node-context.js";
import type { RunConfig, RunFinish, RunOptions } from "./run-outcome.js";
import type { StepRecord } from "./thread-store.js";

/** What the nodes of a run are given. */
export interface TaskRun<C extends ChannelMap> {
  readonly graph: StepGraph<C>;
  readonly threadId: string;
  readonly runId: string;
  readonly principal: Principal | undefined;
  readonly config: RunOptions["config"];
  readonly signal: AbortSignal;
  readonly store: Store;
  readonly emit: (event: RunEvent) => void;
  /** A node asked the run to end after this step, for `reason`. */
  readonly end: (reason: RunFinish) => void;
}

export type TaskResult =
  | { node: string; kind: "ok"; writes: Record<string, unknown> }
  | { node: string; kind: "paused"; interrupts: Interrupt[]; memos: Record<string, JsonValue> }
  | { node: string; kind: "failed"; error: unknown };

/** The settings of a run made without any. */
const NO_CONFIG: RunConfig = Object.freeze({});

/**
 * Runs one step's nodes at once and gathers their results, or "aborted" as soon as the run's
 * signal fires (the nodes are told through the same signal and their results are not waited for).
 */
export async function runTasks<C extends ChannelMap>(run: TaskRun<C>, tasks: string[], state: StateOf<C>, record: StepRecord): Promise<TaskResult[] | "aborted"> {
  const signal = run.signal;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([Promise.all(tasks.map((node) => runTask(run, node, state, record))), aborted]);
  } finally {
    if (onAbort) {
      signal.removeEventListener("abort", onAbort);
    }
  }
}

async function runTask<C extends ChannelMap>(run: TaskRun<C>, node: string, state: StateOf<C>, record: StepRecord): Promise<TaskResult> {
  const work = run.graph.nodes.get(node);
  if (!work) {
    return { node, kind: "failed", error: new WeftError("unknown_node", `Node "${node}" is not in the graph.`) };
  }
  const { context, pending, memos } = nodeContext(run, node, record);
  run.emit({ type: "node-start", node, step: record.step });
  try {
    const update = (await work(state, context)) ?? {};
    if (pending.length > 0) {
      return { node, kind: "paused", interrupts: pending, memos };
    }
    for (const channel of Object.keys(update)) {
      if (!(channel in run.graph.channels)) {
        return { node, kind: "failed", error: new WeftError("unknown_channel", `Node "${node}" wrote unknown channel "${channel}".`) };
      }
    }
    run.emit({ type: "node-end", node, step: record.step });
    return { node, kind: "ok", writes: update as Record<string, unknown> };
  } catch (error) {
    if (error instanceof PauseSignal || pending.length > 0) {
      return { node, kind: "paused", interrupts: pending, memos };
    }
    return { node, kind: "failed", error };
  }
}

/** The run's settings for a node about to run: asked again each time when they are a function. */
function stepConfig(config: RunOptions["config"]): RunConfig {
  return (typeof config === "function" ? config() : config) ?? NO_CONFIG;
}

function nodeContext<C extends ChannelMap>(run: TaskRun<C>, node: string, record: StepRecord): { context: NodeContext; pending: Interrupt[]; memos: Record<string, JsonValue> } {
  const pending: Interrupt[] = [];
  const memos: Record<string, JsonValue> = { ...record.memos?.[node] };
  const answers = record.answers ?? {};
  let position = 0;
  const ask = (requests: readonly InterruptRequest[]): Record<string, unknown> => {
    const found: Record<string, unknown> = {};
    const missing: Interrupt[] = [];
    for (const request of requests) {
      const id = request.id ?? `${node}:${record.scheduledAt}:${position}`;
      position++;
      if (Object.hasOwn(answers, id)) {
        found[id] = answers[id];
      } else {
        const interrupt: Interrupt = { id, value: request.value, node };
        if (request.schema) {
          interrupt.schema = request.schema;
        }
        missing.push(interrupt);
      }
    }
    if (missing.length > 0) {
      pending.push(...missing);
      throw new PauseSignal(missing);
    }
    return found;
  };
  const context: NodeContext = {
    graph: run.graph.name,
    threadId: run.threadId,
    runId: run.runId,
    node,
    step: record.step,
    principal: run.principal,
    config: stepConfig(run.config),
    signal: run.signal,
    store: run.store,
    emit: run.emit,
    interrupt: <T>(value: JsonValue, options?: InterruptOptions) => {
      const request: InterruptRequest = options?.id === undefined ? { value } : { id: options.id, value };
      if (options?.schema) {
        request.schema = options.schema;
      }
      return Object.values(ask([request]))[0] as T;
    },
    interruptAll: <T>(requests: readonly InterruptRequest[]) => ask(requests) as Record<string, T>,
    answer: <T>(id: string) => (Object.hasOwn(answers, id) ? { answered: true as const, value: answers[id] as T } : { answered: false as const }),
    memo: async <T extends JsonValue>(key: string, work: () => Promise<T>) => {
      if (Object.hasOwn(memos, key)) {
        return memos[key] as T;
      }
      const value = await work();
      memos[key] = value;
      return value;
    },
    end: (reason: RunFinish) => {
      run.end(reason);
    },
  };
  return { context, pending, memos };
}
