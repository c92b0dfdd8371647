// A model that loads its provider package on first use, so a program that only starts (an agent
// answering `initialize`) does not pay for loading it.

import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";

import { parseModelSpec, resolveModel, type ResolveModelOptions } from "./resolve-model.js";

/**
 * A model for a "provider:model" string whose provider loads when the model is first called.
 * `options` may be a function, asked then (and again after a load that failed), for settings
 * that are read only when needed, such as a key from a file.
 */
export function lazyModel(spec: string, options: ResolveModelOptions | (() => ResolveModelOptions) = {}): LanguageModelV3 {
  const { provider, modelId } = parseModelSpec(spec);
  let loaded: Promise<LanguageModelV3> | undefined;
  const load = () => {
    loaded ??= Promise.resolve()
      .then(() => resolveModel(spec, typeof options === "function" ? options() : options))
      .catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
    return loaded;
  };
  return {
    specificationVersion: "v3",
    provider,
    modelId,
    supportedUrls: {},
    doStream: async (call: LanguageModelV3CallOptions) => (await load()).doStream(call),
    doGenerate: async (call: LanguageModelV3CallOptions) => (await load()).doGenerate(call),
  };
}
