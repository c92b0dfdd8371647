// Errors of the agent loop.

import type { LanguageModelV3 } from "@ai-sdk/provider";

import { inSeconds } from "../errors/in-seconds.js";
import { WeftError } from "../errors/weft-error.js";

export interface ModelCallErrorOptions {
  /** Output had already arrived when the call failed. */
  midStream?: boolean | undefined;
  /** The call was stopped because the model sent nothing for this many milliseconds. */
  idleMs?: number | undefined;
  /** How long the provider asked to wait before trying again, when it said. */
  retryAfterMs?: number | undefined;
  /** The longest wait weft honours, when the provider asked for more. */
  maxRetryWaitMs?: number | undefined;
}

/** The model could not be called, or its reply broke off. The message says why in plain words. */
export class ModelCallError extends WeftError {
  static override readonly errorName = "ModelCallError";

  readonly provider: string;
  readonly modelId: string;
  readonly statusCode: number | undefined;
  /** Set when the call was stopped for sending nothing for this many milliseconds. */
  readonly idleMs: number | undefined;
  /** How long the provider asked to wait before trying again, when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(model: LanguageModelV3, cause: unknown, options: ModelCallErrorOptions = {}) {
    const status = statusOf(cause);
    const name = `${model.provider}/${model.modelId}`;
    super("model_call_failed", messageOf(name, cause, status, options), { cause });
    this.provider = model.provider;
    this.modelId = model.modelId;
    this.statusCode = status;
    this.idleMs = options.idleMs;
    this.retryAfterMs = options.retryAfterMs;
  }
}

function messageOf(name: string, cause: unknown, status: number | undefined, options: ModelCallErrorOptions): string {
  if (options.idleMs !== undefined) {
    const where = options.midStream ? ", part-way through its reply" : "";
    return `The model ${name} sent nothing for ${inSeconds(options.idleMs)}${where}; weft stopped waiting. Check that the model server is up and not overloaded, then send the prompt again.`;
  }
  if (options.midStream) {
    return `The model ${name} failed: its reply broke off part-way (${innermost(cause)}).`;
  }
  const failed = `The model ${name} failed: ${describe(cause, status)}`;
  if (options.retryAfterMs === undefined) {
    return failed;
  }
  const limit = options.maxRetryWaitMs !== undefined && options.retryAfterMs > options.maxRetryWaitMs ? `, longer than the ${inSeconds(options.maxRetryWaitMs)} weft waits` : "";
  return `${/[.!?]$/.test(failed) ? failed : `${failed}.`} The provider asked to wait ${inSeconds(options.retryAfterMs)} before trying again${limit}; try again later.`;
}


/** The deepest cause's message: the one that says what actually happened. */
function innermost(cause: unknown): string {
  let current = cause;
  while (current instanceof Error && current.cause instanceof Error) {
    current = current.cause;
  }
  return current instanceof Error ? current.message : (messageField(current) ?? String(current));
}

/**
 * The message of an error a provider streams as plain data rather than an Error, such as
 * Anthropic's `{ type: "overloaded_error", message }` or an OpenAI `error` event.
 */
function messageField(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) {
    return undefined;
  }
  const record = value as { message?: unknown; error?: unknown };
  return typeof record.message === "string" ? record.message : messageField(record.error);
}

function statusOf(cause: unknown): number | undefined {
  const status = (cause as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === "number" ? status : undefined;
}

function describe(cause: unknown, status: number | undefined): string {
  const message = cause instanceof Error ? cause.message : typeof cause === "string" ? cause : (messageField(cause) ?? JSON.stringify(cause));
  if (status === 401 || status === 403) {
    return `the provider refused the API key (HTTP ${status}). ${message}`;
  }
  const code = (cause as { cause?: { code?: unknown } | undefined } | undefined)?.cause?.code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || /fetch failed|ECONNREFUSED/.test(message)) {
    return `the model server could not be reached (${message}).`;
  }
  return status === undefined ? message : `HTTP ${status}: ${message}`;
}
