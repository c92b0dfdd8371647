import { describe, expect, it } from "vitest";

import { ModelSpecError, parseModelSpec, resolveModel } from "./resolve-model.js";

describe("resolveModel", () => {
  it("splits provider and model id at the first colon", () => {
    expect(parseModelSpec("ollama:qwen3:8b")).toEqual({ provider: "ollama", modelId: "qwen3:8b" });
  });

  it("refuses unknown providers and malformed strings with ModelSpecError", () => {
    expect(() => parseModelSpec("gpt-4")).toThrow(ModelSpecError);
    expect(() => parseModelSpec("mistral:large")).toThrow(/unknown provider "mistral"/);
    expect(() => parseModelSpec("openai:")).toThrow(ModelSpecError);
  });

  it("builds LanguageModelV3 models for each provider", async () => {
    const openai = await resolveModel("openai:gpt-4.1-mini", { apiKey: "k" });
    const anthropic = await resolveModel("anthropic:claude-sonnet-4-5", { apiKey: "k" });
    const compatible = await resolveModel("openai-compatible:llama", { baseURL: "http://127.0.0.1:1/v1" });
    const ollama = await resolveModel("ollama:qwen3");
    for (const model of [openai, anthropic, compatible, ollama]) {
      expect(model.specificationVersion).toBe("v3");
    }
    expect([openai.modelId, anthropic.modelId, compatible.modelId, ollama.modelId]).toEqual(["gpt-4.1-mini", "claude-sonnet-4-5", "llama", "qwen3"]);
    expect(ollama.provider).toContain("ollama");
  });

  it("asks for a base URL for openai-compatible models", async () => {
    await expect(resolveModel("openai-compatible:llama")).rejects.toThrow(/need a base URL/);
  });
});
