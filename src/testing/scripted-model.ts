// A LanguageModelV3 that replies from a script, for testing agents without a model server. It
// records every call, so a test can check what the model was sent.

import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";

import type { FinishReason } from "../graph/events.js";

/** One scripted reply. Text and reasoning given as arrays stream as those chunks. */
export interface ScriptedReply {
  text?: string | readonly string[] | undefined;
  reasoning?: string | readonly string[] | undefined;
  toolCalls?: readonly { toolName: string; input: unknown; toolCallId?: string | undefined }[] | undefined;
  /** Defaults to `tool-calls` when there are tool calls, else `stop`. */
  finishReason?: FinishReason | undefined;
  /** Streamed as an error part after the other parts. */
  error?: unknown;
  /** Milliseconds to wait before each part (the wait ends early on abort). */
  delayMs?: number | undefined;
}

export type Script = readonly ScriptedReply[] | ((call: LanguageModelV3CallOptions, index: number) => ScriptedReply);

const usage: LanguageModelV3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

export class ScriptedModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider = "scripted";
  readonly modelId: string;
  readonly supportedUrls = {};
  /** Every call, in order. */
  readonly calls: LanguageModelV3CallOptions[] = [];

  constructor(
    private readonly script: Script,
    modelId = "scripted",
  ) {
    this.modelId = modelId;
  }

  private next(options: LanguageModelV3CallOptions): ScriptedReply {
    const index = this.calls.length;
    this.calls.push(options);
    if (typeof this.script === "function") {
      return this.script(options, index);
    }
    const reply = this.script[index];
    if (!reply) {
      throw new Error(`ScriptedModel has no reply number ${index + 1} (the script has ${this.script.length}).`);
    }
    return reply;
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const reply = this.next(options);
    const parts = toParts(reply);
    const signal = options.abortSignal;
    let index = 0;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      pull: async (controller) => {
        if (reply.delayMs) {
          await wait(reply.delayMs, signal);
        }
        if (signal?.aborted) {
          controller.error(signal.reason ?? new Error("aborted"));
          return;
        }
        const part = parts[index++];
        if (part) {
          controller.enqueue(part);
        } else {
          controller.close();
        }
      },
    });
    return { stream };
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const reply = this.next(options);
    if (reply.error !== undefined) {
      throw reply.error;
    }
    const content: LanguageModelV3Content[] = [];
    if (reply.reasoning !== undefined) {
      content.push({ type: "reasoning", text: joined(reply.reasoning) });
    }
    if (reply.text !== undefined) {
      content.push({ type: "text", text: joined(reply.text) });
    }
    reply.toolCalls?.forEach((call, index) => {
      content.push({ type: "tool-call", toolCallId: call.toolCallId ?? `call_${index}`, toolName: call.toolName, input: JSON.stringify(call.input) });
    });
    return { content, finishReason: { unified: finishOf(reply), raw: undefined }, usage, warnings: [] };
  }
}

function toParts(reply: ScriptedReply): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (reply.reasoning !== undefined) {
    parts.push({ type: "reasoning-start", id: "r0" });
    for (const delta of chunks(reply.reasoning)) {
      parts.push({ type: "reasoning-delta", id: "r0", delta });
    }
    parts.push({ type: "reasoning-end", id: "r0" });
  }
  if (reply.text !== undefined) {
    parts.push({ type: "text-start", id: "t0" });
    for (const delta of chunks(reply.text)) {
      parts.push({ type: "text-delta", id: "t0", delta });
    }
    parts.push({ type: "text-end", id: "t0" });
  }
  reply.toolCalls?.forEach((call, index) => {
    const id = call.toolCallId ?? `call_${index}`;
    const input = JSON.stringify(call.input);
    parts.push({ type: "tool-input-start", id, toolName: call.toolName });
    parts.push({ type: "tool-input-delta", id, delta: input });
    parts.push({ type: "tool-input-end", id });
    parts.push({ type: "tool-call", toolCallId: id, toolName: call.toolName, input });
  });
  if (reply.error !== undefined) {
    parts.push({ type: "error", error: reply.error });
  }
  parts.push({ type: "finish", finishReason: { unified: finishOf(reply), raw: undefined }, usage });
  return parts;
}

function finishOf(reply: ScriptedReply): FinishReason {
  return reply.finishReason ?? (reply.toolCalls?.length ? "tool-calls" : "stop");
}

function chunks(value: string | readonly string[]): readonly string[] {
  return typeof value === "string" ? [value] : value;
}

function joined(value: string | readonly string[]): string {
  return typeof value === "string" ? value : value.join("");
}

function wait(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
