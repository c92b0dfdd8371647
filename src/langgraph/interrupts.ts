// A LangGraph thread's pending interrupts as weft's, and weft's answers as the resume value. The
// human-in-the-loop middleware of LangChain's createAgent asks about all the gated calls of a model
// turn in one interrupt (`{ actionRequests, reviewConfigs }`, answered by `{ decisions }` in the
// same order): each call becomes a tool approval of its own, so the editor asks about each, and
// the decisions are put back together once all are answered. An interrupt with a JSON Schema for
// its answer becomes a question with that schema (a form, where the editor shows them, and where
// it does not, a question whose answer in words is read into the schema); any other is a question
// in words.

import type { ToolApprovalAnswer, ToolApprovalRequest } from "../agent/tool-approval.js";
import type { FormAnswer, Interrupt } from "../graph/interrupt.js";
import { jsonEqual } from "../store-core/json-equal.js";
import type { JsonObject, JsonValue } from "../types/json.js";
import { callDisplay, callTitle } from "./call-display.js";
import { InvalidAnswerError } from "./invalid-answer-error.js";
import { jsonCopy } from "./messages.js";
import { schemaProblem, typedAnswer } from "./typed-answer.js";

/** A pending interrupt, as weft asks it and as LangGraph knows it. */
export interface PendingInterrupt {
  interrupt: Interrupt;
  /** LangGraph's id for the interrupt (several approvals can share one); for a breakpoint, weft's own. */
  langGraphId: string;
  /** For a tool approval: its place among the interrupt's action requests. */
  action?: { index: number; toolCallId: string; toolName: string } | undefined;
  /** For a static breakpoint's stop (breakpoints.ts): the stop, and the call asked about, if one is. */
  breakpoint?: BreakpointEntry | undefined;
}

/** Where a thread stopped at a static breakpoint (`interruptBefore`, `interruptAfter`). */
export interface BreakpointStop {
  when: "before" | "after";
  /** The nodes the graph stopped before, or after. */
  nodes: string[];
  /** The checkpoint of the stop: names the question, which is a new one at each stop. */
  checkpointId: string;
}

/** What a pending breakpoint interrupt stands for: a call the stop holds back, or the stop itself. */
export interface BreakpointEntry {
  stop: BreakpointStop;
  call?: { toolCallId: string; toolName: string } | undefined;
}

/** A task of a LangGraph state snapshot, as far as interrupts go. */
export interface TaskLike {
  name: string;
  interrupts?: ReadonlyArray<{ id?: string | undefined; value?: unknown; response_schema?: unknown }> | undefined;
}

interface ActionRequest {
  name: string;
  args: Record<string, unknown>;
  description?: string | undefined;
}

interface ReviewConfig {
  actionName: string;
  allowedDecisions: string[];
  argsSchema?: Record<string, unknown> | undefined;
}

/** The tool calls of the last model message, by which the middleware's action requests are named. */
export type ToolCallLike = { id?: string | undefined; name: string; args: Record<string, unknown> };

/** The interrupts pending on a thread's tasks, in weft's terms. */
export function pendingInterrupts(tasks: readonly TaskLike[], calls: readonly ToolCallLike[]): PendingInterrupt[] {
  const pending: PendingInterrupt[] = [];
  for (const task of tasks) {
    for (const raw of task.interrupts ?? []) {
      const langGraphId = raw.id;
      if (langGraphId === undefined) {
        continue;
      }
      if (isApprovalRequest(raw.value)) {
        pending.push(...approvals(langGraphId, task.name, raw.value, calls));
        continue;
      }
      const interrupt: Interrupt = { id: langGraphId, value: jsonCopy(raw.value), node: task.name };
      if (isSchema(raw.response_schema)) {
        interrupt.schema = jsonCopy(raw.response_schema) as JsonObject;
      }
      pending.push({ interrupt, langGraphId });
    }
  }
  return pending;
}

function approvals(langGraphId: string, node: string, value: { actionRequests: ActionRequest[]; reviewConfigs: ReviewConfig[] }, calls: readonly ToolCallLike[]): PendingInterrupt[] {
  const used = new Set<number>();
  return value.actionRequests.map((action, index) => {
    // The middleware keeps the order of the model's calls and leaves out those it lets through.
    let position = calls.findIndex((call, at) => !used.has(at) && call.name === action.name && jsonEqual(call.args as JsonValue, action.args as JsonValue));
    if (position < 0) {
      position = calls.findIndex((call, at) => !used.has(at) && call.name === action.name);
    }
    used.add(position);
    const toolCallId = calls[position]?.id ?? `${langGraphId}:${index}`;
    const request: ToolApprovalRequest = {
      kind: "tool-approval",
      toolCallId,
      toolName: action.name,
      input: jsonCopy(action.args),
      title: callTitle(action.name, action.args),
      display: callDisplay(action.args, action.description),
    };
    const review = value.reviewConfigs.find((config) => config.actionName === action.name);
    if (review?.allowedDecisions.includes("edit") && isSchema(review.argsSchema)) {
      request.inputSchema = jsonCopy(review.argsSchema) as JsonObject;
    }
    const interrupt: Interrupt = { id: `${langGraphId}:${index}`, value: request as unknown as JsonValue, node };
    return { interrupt, langGraphId, action: { index, toolCallId, toolName: action.name } };
  });
}

