// One model call: streams the reply through `doStream`, emits text, reasoning and tool-call events
// as the parts arrive, and assembles the finished assistant message.

import { APICallError, type LanguageModelV3, type LanguageModelV3CallOptions, type LanguageModelV3StreamPart } from "@ai-sdk/provider";

import type { FinishReason, NodeEvent, Usage } from "../graph/events.js";
import { parseJson } from "../store-core/parse-json.js";
import type { AssistantMessage, AssistantPart } from "../types/messages.js";
import { ModelCallError } from "./agent-errors.js";
import { retryAfterMs } from "./retry-after.js";
import { ReplyCallIds } from "./reply-call-ids.js";

export interface ModelReply {
  message: AssistantMessage;
  finishReason: FinishReason;
  usage: Usage | undefined;
}

export interface StreamModelOptions {
  /** Stop the call when no stream part arrives for this long. Default {@link DEFAULT_MODEL_IDLE_TIMEOUT_MS}. */
  idleTimeoutMs?: number | undefined;
  /** The tool-call ids the conversation holds already; a call the model names with one gets its own (see ReplyCallIds). */
  takenCallIds?: (() => Set<string>) | undefined;
}

type Block =
  | { type: "text" | "reasoning"; text: string; providerMetadata?: Record<string, Record<string, unknown>> | undefined }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown; providerMetadata?: Record<string, Record<string, unknown>> | undefined };

const RETRIES = 2;

/**
 * How long a model call may send nothing before it is stopped: 5 minutes. Long, because stopping
 * a call that was working throws away what the person paid for and a retry would likely wait as
 * long again: models that think before they answer may stream nothing for minutes, and a local
 * server may first load the model or read a long prompt. A server that is gone still frees the
 * session within minutes, and the person can cancel sooner.
 */
export const DEFAULT_MODEL_IDLE_TIMEOUT_MS = 300_000;

/**
 * The longest wait a provider's `Retry-After` is honoured for: 30 s. Someone is watching the
 * editor; past that, failing at once with the wait the provider asked for tells them more than a
 * spinner does.
 */
export const MAX_RETRY_WAIT_MS = 30_000;

/** What the assistant message says when the model sent no text and no tool calls. */
export const EMPTY_REPLY_NOTE = "(The model sent an empty reply.)";

/**
 * Calls the model and streams its reply.
 *
 * A retryable API error (429, 5xx, or a busy error sent in the stream) before any output is
 * retried twice: after the wait the provider asked for in `retry-after-ms` or `retry-after`, if
 * it is at most {@link MAX_RETRY_WAIT_MS} (a longer one fails the call at once, saying how long
 * the provider asked to wait), else after a short backoff. An error after output has started fails the call,
 * because the person has already seen part of the reply.
 *
 * When no stream part arrives for `idleTimeoutMs` (counting the wait for the response to start),
 * the call is stopped and fails with a {@link ModelCallError} saying so; it is not retried.
 * Aborting `options.abortSignal` ends the call at once, during a retry's wait too, and the call
 * rejects with the signal's reason.
 *
 * A reply with no text and no tool calls becomes a message saying {@link EMPTY_REPLY_NOTE} (also
 * streamed as text), so the conversation never holds an empty assistant message, which some
 * providers refuse.
 */
