// Usage arithmetic and options: the tokens in the context after a call, the cost added up in one
// currency, and the options refused before a server starts.

import { describe, expect, it } from "vitest";

import { addCall, checkUsageOptions, contextWindowFor, pricesFor } from "./usage.js";

const usd = { currency: "USD", inputPerMillion: 3, outputPerMillion: 15 };

describe("addCall", () => {
  it("takes the call's input and output tokens as what is in the context now", () => {
    expect(addCall(undefined, { inputTokens: 1200, outputTokens: 300 }, undefined)).toEqual({ usage: { used: 1500 } });
    expect(addCall({ used: 1500 }, { inputTokens: 1800, outputTokens: 40, reasoningTokens: 10 }, undefined)).toEqual({ usage: { used: 1840 } });
    expect(addCall({ used: 10 }, { inputTokens: 20 }, undefined)).toEqual({ usage: { used: 20 } });
  });

  it("takes what a summary call says is left in the context, and still counts all it cost", () => {
    expect(addCall({ used: 9000 }, { inputTokens: 8000, outputTokens: 500, contextTokens: 1200 }, usd)).toEqual({ usage: { used: 1200, cost: { amount: 0.0315, currency: "USD" } } });
  });

  it("adds each call's cost to the session's, at the prices given per million tokens", () => {
    const first = addCall(undefined, { inputTokens: 1_000_000, outputTokens: 100_000 }, usd);
    expect(first).toEqual({ usage: { used: 1_100_000, cost: { amount: 4.5, currency: "USD" } } });
    const second = addCall(first?.usage, { inputTokens: 12, outputTokens: 7 }, usd);
    expect(second?.usage.cost).toEqual({ amount: 4.500141, currency: "USD" });
    // Small prices add up without float noise.
    let usage = undefined;
    for (let call = 0; call < 3; call++) {
      usage = addCall(usage, { inputTokens: 100_000, outputTokens: 0 }, { currency: "USD", inputPerMillion: 1, outputPerMillion: 0 })?.usage;
    }
    expect(usage?.cost?.amount).toBe(0.3);
  });

  it("keeps the cost counted so far when a call has no prices, and does not add a call priced in another currency", () => {
    const counted = { used: 10, cost: { amount: 1.25, currency: "USD" } };
    expect(addCall(counted, { inputTokens: 5, outputTokens: 5 }, undefined)).toEqual({ usage: { used: 10, cost: { amount: 1.25, currency: "USD" } } });
    expect(addCall(counted, { inputTokens: 5, outputTokens: 5 }, { currency: "EUR", inputPerMillion: 1, outputPerMillion: 1 })).toEqual({
      usage: { used: 10, cost: { amount: 1.25, currency: "USD" } },
      mismatch: "The session counts its cost in USD; a call priced in EUR was not added.",
    });
  });

  it("counts nothing for a call that reported no input tokens", () => {
    expect(addCall({ used: 10 }, { outputTokens: 5 }, usd)).toBeUndefined();
  });
});

describe("usage options", () => {
  it("gives the window and prices for a session's config, a number or per config", () => {
    const options = { contextWindow: (config: Record<string, string | boolean>) => (config.model === "big" ? 1_000_000 : undefined), prices: () => usd };
    expect(contextWindowFor(options, { model: "big" })).toBe(1_000_000);
    expect(contextWindowFor(options, { model: "other" })).toBeUndefined();
    expect(contextWindowFor({ contextWindow: 128_000 }, {})).toBe(128_000);
    expect(pricesFor(options, {})).toEqual(usd);
    expect(pricesFor({ contextWindow: 1 }, {})).toBeUndefined();
  });

  it("refuses a window that is not a whole number above 0, and prices that are not prices, saying which", () => {
    expect(() => checkUsageOptions({ contextWindow: 0 })).toThrow("usage.contextWindow must be a whole number of tokens above 0, not 0.");
    expect(() => checkUsageOptions({ contextWindow: 1.5 })).toThrow(expect.objectContaining({ code: "invalid_option" }));
    expect(() => checkUsageOptions({ contextWindow: "big" as unknown as number })).toThrow("usage.contextWindow must be a number of tokens, or a function");
    expect(() => checkUsageOptions({ contextWindow: 10, prices: { ...usd, currency: "" } })).toThrow("usage.prices.currency must name a currency");
    expect(() => checkUsageOptions({ contextWindow: 10, prices: { ...usd, outputPerMillion: -1 } })).toThrow("usage.prices.outputPerMillion must be a price of 0 or more, not -1.");
    expect(() => contextWindowFor({ contextWindow: () => -5 }, {})).toThrow("not -5");
    expect(() => checkUsageOptions({ contextWindow: () => 10, prices: () => undefined })).not.toThrow();
  });
});
