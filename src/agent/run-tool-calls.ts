// Running an assistant message's tool calls: every approval the policy asks for is requested
// first (one interrupt for all of them), then the calls run in parallel and each gets exactly one
// result: its output, its error, or why it did not run (rejected, unknown tool, bad input).

import { z } from "zod";

import { errorMessage } from "../errors/error-message.js";
import { createMessageId } from "../graph/messages.js";
import { type NodeContext, PauseSignal } from "../graph/node-context.js";
import { toJson } from "../store-core/to-json.js";
import type { JsonObject, JsonValue } from "../types/json.js";
import type { AssistantMessage, ToolCallPart, ToolMessage, ToolResultPart } from "../types/messages.js";
import type { ToolDisplay, ToolLocation } from "../types/tool-display.js";
import { type ApprovalPolicy, approvalId, needsApproval } from "./approval-policy.js";
import { describeApproval } from "./describe-approval.js";
import { prepareCall, type PreparedCall } from "./prepare-call.js";
import { isToolOutput, type Tool, type ToolContext } from "./tool.js";
import type { ToolApprovalAnswer, ToolApprovalRequest } from "./tool-approval.js";
import type { ToolQuestion } from "./tool-question.js";

/** Gates, runs and answers every tool call of an assistant message. */
export async function runToolCalls(
  message: AssistantMessage,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see PreparedCall
  tools: Map<string, Tool<any>>,
  approvals: ApprovalPolicy | undefined,
  context: NodeContext,
): Promise<ToolMessage> {
  const calls = message.parts.filter((part): part is ToolCallPart => part.type === "tool-call");
  const prepared = calls.map((call) => prepareCall(call, tools));
  const gated = prepared.filter((entry) => entry.tool && !entry.problem && needsApproval({ toolName: entry.call.toolName, input: entry.input, tool: entry.tool }, approvals, context.config));
  // Ask for every approval before running anything: the node runs again from here on resume.
  const requests = await Promise.all(
    gated.map(async (entry) => {
      const id = approvalId(entry.call.toolCallId);
      const request: ToolApprovalRequest = {
        kind: "tool-approval",
        toolCallId: entry.call.toolCallId,
        toolName: entry.call.toolName,
        input: toJson(entry.input),
      };
      if (!context.answer(id).answered) {
        Object.assign(request, await describeApproval(entry, context));
      }
      return { id, value: request as unknown as JsonValue };
    }),
  );
  const answers = context.interruptAll<unknown>(requests);
  const settled = await Promise.allSettled(
    prepared.map((entry) => {
      const answer = answers[approvalId(entry.call.toolCallId)];
      return runOne(entry, answer === undefined ? undefined : readApproval(answer), context);
    }),
  );
  const parts: ToolResultPart[] = [];
  for (const result of settled) {
    if (result.status === "rejected") {
      // A tool that asked a question pauses the node; a cancel ends it. Either way, stop here.
      throw result.reason;
    }
    parts.push(result.value);
  }
  return { id: createMessageId("tool"), role: "tool", parts, createdAt: new Date().toISOString() };
}

function readApproval(answer: unknown): ToolApprovalAnswer {
  if (answer === true || answer === "approve") {
    return { decision: "approve" };
  }
  if (typeof answer === "object" && answer !== null && (answer as { decision?: unknown }).decision === "approve") {
    return { decision: "approve" };
  }
  if (typeof answer === "object" && answer !== null && (answer as { decision?: unknown }).decision === "edit") {
    const input = (answer as { input?: unknown }).input;
    if (input !== null && typeof input === "object" && !Array.isArray(input)) {
      return { decision: "edit", input: input as JsonObject };
    }
    return { decision: "reject", reason: "The edited input was not an object." };
  }
  const reason = (answer as { reason?: unknown } | undefined)?.reason;
  const rejection: Extract<ToolApprovalAnswer, { decision: "reject" }> = typeof reason === "string" ? { decision: "reject", reason } : { decision: "reject" };
  if ((answer as { by?: unknown } | undefined)?.by === "policy") {
    rejection.by = "policy";
  }
  return rejection;
}

/** What the model is told of a rejected call: the person declined it, or a policy refused it with nobody asked. */
function rejectionText(approval: Extract<ToolApprovalAnswer, { decision: "reject" }>): string {
  const reason = approval.reason ? ` Reason: ${approval.reason}` : "";
  if (approval.by === "policy") {
    return `This tool call was not run: the run's approval policy refused it, and no person was asked.${reason} Do not retry it; carry on without it, or stop and say what it would need.`;
  }
  return `The person declined to run this tool call.${reason} Do not retry it unless they ask.`;
}