/**
 * How answers to questions (not approvals) become resume values. It may throw an
 * InvalidAnswerError for an answer that does not fit: its message is shown to the person and the
 * same question is asked again.
 */
export type ResumeValue = (answer: unknown, interrupt: Interrupt) => unknown;

/**
 * The default: a form's content when it was filled in; an answer in words read into the schema
 * (see typedAnswer: JSON, a one-field schema's value, `field: value` lines, a choice); null when the
 * person declined or dismissed the form; any other answer as it is. An answer the schema refuses
 * throws an InvalidAnswerError saying why (and, for words, how to answer), and the question is
 * asked again.
 */
export const defaultResumeValue: ResumeValue = (answer, interrupt) => {
  if (!interrupt.schema || !isFormAnswer(answer)) {
    return answer;
  }
  switch (answer.action) {
    case "accept": {
      const problem = schemaProblem(answer.content, interrupt.schema);
      if (problem !== undefined) {
        throw new InvalidAnswerError(interrupt.id, problem);
      }
      return answer.content;
    }
    case "reply": {
      const read = typedAnswer(answer.text, interrupt.schema);
      if (!read.fits) {
        throw new InvalidAnswerError(interrupt.id, read.problem);
      }
      return read.value;
    }
    default:
      return null;
  }
};

/** What answering some interrupts comes to: the resume map, and what could not be used. */
export interface ResumePlan {
  resume: Record<string, unknown>;
  /** Calls the person rejected. */
  rejected: Set<string>;
  /** Ids answered that are not pending. */
  unknown: string[];
  /** Ids of approvals left unanswered beside answered ones of the same interrupt. */
  missing: string[];
  /** Answers that did not fit their question (the resume value function threw an InvalidAnswerError), with why. */
  invalid: Array<{ id: string; message: string }>;
}

/** The resume value for `answers` (by weft interrupt id) to the `pending` interrupts. */
export function resumePlan(pending: readonly PendingInterrupt[], answers: Record<string, unknown>, resumeValue: ResumeValue): ResumePlan {
  const plan: ResumePlan = { resume: {}, rejected: new Set(), unknown: [], missing: [], invalid: [] };
  const byId = new Map(pending.map((entry) => [entry.interrupt.id, entry]));
  plan.unknown = Object.keys(answers).filter((id) => !byId.has(id));
  const groups = new Map<string, PendingInterrupt[]>();
  for (const entry of pending) {
    if (entry.action) {
      groups.set(entry.langGraphId, [...(groups.get(entry.langGraphId) ?? []), entry]);
    } else if (entry.interrupt.id in answers) {
      try {
        plan.resume[entry.langGraphId] = resumeValue(answers[entry.interrupt.id], entry.interrupt);
      } catch (error) {
        if (!InvalidAnswerError.isInstance(error)) {
          throw error;
        }
        plan.invalid.push({ id: entry.interrupt.id, message: error.message });
      }
    }
  }
  for (const [langGraphId, entries] of groups) {
    const answered = entries.filter((entry) => entry.interrupt.id in answers);
    if (answered.length === 0) {
      continue;
    }
    if (answered.length < entries.length) {
      plan.missing.push(...entries.filter((entry) => !(entry.interrupt.id in answers)).map((entry) => entry.interrupt.id));
      continue;
    }
    const decisions = entries.map((entry) => {
      const decision = decisionOf(answers[entry.interrupt.id], entry.action?.toolName ?? "");
      if (decision.type === "reject" && entry.action) {
        plan.rejected.add(entry.action.toolCallId);
      }
      return decision;
    });
    plan.resume[langGraphId] = { decisions };
  }
  return plan;
}

type Decision = { type: "approve" } | { type: "edit"; editedAction: { name: string; args: JsonObject } } | { type: "reject"; message?: string };

/** A weft approval answer as the middleware's decision; anything that is not one rejects. */
function decisionOf(answer: unknown, toolName: string): Decision {
  const given = answer as Partial<ToolApprovalAnswer> | null | undefined;
  switch (given?.decision) {
    case "approve":
      return { type: "approve" };
    case "edit":
      return { type: "edit", editedAction: { name: toolName, args: (given as { input: JsonObject }).input } };
    default: {
      const reason = (given as { reason?: unknown } | null | undefined)?.reason;
      if ((given as { by?: unknown } | null | undefined)?.by === "policy") {
        // Not the person's no: the middleware's own message would say the user rejected it.
        return { type: "reject", message: `Not run: the run's approval policy refused this tool call, and no person was asked.${typeof reason === "string" ? ` Reason: ${reason}` : ""}` };
      }
      return typeof reason === "string" ? { type: "reject", message: reason } : { type: "reject" };
    }
  }
}

function isApprovalRequest(value: unknown): value is { actionRequests: ActionRequest[]; reviewConfigs: ReviewConfig[] } {
  const candidate = value as { actionRequests?: unknown; reviewConfigs?: unknown } | null;
  return typeof candidate === "object" && candidate !== null && Array.isArray(candidate.actionRequests) && Array.isArray(candidate.reviewConfigs);
}

function isSchema(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isFormAnswer(value: unknown): value is FormAnswer {
  const action = (value as { action?: unknown } | null)?.action;
  return typeof value === "object" && value !== null && (action === "accept" || action === "decline" || action === "cancel" || action === "reply");
}
