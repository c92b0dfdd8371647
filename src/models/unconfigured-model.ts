// The model `weft acp` uses when none is configured: it answers every prompt with how to set one
// up, so the agent still starts and every turn ends normally.

import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart, LanguageModelV3StreamResult } from "@ai-sdk/provider";

/** What every prompt is answered with; `configFile` is the config file the agent reads (it need not exist). */
export function noModelMessage(configFile: string): string {
  return [
    "No model is configured, so I can't answer yet.",
    "",
    `Run \`weft setup\` in a terminal to choose one and store its key, or list models in ${configFile} (see weft's README).`,
    ...SETTING_ONE,
  ].join("\n");
}

const SETTING_ONE = [
  "Or set WEFT_MODEL (or pass --model) to one of:",
  "- openai:<model> (with OPENAI_API_KEY), for example openai:gpt-4.1-mini",
  "- anthropic:<model> (with ANTHROPIC_API_KEY), for example anthropic:claude-sonnet-4-5",
  "- ollama:<model>, for a local Ollama server",
  "- openai-compatible:<model> with WEFT_BASE_URL (or --base-url), for vLLM, LM Studio, llama.cpp and others",
  "",
  "WEFT_API_KEY overrides the provider's key variable. Then restart the agent.",
];

const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };

export class UnconfiguredModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider = "weft";
  readonly modelId = "unconfigured";
  readonly supportedUrls = {};
  private readonly message: string;

  /** `configFile`: the config file to name in the message. */
  constructor(configFile: string) {
    this.message = noModelMessage(configFile);
  }

  async doStream(_options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: this.message },
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
    ];
    return {
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) {
            controller.enqueue(part);
          }
          controller.close();
        },
      }),
    };
  }

  async doGenerate(_options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    return { content: [{ type: "text", text: this.message }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
  }
}
