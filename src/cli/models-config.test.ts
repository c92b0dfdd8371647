import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { configFilePath, parseConfig, readModelsConfig } from "./models-config.js";
import { UsageError } from "./usage-error.js";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "weft-models-config-"));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const path = "/home/someone/.config/weft/config.json";

describe("the models config file", () => {
  it("takes the README's example as it is written", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const example = /### Models, and the config file[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const parsed = parseConfig(JSON.parse(example as string), path);
    expect(parsed.models.map((model) => model.model)).toEqual(["anthropic:claude-sonnet-4-5", "openai:gpt-4.1", "ollama:qwen3:8b", "openai-compatible:my-model"]);
    expect(parsed.default).toBe("anthropic:claude-sonnet-4-5");
  });

  it("lives under XDG_CONFIG_HOME, else ~/.config", () => {
    expect(configFilePath({ XDG_CONFIG_HOME: "/x" })).toBe("/x/weft/config.json");
    expect(configFilePath({})).toBe(join(homedir(), ".config", "weft", "config.json"));
  });

  it("reads every field of a model, with key files relative to the file's folder", () => {
    const parsed = parseConfig(
      {
        $schema: "ignored",
        models: [
          { model: "openai:gpt-4.1", name: "GPT-4.1", apiKeyFile: "keys/openai.key", contextWindow: 1000, prices: { inputPerMillion: 1, outputPerMillion: 2 }, reasoning: false },
          { model: "ollama:qwen3", baseURL: "http://box:11434/v1", listServerModels: false, apiKeyFile: "/abs/key", description: "Local" },
        ],
        default: "ollama:qwen3",
      },
      path,
    );
    expect(parsed).toEqual({
      models: [
        { model: "openai:gpt-4.1", name: "GPT-4.1", apiKeyFile: "/home/someone/.config/weft/keys/openai.key", contextWindow: 1000, prices: { currency: "USD", inputPerMillion: 1, outputPerMillion: 2 }, reasoning: false },
        { model: "ollama:qwen3", baseURL: "http://box:11434/v1", listServerModels: false, apiKeyFile: "/abs/key", description: "Local" },
      ],
      default: "ollama:qwen3",
    });
  });

  it.each([
    [{ models: {} }, "models must be a list of models"],
    [{ modles: [] }, "modles is not a field weft knows"],
    [{ models: [{}] }, "models[0].model is missing"],
    [{ models: [{ model: "gpt-4" }] }, "models[0].model is not usable"],
    [{ models: [{ model: "openai-compatible:llama" }] }, "models[0].baseURL is missing"],
    [{ models: [{ model: "ollama:qwen3", baseURL: "box:11434" }] }, "models[0].baseURL must start with http:// or https://"],
    [{ models: [{ model: "openai:gpt-4.1", contextWindow: 0 }] }, "models[0].contextWindow must be a whole number of tokens above 0, not 0"],
    [{ models: [{ model: "openai:gpt-4.1", prices: { inputPerMillion: 1 } }] }, "models[0].prices.outputPerMillion is missing"],
    [{ models: [{ model: "openai:gpt-4.1", prices: { inputPerMillion: -1, outputPerMillion: 1 } }] }, "models[0].prices.inputPerMillion must be a price of 0 or more"],
    [{ models: [{ model: "openai:gpt-4.1", reasoning: "yes" }] }, "models[0].reasoning must be true or false"],
    [{ models: [{ model: "openai:gpt-4.1" }, { model: "openai:gpt-4.1" }] }, "models lists openai:gpt-4.1 twice"],
    [{ models: [{ model: "openai:gpt-4.1" }], default: "openai:gpt-5" }, 'default is "openai:gpt-5", which is not one of the models listed (openai:gpt-4.1)'],
    [[], "the file must be a JSON object"],
  ])("refuses %j, naming the file and the field", (json, message) => {
    expect(() => parseConfig(json, path)).toThrow(UsageError);
    expect(() => parseConfig(json, path)).toThrow(`The config file ${path} is not valid: ${message}`);
  });

  it("keeps two entries of one model apart by their ids, which the default and WEFT_MODEL name", () => {
    const file = join(directory, "config.json");
    const entries = [
      { model: "openai-compatible:llama", baseURL: "http://one:8000/v1" },
      { model: "openai-compatible:llama", id: "openai-compatible:llama@two:8000", baseURL: "http://two:8000/v1" },
    ];
    writeFileSync(file, JSON.stringify({ models: entries, default: "openai-compatible:llama@two:8000" }));
    const config = readModelsConfig(file, {});
    expect(config.models).toEqual(entries);
    expect(config.default).toBe("openai-compatible:llama@two:8000");
    expect(readModelsConfig(file, { model: "openai-compatible:llama@two:8000" })).toEqual({ models: [entries[1], entries[0]], default: "openai-compatible:llama@two:8000" });
    expect(readModelsConfig(file, { model: "openai-compatible:llama" })).toEqual({ models: entries, default: "openai-compatible:llama" });
    expect(() => parseConfig({ models: [entries[0], { ...entries[1], id: "openai-compatible:llama" }] }, path)).toThrow('models lists openai-compatible:llama twice (to offer one model from two servers, give each entry an "id" of its own)');
    expect(() => parseConfig({ models: entries, default: "openai-compatible:llama@three" }, path)).toThrow("which is not one of the models listed (openai-compatible:llama, openai-compatible:llama@two:8000)");
  });

  it("puts WEFT_MODEL first and as the default, then WEFT_MODELS, then the file's models, each once", () => {
    const file = join(directory, "config.json");
    writeFileSync(file, JSON.stringify({ models: [{ model: "openai:gpt-4.1", name: "From the file" }, { model: "anthropic:claude-sonnet-4-5" }], default: "anthropic:claude-sonnet-4-5" }));
    const config = readModelsConfig(file, { model: "ollama:qwen3", models: "openai:gpt-4.1, openai:o3", apiKey: "k" });
    expect(config.models).toEqual([{ model: "ollama:qwen3", apiKey: "k" }, { model: "openai:gpt-4.1", name: "From the file" }, { model: "openai:o3", apiKey: "k" }, { model: "anthropic:claude-sonnet-4-5" }]);
    expect(config.default).toBe("ollama:qwen3");
    expect(readModelsConfig(file, {}).default).toBe("anthropic:claude-sonnet-4-5");
  });

  it("has no models and no default without a file or variables, and checks WEFT_MODELS", () => {
    expect(readModelsConfig(join(directory, "none.json"), {})).toEqual({ models: [], default: undefined });
    expect(() => readModelsConfig(join(directory, "none.json"), { models: "openai:a,nope" })).toThrow(/WEFT_MODELS: Cannot use model "nope"/);
    expect(() => readModelsConfig(join(directory, "none.json"), { models: "openai-compatible:a" })).toThrow(/needs a base URL/);
  });
});
