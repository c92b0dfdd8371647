// The models an OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp…) says it serves:
// `GET <baseURL>/models`, in the OpenAI list format, with a short timeout, and the context window
// each entry tells when the server adds one (vLLM's `max_model_len`, OpenRouter's
// `context_length`, llama.cpp's `meta.n_ctx`).

import { WeftError } from "../errors/weft-error.js";
import { errorMessage } from "../errors/error-message.js";

/** How long a listing may take by default: it is a nicety, never worth a person's wait. */
export const SERVER_MODELS_TIMEOUT_MS = 3_000;

export interface ServerModelsOptions {
  /** Sent as a bearer token, for servers that want one. */
  apiKey?: string | undefined;
  timeoutMs?: number | undefined;
}

/** One model a server lists. */
export interface ServerModel {
  id: string;
  /** The context window the entry tells, in tokens, when it tells one. */
  contextWindow?: number | undefined;
}

/**
 * The ids a server lists at `<baseURL>/models`, in its order. Rejects with a WeftError
 * (`model_list_failed`) saying what went wrong: no answer in time, an HTTP error, a body that is
 * not a model list.
 */
export async function listServerModels(baseURL: string, options: ServerModelsOptions = {}): Promise<string[]> {
  return (await serverModelList(baseURL, options)).map((model) => model.id);
}

/** The models a server lists at `<baseURL>/models`, each with the context window its entry tells; rejects as listServerModels does. */
export async function serverModelList(baseURL: string, options: ServerModelsOptions = {}): Promise<ServerModel[]> {
  const url = `${baseURL.replace(/\/+$/, "")}/models`;
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.apiKey) {
    headers.authorization = `Bearer ${options.apiKey}`;
  }
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs ?? SERVER_MODELS_TIMEOUT_MS) });
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? "no answer in time" : errorMessage(error);
    throw new WeftError("model_list_failed", `Could not list the models of ${url}: ${reason}.`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new WeftError("model_list_failed", `Could not list the models of ${url}: HTTP ${response.status}.`);
  }
  const body = (await response.json().catch(() => undefined)) as { data?: unknown } | undefined;
  if (!body || !Array.isArray(body.data)) {
    throw new WeftError("model_list_failed", `Could not list the models of ${url}: the answer has no "data" list.`);
  }
  const models: ServerModel[] = [];
  for (const entry of body.data as unknown[]) {
    const id = (entry as { id?: unknown } | null)?.id;
    if (typeof id !== "string" || id === "") {
      continue;
    }
    const contextWindow = entryWindow(entry as Record<string, unknown>);
    models.push(contextWindow === undefined ? { id } : { id, contextWindow });
  }
  return models;
}

/**
 * The window a model list's entry tells: vLLM's `max_model_len`, OpenRouter's (and others')
 * `context_length`, llama.cpp's `meta.n_ctx` (the context it runs with, not `n_ctx_train`, what
 * the model was trained for). Undefined when it tells none.
 */
function entryWindow(entry: Record<string, unknown>): number | undefined {
  const meta = entry.meta as Record<string, unknown> | null | undefined;
  return tokens(entry.max_model_len) ?? tokens(entry.context_length) ?? tokens(typeof meta === "object" && meta !== null ? meta.n_ctx : undefined);
}

/** A count of tokens a server gave: a whole number above 0, else undefined. */
export function tokens(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
