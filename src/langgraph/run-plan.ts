// How a run starts, decided before the graph is streamed: from the input, a resume value, or the
// last checkpoint (null input), with the calls a resume rejects and any results written as the
// stopped step first; or its outcome at once, when there is nothing to run (an answer that does not
// fit, a thread that waits on the person, an answer nobody asked for).

import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";

import { WeftError } from "../errors/weft-error.js";
import type { RunEvent } from "../graph/events.js";
import { UnknownInterruptError } from "../graph/graph-errors.js";
import type { RunOutcome } from "../graph/run-outcome.js";
import { agentMessage, noteEvents } from "./adapter-messages.js";
import { breakpointPlan, unrunResults } from "./breakpoints.js";
import { defaultResumeValue, type PendingInterrupt, type ResumeValue, resumePlan } from "./interrupts.js";
import type { StateSnapshotLike } from "./langgraph-types.js";
import { fromLangChain } from "./messages.js";
import { cutShort, messagesIn } from "./thread-state.js";

export type Mode = { kind: "run"; input: unknown } | { kind: "resume"; answers: Record<string, unknown> } | { kind: "continue" };

/**
 * What the stream starts from: the input (null carries the thread on from its last checkpoint),
 * the calls a resume rejects, and the messages to write as the stopped step before it.
 */
export interface StreamPlan {
  input: unknown;
  rejected: Set<string>;
  write?: { messages: BaseMessage[]; asNode: string | undefined } | undefined;
}

/** A run that ends without streaming: its outcome, and what to tell the person first. */
export interface SettledPlan {
  outcome: RunOutcome;
  events?: RunEvent[] | undefined;
}

/** What a run plans from: the thread before it, and what it waits on. */
export interface PlanFacts {
  threadId: string;
  before: StateSnapshotLike | undefined;
  pending: readonly PendingInterrupt[];
  /** The graph's input for a new run's input (see graphInput); undefined when the thread holds it. */
  input: (given: unknown) => unknown;
  resumeValue: ResumeValue | undefined;
}

/** How a run starts (a StreamPlan), or its outcome at once when there is nothing to run. */
export function planRun(mode: Mode, facts: PlanFacts): StreamPlan | SettledPlan {
  const { threadId, before, pending } = facts;
  const unfinished = before !== undefined && cutShort(before) && pending.length === 0;
  const waiting: RunOutcome | undefined = pending.length > 0 ? { status: "interrupted", interrupts: pending.map((entry) => entry.interrupt) } : undefined;
  switch (mode.kind) {
    case "run": {
      const input = facts.input(mode.input);
      if (input !== undefined) {
        return { input, rejected: new Set() };
      }
      // The thread holds the input already: a turn started over after a crash. One that waits on
      // the person asks again; any other carries on from its last checkpoint (a run that ended
      // gives its final state again, without running a node).
      return waiting ? { outcome: waiting } : { input: null, rejected: new Set() };
    }
    case "resume": {
      if (unfinished) {
        // Answered before the agent stopped, and carried on since: carry on again.
        return { input: null, rejected: new Set() };
      }
      if (before && pending.some((entry) => entry.breakpoint)) {
        return planAtBreakpoint(threadId, before, pending, mode.answers);
      }
      const plan = resumePlan(pending, mode.answers, facts.resumeValue ?? defaultResumeValue);
      if (plan.invalid.length > 0 && plan.unknown.length === 0 && waiting) {
        // Said why, and asked again: the graph is not resumed with an answer it would refuse.
        return { outcome: waiting, events: plan.invalid.flatMap((entry) => noteEvents(entry.message)) };
      }
      if (plan.unknown.length > 0 || Object.keys(plan.resume).length === 0) {
        const ids = plan.unknown.length > 0 ? plan.unknown : Object.keys(mode.answers);
        return { outcome: { status: "failed", error: new UnknownInterruptError(threadId, ids, plan.unknown.length > 0 ? "not_pending" : "empty") } };
      }
      if (plan.missing.length > 0) {
        return { outcome: { status: "failed", error: new WeftError("unknown_interrupt", `The tool calls of one model turn are answered together; ${plan.missing.join(", ")} had no answer.`) } };
      }
      return { input: new Command({ resume: plan.resume }), rejected: plan.rejected };
    }
    case "continue":
      if (unfinished) {
        return { input: null, rejected: new Set() };
      }
      return waiting ? { outcome: waiting } : { outcome: { status: "failed", error: new WeftError("nothing_to_continue", `Thread ${threadId} has no run to carry on.`) } };
  }
}

/**
 * How a run stopped at a breakpoint goes on, by the answers: from the stop (the calls it held
 * back run, or, one rejected, none runs and each is given a result as the stopped step); or the
 * turn ends there ("stop"); or the question is asked again when its answer could not be read.
 */
function planAtBreakpoint(threadId: string, before: StateSnapshotLike, pending: readonly PendingInterrupt[], answers: Record<string, unknown>): StreamPlan | SettledPlan {
  const unknown = Object.keys(answers).filter((id) => !pending.some((entry) => entry.interrupt.id === id));
  if (unknown.length > 0) {
    return { outcome: { status: "failed", error: new UnknownInterruptError(threadId, unknown, "not_pending") } };
  }
  const plan = breakpointPlan(pending, answers);
  if (plan.go) {
    const messages = unrunResults(plan);
    if (messages.length === 0) {
      return { input: null, rejected: new Set() };
    }
    const [stopped] = before.next;
    return { input: null, rejected: new Set(messages.map((message) => (message as ToolMessage).tool_call_id)), write: { messages, asNode: before.next.length === 1 ? stopped : undefined } };
  }
  if (plan.stop) {
    const values = (before.values ?? {}) as Record<string, unknown>;
    const output = { ...values, messages: messagesIn(values).flatMap((message) => fromLangChain(message) ?? []) };
    return { outcome: { status: "completed", output }, events: agentMessage(plan.note) };
  }
  if (plan.missing.length > 0) {
    return { outcome: { status: "failed", error: new WeftError("unknown_interrupt", `The calls a breakpoint stopped are answered together; ${plan.missing.join(", ")} had no answer.`) } };
  }
  return { outcome: { status: "interrupted", interrupts: pending.map((entry) => entry.interrupt) }, events: plan.problems.flatMap((problem) => noteEvents(problem)) };
}
