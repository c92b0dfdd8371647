// What a node receives besides the state: who the run is for, a signal that fires on cancel, a way
// to emit events as they happen, and a way to ask the outside world a question (interrupt).

import type { JsonObject, JsonValue } from "../types/json.js";
import type { Principal } from "../types/principal.js";
import type { Store } from "../types/store.js";
import type { NodeEvent } from "./events.js";
import type { Interrupt } from "./interrupt.js";
import type { RunConfig, RunFinish } from "./run-outcome.js";

export interface InterruptRequest {
  /** A stable id; defaults to one derived from the node, its step and the request's position. */
  id?: string | undefined;
  value: JsonValue;
  /** A JSON Schema for the answer, so a protocol can ask with a form (see Interrupt.schema). */
  schema?: JsonObject | undefined;
}

/** How a question is asked: its id, and the schema its answer should match. */
export interface InterruptOptions {
  /** A stable id; defaults to one derived from the node, its step and the question's position. */
  id?: string | undefined;
  /**
   * A JSON Schema for the answer: an object whose properties are strings, numbers, integers,
   * booleans or lists of choices. A protocol that can show forms asks with it, and the answer is a
   * FormAnswer; one that cannot asks in words, and the answer is `{ action: "reply", text }`.
   */
  schema?: JsonObject | undefined;
}

export interface NodeContext {
  readonly graph: string;
  readonly threadId: string;
  readonly runId: string;
  readonly node: string;
  /** Steps taken since the run began. */
  readonly step: number;
  readonly principal: Principal | undefined;
  /** The run's settings as they were when this step began (see RunOptions.config); empty when it has none. */
  readonly config: RunConfig;
  /** Fires when the run is cancelled; pass it to anything slow. */
  readonly signal: AbortSignal;
  /** The graph's long-term store, for nodes and tools that keep memories. */
  readonly store: Store;
  /** Sends an event to the run's watchers now. */
  emit(event: NodeEvent): void;
  /**
   * Asks a question. If the run was resumed with an answer for it, returns the answer; otherwise
   * the run pauses after this step and the node runs again from its start on resume, so do
   * nothing irreversible before asking.
   */
  interrupt<T = unknown>(value: JsonValue, options?: InterruptOptions): T;
  /**
   * Asks several questions at once. Returns all answers when every one has been answered;
   * otherwise pauses with the unanswered ones (answers already given are kept).
   */
  interruptAll<T = unknown>(requests: readonly InterruptRequest[]): Record<string, T>;
  /** The answer already given to an interrupt id, without asking. */
  answer<T = unknown>(id: string): { answered: true; value: T } | { answered: false };
  /**
   * Runs `work` once per key while the node's step is paused and resumed: when a node pauses and
   * runs again, it gets back what `work` returned before instead of doing it twice. Use it for
   * side effects that must not repeat, such as running a tool.
   */
  memo<T extends JsonValue>(key: string, work: () => Promise<T>): Promise<T>;
  /** Ends the run after this step, with a reason a protocol can report (`max_tokens`, `refusal`). */
  end(reason: RunFinish): void;
}

/** Thrown inside a node to pause it. The runtime catches it; nodes must let it through. */
export class PauseSignal {
  constructor(readonly interrupts: Interrupt[]) {}
}
