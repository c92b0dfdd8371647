// How a run ends, and the handle a caller watches it through. Outcomes are values: an interrupt,
// a cancel or a failure is a state of the run, and the outcome promise never rejects.

import type { Principal } from "../types/principal.js";
import type { RunEvent } from "./events.js";
import type { Interrupt } from "./interrupt.js";

/**
 * Why a completed run ended before its graph reached END, in the runtime's own words; each
 * protocol maps them to its vocabulary. The runtime ends a run at `max_steps`; a node ends one with
 * `context.end()`: `max_tokens` when a model's reply was cut at its output limit, `refusal` when
 * the model declined to answer.
 */
export type RunFinish = "max_steps" | "max_tokens" | "refusal";

export type RunOutcome<S = unknown> =
  /** `finish` is set when the run ended early (see RunFinish). */
  | { status: "completed"; output: S; finish?: RunFinish | undefined }
  | { status: "interrupted"; interrupts: Interrupt[] }
  | { status: "cancelled" }
  | { status: "failed"; error: Error };

/** A run in progress: iterate it for events; `outcome` settles after the last event. */
export interface GraphRun<S = unknown> extends AsyncIterable<RunEvent> {
  readonly runId: string;
  readonly threadId: string;
  readonly outcome: Promise<RunOutcome<S>>;
}

/**
 * Settings a run is made with, by name: for an editor session, the values of its config options
 * (the model it picked, its mode). Nodes read them as `context.config`.
 */
export type RunConfig = Readonly<Record<string, string | boolean>>;

export interface RunOptions {
  /** The thread the run belongs to; its state carries over between runs. */
  threadId: string;
  /** Who the run acts for; every node and tool sees it. */
  principal?: Principal | undefined;
  /** The directory the run works in: for an editor session, its `cwd`. */
  cwd?: string | undefined;
  /** Aborting it cancels the run; the state before the interrupted step is kept. */
  signal?: AbortSignal | undefined;
  /** An id for the run, chosen by the caller (for example to recognise it after a restart). */
  runId?: string | undefined;
  /**
   * The run's settings (see RunConfig). A function is asked again before every step, so a change
   * made while the run goes on (a person picks another model mid-turn) applies from the next step.
   */
  config?: RunConfig | (() => RunConfig) | undefined;
}
