// Static breakpoints: a graph compiled (or a prebuilt agent made) with `interruptBefore` or
// `interruptAfter` stops there with no interrupt of its own, only steps left to run. Such a stop
// becomes what weft asks: a tool approval for each call the stop holds back (the last model
// message's calls without a result), or, at a step that runs no tools, a question whether to go
// on. The answers say how the run goes on: all calls allowed, it carries on from the stop; one
// rejected, none of them runs (as LangChain's human-in-the-loop middleware does) and each gets a
// result saying so; "stop", the turn ends where the graph stopped.

import { ToolMessage } from "@langchain/core/messages";

import type { ToolApprovalAnswer, ToolApprovalRequest } from "../agent/tool-approval.js";
import type { FormAnswer, Interrupt } from "../graph/interrupt.js";
import type { JsonObject } from "../types/json.js";
import { callDisplay, callTitle } from "./call-display.js";
import type { BreakpointStop, PendingInterrupt, ToolCallLike } from "./interrupts.js";
import { jsonCopy } from "./messages.js";
import { typedAnswer } from "./typed-answer.js";

/** The nodes a graph stops before and after: a list, or `*` for every node. */
export interface BreakpointNodes {
  before: readonly string[] | "*";
  after: readonly string[] | "*";
}

/** The breakpoints a compiled graph has (LangChain's createAgent() keeps its graph inside); undefined for none. */
export function breakpointsOf(graph: unknown): BreakpointNodes | undefined {
  const outer = graph as { interruptBefore?: unknown; interruptAfter?: unknown; graph?: { interruptBefore?: unknown; interruptAfter?: unknown } } | null;
  const before = nodeList(outer?.interruptBefore ?? outer?.graph?.interruptBefore);
  const after = nodeList(outer?.interruptAfter ?? outer?.graph?.interruptAfter);
  return before.length === 0 && after.length === 0 ? undefined : { before, after };
}

/** Whether `node` is one of `nodes`. */
export function stopsAt(nodes: readonly string[] | "*", node: string): boolean {
  return nodes === "*" || nodes.includes(node);
}

/**
 * Whether the checkpoint's channels changed since the graph last went past a breakpoint: LangGraph
 * stops at one only then, and marks them seen when it is resumed past it.
 */
export function changedSinceBreakpoint(checkpoint: { channel_versions?: Record<string, unknown> | undefined; versions_seen?: Record<string, Record<string, unknown> | undefined> | undefined }): boolean {
  const seen = checkpoint.versions_seen?.__interrupt__ ?? {};
  return Object.entries(checkpoint.channel_versions ?? {}).some(([channel, version]) => {
    const before = seen[channel];
    return before === undefined || (typeof version === typeof before && (version as number | string) > (before as number | string));
  });
}

/** The interrupts a breakpoint stop is asked as: an approval for each call it holds back, else a question. */
export function breakpointInterrupts(stop: BreakpointStop, held: readonly ToolCallLike[]): PendingInterrupt[] {
  const where = `${stop.when} its step ${stop.nodes.map((node) => `"${node}"`).join(", ")}`;
  const [node = ""] = stop.nodes;
  const calls = held.filter((call): call is ToolCallLike & { id: string } => call.id !== undefined && call.id !== "");
  if (calls.length > 0) {
    return calls.map((call) => {
      const request: ToolApprovalRequest = {
        kind: "tool-approval",
        toolCallId: call.id,
        toolName: call.name,
        input: jsonCopy(call.args),
        title: callTitle(call.name, call.args),
        display: callDisplay(call.args, `The graph stopped ${where} (a breakpoint) before this call runs.`),
      };
      const interrupt: Interrupt = { id: `breakpoint:${call.id}`, value: request as unknown as JsonObject, node };
      return { interrupt, langGraphId: interrupt.id, breakpoint: { stop, call: { toolCallId: call.id, toolName: call.name } } };
    });
  }
  const interrupt: Interrupt = { id: `breakpoint:${stop.checkpointId}`, value: { question: `The graph paused ${where} (a breakpoint). Go on?` }, node, schema: GO_ON_SCHEMA };
  return [{ interrupt, langGraphId: interrupt.id, breakpoint: { stop } }];
}

/** The answer a breakpoint question takes: go on, or stop. */
const GO_ON_SCHEMA: JsonObject = {
  type: "object",
  properties: { answer: { type: "string", title: "Go on?", enum: ["continue", "stop"], description: "continue runs the graph on from the breakpoint; stop ends the turn there" } },
  required: ["answer"],
};

