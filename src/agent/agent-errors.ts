// Errors of the agent loop.

import type { LanguageModelV3 } from "@ai-sdk/provider";

import { WeftError } from "../errors/weft-error.js";

/** The model could not be called, or its reply broke off. The message says why in plain words. */
export class ModelCallError extends WeftError {
  readonly provider: string;
  readonly modelId: string;
  readonly statusCode: number | undefined;

  constructor(model: LanguageModelV3, cause: unknown, options: { midStream?: boolean } = {}) {
    const status = statusOf(cause);
    const reason = options.midStream ? `its reply broke off part-way (${innermost(cause)}).` : describe(cause, status);
    super("model_call_failed", `The model ${model.provider}/${model.modelId} failed: ${reason}`, { cause });
    this.name = "ModelCallError";
    this.provider = model.provider;
    this.modelId = model.modelId;
    this.statusCode = status;
  }
}

/** The deepest cause's message: the one that says what actually happened. */
function innermost(cause: unknown): string {
  let current = cause;
  while (current instanceof Error && current.cause instanceof Error) {
    current = current.cause;
  }
  return current instanceof Error ? current.message : String(current);
}

function statusOf(cause: unknown): number | undefined {
  const status = (cause as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === "number" ? status : undefined;
}

function describe(cause: unknown, status: number | undefined): string {
  const message = cause instanceof Error ? cause.message : typeof cause === "string" ? cause : JSON.stringify(cause);
  if (status === 401 || status === 403) {
    return `the provider refused the API key (HTTP ${status}). ${message}`;
  }
  const code = (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || /fetch failed|ECONNREFUSED/.test(message)) {
    return `the model server could not be reached (${message}).`;
  }
  return status === undefined ? message : `HTTP ${status}: ${message}`;
}