async function runOne(entry: PreparedCall, approval: ToolApprovalAnswer | undefined, context: NodeContext): Promise<ToolResultPart> {
  const { call } = entry;
  const result = (isError: boolean, output: unknown, extra: { display?: ToolDisplay[] | undefined; locations?: ToolLocation[] | undefined } = {}): ToolResultPart => {
    const part: ToolResultPart = { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: toJson(output) };
    if (isError) {
      part.isError = true;
    }
    if (extra.display?.length) {
      part.display = extra.display;
    }
    if (extra.locations?.length) {
      part.locations = extra.locations;
    }
    return part;
  };
  if (entry.problem || !entry.tool) {
    const part = result(true, entry.problem ?? "The tool could not run.");
    context.emit({ type: "tool-end", toolCallId: call.toolCallId, toolName: call.toolName, status: "error", output: part.output });
    return part;
  }
  if (approval?.decision === "reject") {
    const part = result(true, rejectionText(approval));
    context.emit({ type: "tool-end", toolCallId: call.toolCallId, toolName: call.toolName, status: "rejected", output: part.output });
    return part;
  }
  const tool = entry.tool;
  let input = entry.input;
  if (approval?.decision === "edit") {
    // The person changed the input before approving: it is checked as the model's would be.
    const edited = tool.input ? tool.input.safeParse(approval.input) : { success: true as const, data: approval.input };
    if (!edited.success) {
      const part = result(true, `The person edited the input of this call, and the edited input is not valid: ${z.prettifyError(edited.error)}`);
      part.editedInput = approval.input;
      context.emit({ type: "tool-end", toolCallId: call.toolCallId, toolName: call.toolName, status: "error", output: part.output });
      return part;
    }
    input = edited.data;
  }
  const stored = await context.memo(call.toolCallId, async () => {
    const part = await execute(tool, input, call, context, result);
    if (approval?.decision === "edit") {
      part.editedInput = toJson(input);
    }
    return part as unknown as JsonValue;
  });
  return stored as unknown as ToolResultPart;
}

async function execute(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see PreparedCall
  tool: Tool<any>,
  input: unknown,
  call: ToolCallPart,
  context: NodeContext,
  result: (isError: boolean, output: unknown, extra?: { display?: ToolDisplay[] | undefined; locations?: ToolLocation[] | undefined }) => ToolResultPart,
): Promise<ToolResultPart> {
  const start: Extract<Parameters<NodeContext["emit"]>[0], { type: "tool-start" }> = { type: "tool-start", toolCallId: call.toolCallId, toolName: call.toolName, input: toJson(input) };
  const title = tool.title?.(input);
  if (title) {
    start.title = title;
  }
  const locations = tool.locations?.(input);
  if (locations?.length) {
    start.locations = locations;
  }
  context.emit(start);
  let questions = 0;
  const toolContext: ToolContext = {
    toolCallId: call.toolCallId,
    threadId: context.threadId,
    runId: context.runId,
    principal: context.principal,
    config: context.config,
    signal: context.signal,
    store: context.store,
    ask: <T>(question: JsonValue, options?: { schema?: JsonObject | undefined }) => {
      const value: ToolQuestion = { kind: "question", toolCallId: call.toolCallId, toolName: call.toolName, question };
      const id = `ask:${call.toolCallId}:${questions++}`;
      return context.interrupt<T>(value as unknown as JsonValue, options?.schema ? { id, schema: options.schema } : { id });
    },
    report: (update) => context.emit({ type: "tool-update", toolCallId: call.toolCallId, ...update }),
    plan: (entries) => context.emit({ type: "plan", entries: entries.map((entry) => ({ content: entry.content, priority: entry.priority, status: entry.status })) }),
  };
  let part: ToolResultPart;
  try {
    const returned: unknown = await tool.execute(input, toolContext);
    part = isToolOutput(returned) ? result(Boolean(returned.isError), returned.output, returned) : result(false, returned);
  } catch (error) {
    if (error instanceof PauseSignal || context.signal.aborted) {
      throw error;
    }
    part = result(true, `Error: ${errorMessage(error)}`);
  }
  const end: Extract<Parameters<NodeContext["emit"]>[0], { type: "tool-end" }> = {
    type: "tool-end",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    status: part.isError ? "error" : "success",
    output: part.output,
  };
  if (part.display) {
    end.display = part.display;
  }
  if (part.locations) {
    end.locations = part.locations;
  }
  context.emit(end);
  return part;
}