export async function streamModel(
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
  messageId: string,
  emit: (event: NodeEvent) => void,
  settings: StreamModelOptions = {},
): Promise<ModelReply> {
  const caller = options.abortSignal;
  const idleTimeoutMs = settings.idleTimeoutMs ?? DEFAULT_MODEL_IDLE_TIMEOUT_MS;
  for (let attempt = 0; ; attempt++) {
    let started = false;
    const watch = new IdleWatch(idleTimeoutMs, caller);
    try {
      const result = await watch.guard(Promise.resolve(model.doStream({ ...options, abortSignal: watch.signal })));
      watch.touch();
      return await consume(result.stream, messageId, emit, watch, new ReplyCallIds(settings.takenCallIds), () => {
        started = true;
      });
    } catch (error) {
      watch.stop();
      if (caller?.aborted) {
        throw caller.reason ?? error;
      }
      if (watch.expired) {
        throw new ModelCallError(model, error, { idleMs: idleTimeoutMs, midStream: started });
      }
      if (error instanceof ModelCallError) {
        throw error;
      }
      const apiError = APICallError.isInstance(error) ? error : undefined;
      const retryable = apiError ? apiError.isRetryable : isTransientStreamError(error);
      const asked = apiError && retryable ? retryAfterMs(apiError.responseHeaders, Date.now()) : undefined;
      if (!started && retryable && attempt < RETRIES && (asked === undefined || asked <= MAX_RETRY_WAIT_MS)) {
        await pause(asked ?? 250 * 2 ** attempt, caller);
        if (caller?.aborted) {
          throw caller.reason ?? error;
        }
        continue;
      }
      const details = asked === undefined ? { midStream: started } : { midStream: started, retryAfterMs: asked, maxRetryWaitMs: MAX_RETRY_WAIT_MS };
      throw new ModelCallError(model, error, details);
    } finally {
      watch.stop();
    }
  }
}

/**
 * Watches one attempt for silence: `touch()` on every part; after `timeoutMs` without one, the
 * attempt's signal aborts (closing the HTTP request) and whatever `guard()` is waiting on rejects.
 */
class IdleWatch {
  expired = false;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly unlink: () => void;

  constructor(
    private readonly timeoutMs: number,
    caller: AbortSignal | undefined,
  ) {
    // The caller's cancel stops the attempt too (by hand: AbortSignal.any needs Node 20.3).
    const forward = () => this.controller.abort(caller?.reason);
    if (caller?.aborted) {
      forward();
    } else {
      caller?.addEventListener("abort", forward, { once: true });
    }
    this.unlink = () => caller?.removeEventListener("abort", forward);
    this.touch();
  }

  /** Aborts when the attempt is stopped, by the caller or for silence: give it to `doStream`. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Restarts the wait: a part arrived. */
  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new Error(`The model sent nothing for ${this.timeoutMs} ms.`));
    }, this.timeoutMs);
  }

  /**
   * `promise`, or a rejection as soon as the attempt is stopped. Each call listens for the abort
   * only until `promise` settles: a race against one promise that lives as long as the attempt
   * would keep every part read (a reply's whole text, chunk by chunk) until the attempt ends.
   */
  guard<T>(promise: Promise<T>): Promise<T> {
    // The loser may still reject later; that is expected and not a failure.
    promise.catch(() => undefined);
    const signal = this.controller.signal;
    if (signal.aborted) {
      return Promise.reject(stopReason(signal));
    }
    return new Promise<T>((resolve, reject) => {
      const stop = () => reject(stopReason(signal));
      signal.addEventListener("abort", stop, { once: true });
      promise.then(
        (value) => {
          signal.removeEventListener("abort", stop);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", stop);
          reject(error);
        },
      );
    });
  }

  /** Ends the watch: no more timer, no more listening to the caller. */
  stop(): void {
    clearTimeout(this.timer);
    this.unlink();
  }
}

/** Why an attempt was stopped: the signal's reason when it is an error. */
function stopReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("The model call was stopped.");
}

