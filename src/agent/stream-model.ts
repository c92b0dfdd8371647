// One model call: streams the reply through `doStream`, emits text, reasoning and tool-call events
// as the parts arrive, and assembles the finished assistant message.

import { APICallError, type LanguageModelV3, type LanguageModelV3CallOptions, type LanguageModelV3StreamPart } from "@ai-sdk/provider";

import type { FinishReason, NodeEvent, Usage } from "../graph/events.js";
import type { AssistantMessage, AssistantPart } from "../types/messages.js";
import { ModelCallError } from "./agent-errors.js";

export interface ModelReply {
  message: AssistantMessage;
  finishReason: FinishReason;
  usage: Usage | undefined;
}

type Block =
  | { type: "text" | "reasoning"; text: string; providerMetadata?: Record<string, Record<string, unknown>> }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown; providerMetadata?: Record<string, Record<string, unknown>> };

const RETRIES = 2;

/**
 * Calls the model and streams its reply. A retryable API error before any output is retried twice
 * with a short backoff; an error after output has started fails the call, because the person has
 * already seen part of the reply.
 */
export async function streamModel(
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
  messageId: string,
  emit: (event: NodeEvent) => void,
): Promise<ModelReply> {
  for (let attempt = 0; ; attempt++) {
    let started = false;
    try {
      const result = await model.doStream(options);
      return await consume(result.stream, messageId, emit, () => {
        started = true;
      });
    } catch (error) {
      if (options.abortSignal?.aborted) {
        throw options.abortSignal.reason ?? error;
      }
      if (!started && attempt < RETRIES && APICallError.isInstance(error) && error.isRetryable) {
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
        continue;
      }
      throw error instanceof ModelCallError ? error : new ModelCallError(model, error, { midStream: started });
    }
  }
}

async function consume(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  messageId: string,
  emit: (event: NodeEvent) => void,
  onStart: () => void,
): Promise<ModelReply> {
  const blocks: Block[] = [];
  const open = new Map<string, Block>();
  let finishReason: FinishReason = "other";
  let usage: Usage | undefined;
  let announced = false;
  const announce = () => {
    if (!announced) {
      announced = true;
      onStart();
      emit({ type: "message-start", messageId });
    }
  };
  const textBlock = (type: "text" | "reasoning", id: string) => {
    const key = `${type}:${id}`;
    let block = open.get(key);
    if (!block) {
      block = { type, text: "" };
      open.set(key, block);
      blocks.push(block);
    }
    return block as Extract<Block, { type: "text" | "reasoning" }>;
  };
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) {
        break;
      }
      switch (part.type) {
        case "text-start":
        case "reasoning-start":
          announce();
          textBlock(part.type === "text-start" ? "text" : "reasoning", part.id);
          break;
        case "text-delta":
        case "reasoning-delta": {
          announce();
          const type = part.type === "text-delta" ? "text" : "reasoning";
          const block = textBlock(type, part.id);
          block.text += part.delta;
          if (part.delta.length > 0) {
            emit({ type: type === "text" ? "text-delta" : "reasoning-delta", messageId, delta: part.delta });
          }
          break;
        }
        case "text-end":
        case "reasoning-end": {
          const block = open.get(`${part.type === "text-end" ? "text" : "reasoning"}:${part.id}`);
          if (block && part.providerMetadata) {
            block.providerMetadata = part.providerMetadata;
          }
          break;
        }
        case "tool-input-start":
          announce();
          emit({ type: "tool-call-start", messageId, toolCallId: part.id, toolName: part.toolName });
          break;
        case "tool-input-delta":
          emit({ type: "tool-call-delta", toolCallId: part.id, delta: part.delta });
          break;
        case "tool-call": {
          announce();
          const input = parseInput(part.input);
          const block: Block = { type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, input };
          if (part.providerMetadata) {
            block.providerMetadata = part.providerMetadata;
          }
          blocks.push(block);
          emit({ type: "tool-call-end", messageId, toolCallId: part.toolCallId, toolName: part.toolName, input });
          break;
        }
        case "finish":
          finishReason = part.finishReason.unified;
          usage = toUsage(part.usage);
          break;
        case "error":
          throw part.error;
        default:
          break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  announce();
  const parts: AssistantPart[] = [];
  for (const block of blocks) {
    if (block.type === "tool-call") {
      parts.push(block);
    } else if (block.text.length > 0 || block.providerMetadata) {
      parts.push(block.providerMetadata ? { type: block.type, text: block.text, providerMetadata: block.providerMetadata } : { type: block.type, text: block.text });
    }
  }
  const message: AssistantMessage = { id: messageId, role: "assistant", parts, finishReason, createdAt: new Date().toISOString() };
  emit(usage ? { type: "message-end", messageId, finishReason, usage } : { type: "message-end", messageId, finishReason });
  return { message, finishReason, usage };
}

/** Tool input arrives as JSON text; text that is not JSON is kept as a string for the tool node to refuse. */
function parseInput(input: string): unknown {
  if (input.trim() === "") {
    return {};
  }
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return { __invalidJson: input };
  }
}

function toUsage(usage: { inputTokens: { total: number | undefined }; outputTokens: { total: number | undefined; reasoning?: number | undefined } }): Usage {
  const result: Usage = {};
  if (usage.inputTokens.total !== undefined) {
    result.inputTokens = usage.inputTokens.total;
  }
  if (usage.outputTokens.total !== undefined) {
    result.outputTokens = usage.outputTokens.total;
  }
  if (usage.outputTokens.reasoning !== undefined) {
    result.reasoningTokens = usage.outputTokens.reasoning;
  }
  return result;
}
