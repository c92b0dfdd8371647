// Chooses a model by a "provider:model" string, such as "openai:gpt-4.1-mini",
// "anthropic:claude-sonnet-4-5", "ollama:qwen3" or "openai-compatible:llama-3.1-8b" (with a base
// URL). Provider packages load only when a model of theirs is asked for, so start-up stays fast.

import type { LanguageModelV3 } from "@ai-sdk/provider";

import { WeftError } from "../errors/weft-error.js";
import { definedFields } from "../types/defined-fields.js";
import { apiKeyProblem } from "./api-key-problem.js";

export const MODEL_PROVIDERS = ["openai", "anthropic", "openai-compatible", "ollama"] as const;

export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export interface ResolveModelOptions {
  /** The API key. Defaults to the provider's usual variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`). */
  apiKey?: string | undefined;
  /** The server's base URL. Required for `openai-compatible`; Ollama defaults to its local port. */
  baseURL?: string | undefined;
  /** Extra headers for every request. */
  headers?: Record<string, string> | undefined;
}

/** A model string that names no known provider, or lacks what its provider needs. */
export class ModelSpecError extends WeftError {
  static override readonly errorName = "ModelSpecError";

  constructor(
    readonly spec: string,
    reason: string,
  ) {
    super("invalid_model", `Cannot use model "${spec}": ${reason}`);
  }
}

/** Splits "provider:model" and checks the provider. */
export function parseModelSpec(spec: string): { provider: ModelProvider; modelId: string } {
  const colon = spec.indexOf(":");
  const provider = spec.slice(0, colon) as ModelProvider;
  const modelId = spec.slice(colon + 1);
  if (colon <= 0 || modelId.length === 0) {
    throw new ModelSpecError(spec, `write it as provider:model, where provider is one of ${MODEL_PROVIDERS.join(", ")}.`);
  }
  if (!MODEL_PROVIDERS.includes(provider)) {
    throw new ModelSpecError(spec, `unknown provider "${provider}"; use one of ${MODEL_PROVIDERS.join(", ")}.`);
  }
  return { provider, modelId };
}

export const OLLAMA_BASE_URL = "http://127.0.0.1:11434/v1";

/** The variable each provider's package reads its key from when none is given. */
const KEY_VARIABLES: Partial<Record<ModelProvider, string>> = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" };

/**
 * The LanguageModelV3 a "provider:model" string names. Throws a WeftError (`invalid_api_key`) when
 * the key, given or in the provider's variable, has a character no key has (a placeholder's "…",
 * a space), rather than letting the request fail on its header.
 */
export async function resolveModel(spec: string, options: ResolveModelOptions = {}): Promise<LanguageModelV3> {
  const { provider, modelId } = parseModelSpec(spec);
  const variable = KEY_VARIABLES[provider];
  const key = options.apiKey ?? (variable === undefined ? undefined : process.env[variable]);
  const problem = key === undefined || key === "" ? undefined : apiKeyProblem(key);
  if (problem !== undefined) {
    const where = options.apiKey === undefined ? `in ${variable as string}` : `given for ${spec}`;
    throw new WeftError("invalid_api_key", `The API key ${where} ${problem}. Set it to the real key.`);
  }
  const common = definedFields(options, ["apiKey", "baseURL", "headers"]);
  switch (provider) {
    case "openai": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      return createOpenAI(common)(modelId);
    }
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      return createAnthropic(common)(modelId);
    }
    case "openai-compatible":
    case "ollama": {
      const baseURL = options.baseURL ?? (provider === "ollama" ? OLLAMA_BASE_URL : undefined);
      if (!baseURL) {
        throw new ModelSpecError(spec, "openai-compatible models need a base URL (for example http://127.0.0.1:8000/v1).");
      }
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      return createOpenAICompatible({ name: provider, baseURL, includeUsage: true, ...definedFields(options, ["apiKey", "headers"]) }).chatModel(modelId);
    }
  }
}
