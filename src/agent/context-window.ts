// How large a model's context window is, as an agent is told it, and how many tokens a prompt takes
// by weft's estimate: what the provider counted for the last call, plus the characters added since.

import type { LanguageModelV3FunctionTool, LanguageModelV3Prompt } from "@ai-sdk/provider";

import { WeftError } from "../errors/weft-error.js";

/**
 * The context window an agent keeps its model calls within (AgentOptions.context). Before a model
 * call whose prompt would not fit in `window - reserve` tokens, older turns are compacted into a
 * summary written by the model; see compaction.ts. `C` is what a function of the run receives
 * (AgentRunContext).
 */
export interface AgentContextOptions<C> {
  /**
   * The model's context window in tokens: a number, or one per run (for the model a person
   * picked); undefined for a window that is not known, for which nothing is compacted unless asked.
   */
  window: number | ((context: C) => number | undefined);
  /**
   * Tokens left free for the model's reply (and for error in the estimate). Default
   * `maxOutputTokens` when the agent sets it, else a fifth of the window, at most 16384.
   */
  reserve?: number | undefined;
  /** What the summariser is told to do, instead of DEFAULT_SUMMARY_INSTRUCTIONS. */
  summaryInstructions?: string | undefined;
}

/** The tokens a prompt may take, for a window and a reserve (see AgentContextOptions.reserve). */
export function promptLimit(window: number, reserve: number | undefined, maxOutputTokens: number | undefined): number {
  const room = reserve ?? maxOutputTokens ?? Math.min(Math.floor(window / 5), 16384);
  return Math.max(0, window - room);
}

/** Throws a WeftError (`invalid_option`) for a window or reserve that is not a whole number of tokens. */
export function checkContextOptions(options: AgentContextOptions<never>): void {
  if (typeof options.window === "number") {
    checkWindow(options.window);
  } else if (typeof options.window !== "function") {
    throw new WeftError("invalid_option", "context.window must be a number of tokens, or a function of the run that gives one.");
  }
  if (options.reserve !== undefined && !(Number.isSafeInteger(options.reserve) && options.reserve >= 0)) {
    throw new WeftError("invalid_option", `context.reserve must be a whole number of tokens, 0 or more, not ${String(options.reserve)}.`);
  }
}

export function checkWindow(window: number): void {
  if (!Number.isSafeInteger(window) || window <= 0) {
    throw new WeftError("invalid_option", `context.window must be a whole number of tokens above 0, not ${String(window)}.`);
  }
}

/**
 * Roughly how many tokens a value takes: a token for every 4 characters of its JSON. English
 * prose and code run at 3 to 4.5 characters a token in the common tokenisers, so this is close for
 * text and over for base64 data; the JSON syntax it counts stands for the provider's own framing.
 * Where the provider counted a prompt (the last call's input tokens), that count is used instead
 * for the part it covers (see estimatePrompt).
 */
export function estimateTokens(value: unknown): number {
  if (value === undefined) {
    return 0;
  }
  return Math.ceil(JSON.stringify(value).length / 4);
}

/** What a model call's prompt was made of, kept with its input token count so the next estimate can build on it. */
export interface ContextMeasure {
  /** How many of the conversation's messages the prompt was made from. */
  messages: number;
  /** The id of the last of them, to tell that the conversation still starts the same way. */
  lastId: string | undefined;
  /** The compaction the prompt was made with, if any. */
  compactionId: string | undefined;
  /** The input tokens the provider reported for it. */
  inputTokens: number;
}

/**
 * The tokens a prompt will take: the estimate of the whole prompt (with the tool descriptions), or,
 * when larger, what the provider counted for the last call's prompt plus the estimate of the
 * messages added since (`added`), when that call was made from the same start of the conversation.
 * The larger of the two, so a provider that counts more than 4 characters a token is believed,
 * and a count for another model (a smaller tokeniser) cannot make a prompt seem smaller than it is.
 */
export function estimatePrompt(prompt: LanguageModelV3Prompt, tools: readonly LanguageModelV3FunctionTool[] | undefined, measured?: { inputTokens: number; added: unknown[] } | undefined): number {
  const whole = estimateTokens(prompt) + (tools && tools.length > 0 ? estimateTokens(tools) : 0);
  if (!measured) {
    return whole;
  }
  return Math.max(whole, measured.inputTokens + estimateTokens(measured.added));
}