/** Waits `ms`, or less when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

async function consume(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  messageId: string,
  emit: (event: NodeEvent) => void,
  watch: IdleWatch,
  callIds: ReplyCallIds,
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
      const { done, value: part } = await watch.guard(reader.read());
      watch.touch();
      if (done) {
        break;
      }
      switch (part.type) {
        case "text-start":
        case "reasoning-start":
          announce();
          keepMetadata(textBlock(part.type === "text-start" ? "text" : "reasoning", part.id), part.providerMetadata);
          break;
        case "text-delta":
        case "reasoning-delta": {
          announce();
          const type = part.type === "text-delta" ? "text" : "reasoning";
          const block = textBlock(type, part.id);
          block.text += part.delta;
          // Anthropic sends a thinking block's signature as metadata on a delta of its own.
          keepMetadata(block, part.providerMetadata);
          if (part.delta.length > 0) {
            emit({ type: type === "text" ? "text-delta" : "reasoning-delta", messageId, delta: part.delta });
          }
          break;
        }
        case "text-end":
        case "reasoning-end": {
          const block = open.get(`${part.type === "text-end" ? "text" : "reasoning"}:${part.id}`);
          if (block) {
            keepMetadata(block, part.providerMetadata);
          }
          break;
        }
        case "tool-input-start":
          announce();
          emit({ type: "tool-call-start", messageId, toolCallId: callIds.started(part.id), toolName: part.toolName });
          break;
        case "tool-input-delta":
          emit({ type: "tool-call-delta", toolCallId: callIds.during(part.id), delta: part.delta });
          break;
        case "tool-call": {
          announce();
          const input = parseInput(part.input);
          const toolCallId = callIds.completed(part.toolCallId);
          const block: Block = { type: "tool-call", toolCallId, toolName: part.toolName, input };
          if (part.providerMetadata) {
            block.providerMetadata = part.providerMetadata;
          }
          blocks.push(block);
          emit({ type: "tool-call-end", messageId, toolCallId, toolName: part.toolName, input });
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
  } catch (error) {
    // Stopped while waiting for a part: close the stream rather than leave it open.
    reader.cancel().catch(() => undefined);
    throw error;
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
  if (!parts.some((part) => part.type === "tool-call" || (part.type === "text" && part.text.trim() !== ""))) {
    // Nothing to keep as a reply: say so, in the conversation and to the person. Text that is
    // only white space goes too (providers refuse it as they refuse an empty message).
    const kept = parts.filter((part) => part.type !== "text");
    parts.length = 0;
    parts.push(...kept, { type: "text", text: EMPTY_REPLY_NOTE });
    emit({ type: "text-delta", messageId, delta: EMPTY_REPLY_NOTE });
  }
  const message: AssistantMessage = { id: messageId, role: "assistant", parts, finishReason, createdAt: new Date().toISOString() };
  emit(usage ? { type: "message-end", messageId, finishReason, usage } : { type: "message-end", messageId, finishReason });
  return { message, finishReason, usage };
}

/**
 * Anthropic's in-stream error kinds that mean "busy, try again", which its provider passes on as
 * plain data rather than a retryable API error: the API answered 200, then said so in the stream.
 */
const TRANSIENT_STREAM_ERRORS = new Set(["overloaded_error", "rate_limit_error", "api_error"]);

function isTransientStreamError(error: unknown): boolean {
  const type = typeof error === "object" && error !== null ? (error as { type?: unknown }).type : undefined;
  return typeof type === "string" && TRANSIENT_STREAM_ERRORS.has(type);
}

/**
 * Adds provider metadata that arrived on a part of a text or reasoning block to the block, merged
 * per provider, so what the provider needs to see again (an item id, a thinking signature) is
 * sent back with the block whichever part carried it.
 */
function keepMetadata(block: { providerMetadata?: Record<string, Record<string, unknown>> | undefined }, metadata: Record<string, Record<string, unknown>> | undefined): void {
  if (!metadata) {
    return;
  }
  const merged = { ...block.providerMetadata };
  for (const [provider, values] of Object.entries(metadata)) {
    merged[provider] = { ...merged[provider], ...values };
  }
  block.providerMetadata = merged;
}

/** Tool input arrives as JSON text; text that is not JSON is kept as a string for the tool node to refuse. */
function parseInput(input: string): unknown {
  if (input.trim() === "") {
    return {};
  }
  return parseJson(input, { __invalidJson: input });
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
