import { describe, expect, it } from "vitest";

import { knownModel } from "./known-models.js";

describe("knownModel", () => {
  it("knows OpenAI and Anthropic models by id and as dated snapshots", () => {
    expect(knownModel("openai:gpt-4.1")).toEqual({ contextWindow: 1_047_576, prices: { currency: "USD", inputPerMillion: 2, outputPerMillion: 8 } });
    expect(knownModel("openai:gpt-4.1-2025-04-14")?.contextWindow).toBe(1_047_576);
    expect(knownModel("openai:o4-mini")?.reasoning).toBe(true);
    expect(knownModel("anthropic:claude-sonnet-4-5-20250929")).toMatchObject({ contextWindow: 200_000, reasoning: true });
    expect(knownModel("anthropic:claude-3-5-haiku-latest")?.reasoning).toBeUndefined();
  });

  it("knows open models by family on any server, without prices", () => {
    expect(knownModel("ollama:qwen3:8b")).toEqual({ contextWindow: 40_960 });
    expect(knownModel("ollama:qwen3-coder:30b")?.contextWindow).toBe(262_144);
    expect(knownModel("openai-compatible:Qwen/Qwen3-8B")?.contextWindow).toBe(40_960);
    expect(knownModel("openai-compatible:gpt-oss-20b")).toMatchObject({ reasoning: true });
  });

  it("does not know what it has not listed, or a malformed string", () => {
    expect(knownModel("openai:gpt-unknown")).toBeUndefined();
    expect(knownModel("ollama:qwen30")).toBeUndefined();
    expect(knownModel("not a model")).toBeUndefined();
  });

  it("answers with a copy the caller may change", () => {
    const model = knownModel("openai:gpt-4o");
    if (model?.prices) {
      model.prices.inputPerMillion = 0;
    }
    expect(knownModel("openai:gpt-4o")?.prices?.inputPerMillion).toBe(2.5);
  });
});
