import { describe, expect, it } from "vitest";

import { ModelCatalog } from "./model-options.js";

describe("ModelCatalog", () => {
  const catalog = new ModelCatalog([
    { model: "openai:gpt-4.1" },
    { model: "openai:o4-mini" },
    { model: "anthropic:claude-sonnet-4-5", contextWindow: 100_000 },
    { model: "ollama:qwen3", reasoning: true, listServerModels: false },
  ]);
  const run = (config: Record<string, string>) => ({ config });

  it("offers every model, and a thought level shown only for the ones that reason", async () => {
    const options = await catalog.configOptions();
    expect(options.map((option) => option.id)).toEqual(["model", "thought_level"]);
    const thinking = options[1];
    expect(thinking?.when?.({ model: "openai:gpt-4.1" })).toBe(false);
    expect(thinking?.when?.({ model: "openai:o4-mini" })).toBe(true);
    expect(await catalog.configOptions()).toBe(options);
  });

  it("asks each provider for the effort in its own words, and a model that does not reason for none", () => {
    expect(catalog.providerOptionsFor(run({ model: "openai:o4-mini", thought_level: "high" }))).toEqual({ openai: { reasoningEffort: "high" } });
    expect(catalog.providerOptionsFor(run({ model: "anthropic:claude-sonnet-4-5", thought_level: "low" }))).toEqual({ anthropic: { thinking: { type: "enabled", budgetTokens: 2048 } } });
    expect(catalog.providerOptionsFor(run({ model: "ollama:qwen3", thought_level: "medium" }))).toEqual({ openaiCompatible: { reasoningEffort: "medium" } });
    expect(catalog.providerOptionsFor(run({ model: "openai:gpt-4.1", thought_level: "high" }))).toBeUndefined();
  });

  it("gives the window and prices of the session's model, the config file's first, and the default model's for an unknown pick", () => {
    const window = catalog.usage.contextWindow as (config: Record<string, string>) => number | undefined;
    expect(window({ model: "anthropic:claude-sonnet-4-5" })).toBe(100_000);
    expect(window({ model: "openai:o4-mini" })).toBe(200_000);
    expect(window({ model: "gone:model" })).toBe(1_047_576);
    expect(catalog.modelFor(run({ model: "openai:o4-mini" })).modelId).toBe("o4-mini");
    expect(catalog.modelFor(run({ model: "openai:o4-mini" }))).toBe(catalog.modelFor(run({ model: "openai:o4-mini" })));
  });

  it("fails the call, not the start, when a key file cannot be read", async () => {
    const missing = new ModelCatalog([{ model: "openai:gpt-4.1", apiKeyFile: "/nonexistent/weft.key" }]);
    const model = missing.modelFor(run({}));
    await expect(model.doGenerate({ prompt: [] })).rejects.toThrow(/Cannot read the API key of openai:gpt-4.1 from \/nonexistent\/weft.key: ENOENT/);
  });
});
