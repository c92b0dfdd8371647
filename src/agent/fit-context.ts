// Before a model call: the prompt, made to fit the context window. When the conversation as the
// model sees it would not fit, older messages are compacted into a summary the model writes; when
// that fails, the oldest whole turns are left out of this call; a prompt is never sent larger than
// the limit.

import type { LanguageModelV3, LanguageModelV3FunctionTool, LanguageModelV3Prompt } from "@ai-sdk/provider";

import { WeftError } from "../errors/weft-error.js";
import type { NodeEvent } from "../graph/events.js";
import { createMessageId } from "../graph/messages.js";
import type { Message } from "../types/messages.js";
import { chooseCut, type Compaction, compactedView, coveredCount, dropOldest, summaryMessage } from "./compaction.js";
import { type ContextMeasure, estimatePrompt } from "./context-window.js";
import { toModelPrompt } from "./model-prompt.js";
import { DEFAULT_SUMMARY_INSTRUCTIONS, summarizeConversation } from "./summarize-conversation.js";
import { errorMessage } from "../errors/error-message.js";

/** The share of the prompt limit that recent messages may keep as they are when older ones are summarised. */
const KEEP_SHARE = 0.4;

export interface FitRequest {
  messages: readonly Message[];
  compaction: Compaction | null;
  measure: ContextMeasure | null;
  instructions: string | undefined;
  tools: LanguageModelV3FunctionTool[] | undefined;
  /** The window in tokens, or undefined when it is not known. */
  window: number | undefined;
  /** The tokens the prompt may take (Infinity when the window is not known). */
  limit: number;
  summaryInstructions: string | undefined;
  model: LanguageModelV3;
  /** Compact now, whatever the size (on demand): everything that can be summarised is. */
  force: boolean;
  emit: (event: NodeEvent) => void;
  signal: AbortSignal;
  idleTimeoutMs: number | undefined;
}

export interface Fitted {
  prompt: LanguageModelV3Prompt;
  /** The compaction in effect, new when one was made. */
  compaction: Compaction | null;
  /** How the prompt was made, to measure it by the call's input tokens; undefined when older turns were left out of it. */
  measure: Omit<ContextMeasure, "inputTokens"> | undefined;
}

export async function fitContext(request: FitRequest): Promise<Fitted> {
  const { messages, instructions, tools, limit } = request;
  let compaction = request.compaction;
  const made = () => {
    const covered = coveredCount(messages, compaction);
    const prompt = toModelPrompt(instructions, compactedView(messages, compaction));
    return { prompt, compactionId: covered === undefined ? undefined : compaction?.id };
  };
  let current = made();
  const measure = () => ({ messages: messages.length, lastId: messages.at(-1)?.id, compactionId: current.compactionId });
  if (!request.force && limit === Infinity) {
    return { prompt: current.prompt, compaction, measure: measure() };
  }
  if (!request.force && estimatePrompt(current.prompt, tools, measured(request, current.compactionId)) <= limit) {
    return { prompt: current.prompt, compaction, measure: measure() };
  }
  compaction = await compact(request, compaction);
  current = made();
  if (estimatePrompt(current.prompt, tools) <= limit || request.force) {
    return { prompt: current.prompt, compaction, measure: measure() };
  }
  // The last resort: leave out the oldest whole turns (after the summary, if there is one) for this call.
  const covered = coveredCount(messages, compaction);
  const head = covered !== undefined && compaction ? [summaryMessage(compaction)] : [];
  const fits = (kept: Message[]) => estimatePrompt(toModelPrompt(instructions, [...head, ...kept]), tools) <= limit;
  const cut = dropOldest(messages, covered ?? 0, fits);
  if (cut === undefined) {
    throw new WeftError(
      "context_overflow",
      `The conversation does not fit the model's context window of ${String(request.window)} tokens, even with only its latest step: the instructions, tool descriptions or the latest message are too large.`,
    );
  }
  request.emit({ type: "notice", severity: "warning", title: "Older messages were left out to fit the context window", description: `The model was sent the conversation from message ${cut + 1} of ${messages.length}.` });
  return { prompt: toModelPrompt(instructions, [...head, ...messages.slice(cut)]), compaction, measure: undefined };
}

/** The last call's count, when it was made from the same start of the conversation and the same compaction. */
function measured(request: FitRequest, compactionId: string | undefined): { inputTokens: number; added: unknown[] } | undefined {
  const { measure, messages } = request;
  if (!measure || measure.compactionId !== compactionId || measure.messages > messages.length || messages[measure.messages - 1]?.id !== measure.lastId) {
    return undefined;
  }
  return { inputTokens: measure.inputTokens, added: messages.slice(measure.messages) };
}

/**
 * Summarises the older messages, with the summary before them: the compaction to use from now on,
 * or the one there was when nothing could be summarised or the summary failed (told as a failed
 * compaction). A cancel ends it as cancelled and rejects.
 */
async function compact(request: FitRequest, before: Compaction | null): Promise<Compaction | null> {
  const { messages, emit, limit } = request;
  const covered = coveredCount(messages, before);
  const start = covered ?? 0;
  const cut = chooseCut(messages, { start, keep: Number.isFinite(limit) ? Math.floor(limit * KEEP_SHARE) : Infinity, all: request.force });
  if (cut === undefined && !request.force) {
    return before;
  }
  const compactionId = createMessageId("compaction");
  emit({ type: "compaction", compactionId, status: "in_progress" });
  if (cut === undefined) {
    emit({ type: "compaction", compactionId, status: "failed", error: "There is nothing to summarise yet: the conversation is empty or already summarised." });
    return before;
  }
  // A summary, with the prompt it came from, fits the window: it is no longer than the reserve (or a quarter of the limit).
  const window = request.window;
  const summaryTokens = window !== undefined && Number.isFinite(limit) ? Math.max(64, Math.min(window - limit, Math.floor(limit / 4))) : undefined;
  try {
    const summary = await summarizeConversation({
      model: request.model,
      instructions: request.summaryInstructions ?? DEFAULT_SUMMARY_INSTRUCTIONS,
      previous: covered !== undefined ? before?.summary : undefined,
      messages: messages.slice(start, cut),
      // With a reserve smaller than the shortest summary, the summary's prompt gives way to it.
      limit: window !== undefined && summaryTokens !== undefined ? Math.min(limit, window - summaryTokens) : limit,
      maxOutputTokens: summaryTokens,
      compactionId,
      signal: request.signal,
      emit,
      idleTimeoutMs: request.idleTimeoutMs,
    });
    const compaction: Compaction = { id: compactionId, summary: summary.text, covered: cut, through: (messages[cut - 1] as Message).id, createdAt: new Date().toISOString() };
    // The summary calls cost what they cost; what is in the context afterwards is the compacted prompt.
    const after = estimatePrompt(toModelPrompt(request.instructions, compactedView(messages, compaction)), request.tools);
    summary.usage.forEach((usage, index) => emit({ type: "message-end", messageId: `summary_${compactionId}_${index}`, usage: { ...usage, contextTokens: after } }));
    emit({ type: "compaction", compactionId, status: "completed", summary: summary.text });
    return compaction;
  } catch (error) {
    if (request.signal.aborted) {
      emit({ type: "compaction", compactionId, status: "cancelled" });
      throw error;
    }
    emit({ type: "compaction", compactionId, status: "failed", error: errorMessage(error) });
    return before;
  }
}
