// What a session's model calls use and cost, as the editor shows it (a ring of the context window,
// the money spent): how the integrator says how large a model's context window is and what it
// costs, per session config (the model picked), and the arithmetic. session-usage.ts keeps it for
// an open session and sends `usage_update`.
//
// `used` is the tokens now in the context: the last call's input and output tokens, since its
// input was the whole conversation so far and its output joins it (for a call that summarised the
// conversation, the `contextTokens` it reports: what is left after it). Reasoning counts as output, so
// for a provider that drops reasoning from later calls it is a little over; cached input counts as
// input. The schema has no model in `usage_update`, and a model's window and prices change, so
// serveAcp ships no table of models (the coding agent's is models/known-models.ts): without a
// context window, no usage is sent.

import { WeftError } from "../../errors/weft-error.js";
import type { Usage } from "../../graph/events.js";
import type { RunConfig } from "../../graph/run-outcome.js";
import type { AcpUsageRecord } from "../record/session-store.js";

/** What a model costs, per million tokens, in one currency. */
export interface AcpPrices {
  /** An ISO 4217 code such as `USD`, or a unit of your own such as `credits`. */
  currency: string;
  /** The price of a million input tokens. */
  inputPerMillion: number;
  /** The price of a million output tokens (reasoning included). */
  outputPerMillion: number;
}

/** How usage is shown to the editor (see AcpOptions.usage). */
export interface AcpUsageOptions {
  /**
   * The context window of the model a session uses now, in tokens: a number, or one per session
   * config (the model the person picked); undefined for a model whose window is not known, for
   * which no usage is sent.
   */
  contextWindow: number | ((config: RunConfig) => number | undefined);
  /** What the model costs, per session config like the window; without prices no cost is shown. */
  prices?: AcpPrices | ((config: RunConfig) => AcpPrices | undefined) | undefined;
}

/** Throws a WeftError (`invalid_option`) that says what is wrong with the options. */
export function checkUsageOptions(options: AcpUsageOptions): void {
  if (typeof options.contextWindow === "number") {
    checkWindow(options.contextWindow);
  } else if (typeof options.contextWindow !== "function") {
    throw new WeftError("invalid_option", "usage.contextWindow must be a number of tokens, or a function of the session's config that gives one.");
  }
  if (options.prices !== undefined && typeof options.prices !== "function") {
    checkPrices(options.prices);
  }
}

function checkWindow(size: number): void {
  if (!Number.isSafeInteger(size) || size <= 0) {
    throw new WeftError("invalid_option", `usage.contextWindow must be a whole number of tokens above 0, not ${String(size)}.`);
  }
}

function checkPrices(prices: AcpPrices): void {
  if (typeof prices.currency !== "string" || prices.currency.trim() === "") {
    throw new WeftError("invalid_option", "usage.prices.currency must name a currency, such as USD.");
  }
  for (const key of ["inputPerMillion", "outputPerMillion"] as const) {
    if (typeof prices[key] !== "number" || !Number.isFinite(prices[key]) || prices[key] < 0) {
      throw new WeftError("invalid_option", `usage.prices.${key} must be a price of 0 or more, not ${String(prices[key])}.`);
    }
  }
}

/**
 * The context window for a session's config, or undefined when it is not known. A function's
 * answer is checked like a number given directly; one that throws or gives a wrong answer says why.
 */
export function contextWindowFor(options: AcpUsageOptions, config: RunConfig): number | undefined {
  const size = typeof options.contextWindow === "function" ? options.contextWindow(config) : options.contextWindow;
  if (size !== undefined) {
    checkWindow(size);
  }
  return size;
}

/** The prices for a session's config, or undefined when there are none; checked as contextWindowFor's answer is. */
export function pricesFor(options: AcpUsageOptions, config: RunConfig): AcpPrices | undefined {
  const prices = typeof options.prices === "function" ? options.prices(config) : options.prices;
  if (prices !== undefined) {
    checkPrices(prices);
  }
  return prices;
}

/**
 * The session's usage after one more model call: its tokens as what is in the context now, and
 * its cost added to what the session spent (in the currency the session already counts in; a
 * call priced in another is not added, and `mismatch` says so). Undefined when the call reported
 * no input tokens.
 */
export function addCall(before: AcpUsageRecord | undefined, usage: Usage, prices: AcpPrices | undefined): { usage: AcpUsageRecord; mismatch?: string | undefined } | undefined {
  if (usage.inputTokens === undefined) {
    return undefined;
  }
  const input = usage.inputTokens;
  const output = usage.outputTokens ?? 0;
  const after: AcpUsageRecord = { used: usage.contextTokens ?? input + output };
  let cost = before?.cost;
  let mismatch: string | undefined;
  if (prices) {
    const amount = (input * prices.inputPerMillion + output * prices.outputPerMillion) / 1_000_000;
    if (!cost) {
      cost = { amount: rounded(amount), currency: prices.currency };
    } else if (cost.currency === prices.currency) {
      cost = { amount: rounded(cost.amount + amount), currency: cost.currency };
    } else {
      mismatch = `The session counts its cost in ${cost.currency}; a call priced in ${prices.currency} was not added.`;
    }
  }
  if (cost) {
    after.cost = { ...cost };
  }
  return mismatch === undefined ? { usage: after } : { usage: after, mismatch };
}

/** An amount to a billionth, so sums of small prices stay readable (no 0.30000000000000004). */
function rounded(amount: number): number {
  return Math.round(amount * 1e9) / 1e9;
}