/** How a run at a breakpoint goes on, from the answers to what it asked. */
export type BreakpointPlan =
  /**
   * Carry on from the stop; when `unrun` is not empty (a call was rejected), every call the stop
   * held is in it, in the model's order, and is given a result instead of running (see unrunResults).
   */
  | { go: true; unrun: UnrunCall[] }
  /** The person said to stop: the turn ends where the graph stopped. */
  | { go: false; stop: true; note: string }
  /** An answer that could not be read (`problems`), or approvals left unanswered (`missing`): asked again, or the resume fails. */
  | { go: false; stop?: undefined; problems: string[]; missing: string[] };

/** A call a breakpoint held that does not run: the one the person rejected (with their reason), or one beside it. */
export interface UnrunCall {
  toolCallId: string;
  toolName: string;
  rejected: boolean;
  reason?: string | undefined;
}

/** What answering a breakpoint's interrupts comes to. */
export function breakpointPlan(pending: readonly PendingInterrupt[], answers: Record<string, unknown>): BreakpointPlan {
  const entries = pending.filter((entry) => entry.breakpoint);
  const missing = entries.filter((entry) => !(entry.interrupt.id in answers)).map((entry) => entry.interrupt.id);
  const approvals = entries.filter((entry) => entry.breakpoint?.call);
  if (approvals.length === 0) {
    const [question] = entries;
    if (!question || missing.length > 0) {
      return { go: false, problems: [], missing };
    }
    const choice = goOnChoice(answers[question.interrupt.id]);
    if (choice === undefined) {
      return { go: false, problems: ['That answer could not be read: answer "continue" (or yes) to go on, or "stop" (or no) to end the turn here.'], missing: [] };
    }
    if (choice === "stop") {
      const nodes = question.breakpoint?.stop.nodes.map((node) => `"${node}"`).join(", ") ?? "";
      return { go: false, stop: true, note: `Stopped ${question.breakpoint?.stop.when ?? "at"} the graph's step ${nodes}, as you answered.` };
    }
    return { go: true, unrun: [] };
  }
  if (missing.length > 0) {
    return { go: false, problems: [], missing };
  }
  const unrun = approvals.flatMap((entry): UnrunCall[] => {
    const call = entry.breakpoint?.call;
    if (!call) {
      return [];
    }
    const answer = answers[entry.interrupt.id] as Partial<ToolApprovalAnswer> | null | undefined;
    const reason = (answer as { reason?: unknown } | null | undefined)?.reason;
    return [{ ...call, rejected: answer?.decision !== "approve", ...(typeof reason === "string" ? { reason } : {}) }];
  });
  return { go: true, unrun: unrun.some((call) => call.rejected) ? unrun : [] };
}

/** The results the calls of a rejected breakpoint get instead of running: the rejected ones say so, the others that they were not run because of it. */
export function unrunResults(plan: Extract<BreakpointPlan, { go: true }>): ToolMessage[] {
  return plan.unrun.map(
    (call) =>
      new ToolMessage({
        id: `${call.rejected ? "rejected" : "unrun"}-${call.toolCallId}`,
        tool_call_id: call.toolCallId,
        name: call.toolName,
        content: call.rejected ? `The person rejected this call${call.reason ? `: ${call.reason}` : "."}` : "This call did not run: the person rejected another call of the same turn.",
        status: "error",
      }),
  );
}

/** "continue" or "stop" from a breakpoint question's answer (a form's, or words), undefined when it says neither. */
function goOnChoice(answer: unknown): "continue" | "stop" | undefined {
  const given = answer as Partial<FormAnswer> | string | null | undefined;
  if (typeof given === "string") {
    return choiceInWords(given);
  }
  switch (given?.action) {
    case "accept": {
      const value = (given as { content?: { answer?: unknown } }).content?.answer;
      return value === "continue" || value === "stop" ? value : undefined;
    }
    case "reply":
      return choiceInWords((given as { text: string }).text);
    case "decline":
    case "cancel":
      return "stop";
    default:
      return undefined;
  }
}

function choiceInWords(text: string): "continue" | "stop" | undefined {
  const trimmed = text.trim().toLowerCase().replace(/[.!]+$/, "");
  if (/^(y|yes|ok|okay|go|go on|carry on|proceed|sure)$/.test(trimmed)) {
    return "continue";
  }
  if (/^(n|no|halt|cancel|end)$/.test(trimmed)) {
    return "stop";
  }
  const read = typedAnswer(trimmed, GO_ON_SCHEMA);
  return read.fits ? ((read.value as { answer: "continue" | "stop" }).answer ?? undefined) : undefined;
}

function nodeList(value: unknown): readonly string[] | "*" {
  if (value === "*") {
    return "*";
  }
  return Array.isArray(value) ? value.filter((node): node is string => typeof node === "string") : [];
}
