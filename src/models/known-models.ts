// A small table of well-known models: how large their context window is, what they cost and
// whether they take a reasoning effort, so `weft acp` can show usage without being told. A person's
// config file overrides any of it per model.
//
// The figures are the providers' published list prices (USD per million tokens, standard tier,
// no caching or batch discounts) and context windows as of 2026-12-01; they change, so treat
// them as a default, not as billing. Open models have no price (they run on your own machine or
// a host of your choice) and the window is the model's own: a server may be set to use less
// (Ollama's default context is much smaller unless `num_ctx` is raised).

import { parseModelSpec } from "./resolve-model.js";

/** What a model costs, per million tokens, in one currency. */
export interface ModelPrices {
  /** An ISO 4217 code such as `USD`. */
  currency: string;
  inputPerMillion: number;
  outputPerMillion: number;
}

/** What the table knows of a model. */
export interface KnownModel {
  /** The context window in tokens. */
  contextWindow: number;
  /** List prices; absent for open models. */
  prices?: ModelPrices | undefined;
  /** Whether the model takes a reasoning effort (OpenAI) or a thinking budget (Anthropic). */
  reasoning?: boolean | undefined;
}

const usd = (inputPerMillion: number, outputPerMillion: number): ModelPrices => ({ currency: "USD", inputPerMillion, outputPerMillion });

/** OpenAI's models by id (dated snapshots such as `gpt-4.1-2025-04-14` match their base id). */
const OPENAI: Readonly<Record<string, KnownModel>> = {
  "gpt-5.1": { contextWindow: 400_000, prices: usd(1.25, 10), reasoning: true },
  "gpt-5": { contextWindow: 400_000, prices: usd(1.25, 10), reasoning: true },
  "gpt-5-mini": { contextWindow: 400_000, prices: usd(0.25, 2), reasoning: true },
  "gpt-5-nano": { contextWindow: 400_000, prices: usd(0.05, 0.4), reasoning: true },
  "gpt-4.1": { contextWindow: 1_047_576, prices: usd(2, 8) },
  "gpt-4.1-mini": { contextWindow: 1_047_576, prices: usd(0.4, 1.6) },
  "gpt-4.1-nano": { contextWindow: 1_047_576, prices: usd(0.1, 0.4) },
  "gpt-4o": { contextWindow: 128_000, prices: usd(2.5, 10) },
  "gpt-4o-mini": { contextWindow: 128_000, prices: usd(0.15, 0.6) },
  o3: { contextWindow: 200_000, prices: usd(2, 8), reasoning: true },
  "o3-mini": { contextWindow: 200_000, prices: usd(1.1, 4.4), reasoning: true },
  "o4-mini": { contextWindow: 200_000, prices: usd(1.1, 4.4), reasoning: true },
};

/** Anthropic's models by id (dated ids such as `claude-sonnet-4-5-20250929` match their base id). */
const ANTHROPIC: Readonly<Record<string, KnownModel>> = {
  "claude-opus-4-5": { contextWindow: 200_000, prices: usd(5, 25), reasoning: true },
  "claude-opus-4-1": { contextWindow: 200_000, prices: usd(15, 75), reasoning: true },
  "claude-opus-4": { contextWindow: 200_000, prices: usd(15, 75), reasoning: true },
  "claude-sonnet-4-5": { contextWindow: 200_000, prices: usd(3, 15), reasoning: true },
  "claude-sonnet-4": { contextWindow: 200_000, prices: usd(3, 15), reasoning: true },
  "claude-haiku-4-5": { contextWindow: 200_000, prices: usd(1, 5), reasoning: true },
  "claude-3-7-sonnet": { contextWindow: 200_000, prices: usd(3, 15), reasoning: true },
  "claude-3-5-haiku": { contextWindow: 200_000, prices: usd(0.8, 4) },
};

/**
 * Open models by family, for Ollama and OpenAI-compatible servers: an id matches the longest
 * family it starts with, ignoring case, an `org/` prefix and a `:tag` (`qwen3:8b`, `Qwen/Qwen3-8B`).
 */
const OPEN: Readonly<Record<string, KnownModel>> = {
  "gpt-oss": { contextWindow: 131_072, reasoning: true },
  qwen3: { contextWindow: 40_960 },
  "qwen3-coder": { contextWindow: 262_144 },
  "qwen2.5-coder": { contextWindow: 32_768 },
  "llama3.1": { contextWindow: 131_072 },
  "llama3.2": { contextWindow: 131_072 },
  "llama3.3": { contextWindow: 131_072 },
  "llama-3.1": { contextWindow: 131_072 },
  "llama-3.3": { contextWindow: 131_072 },
  "deepseek-r1": { contextWindow: 131_072 },
  "mistral-small": { contextWindow: 131_072 },
  devstral: { contextWindow: 131_072 },
  gemma3: { contextWindow: 131_072 },
};

/**
 * What the table knows of the model a "provider:model" string names, or undefined. OpenAI and
 * Anthropic ids match exactly or as a dated snapshot of a known id; ids on Ollama and
 * OpenAI-compatible servers match by family. A malformed string is simply not known.
 */
export function knownModel(spec: string): KnownModel | undefined {
  let parsed: ReturnType<typeof parseModelSpec>;
  try {
    parsed = parseModelSpec(spec);
  } catch {
    return undefined;
  }
  const { provider, modelId } = parsed;
  if (provider === "openai" || provider === "anthropic") {
    const table = provider === "openai" ? OPENAI : ANTHROPIC;
    const base = modelId.replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/, "");
    return copy(table[modelId] ?? table[base]);
  }
  const id = modelId.toLowerCase().replace(/^[^/]*\//, "").replace(/:.*$/, "");
  const family = Object.keys(OPEN)
    .filter((name) => id === name || id.startsWith(`${name}-`))
    .sort((left, right) => right.length - left.length)[0];
  return copy(family === undefined ? undefined : OPEN[family]);
}

/** A copy, so a caller that changes what it got does not change the table. */
function copy(model: KnownModel | undefined): KnownModel | undefined {
  return model && { ...model, ...(model.prices ? { prices: { ...model.prices } } : {}) };
}
