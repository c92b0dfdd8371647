// The models an OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp…) says it serves:
// `GET <baseURL>/models`, in the OpenAI list format, with a short timeout.

import { WeftError } from "../errors/weft-error.js";

/** How long a listing may take by default: it is a nicety, never worth a person's wait. */
export const SERVER_MODELS_TIMEOUT_MS = 3_000;

export interface ServerModelsOptions {
  /** Sent as a bearer token, for servers that want one. */
  apiKey?: string | undefined;
  timeoutMs?: number | undefined;
}

/**
 * The ids a server lists at `<baseURL>/models`, in its order. Rejects with a WeftError
 * (`model_list_failed`) saying what went wrong: no answer in time, an HTTP error, a body that is
 * not a model list.
 */
export async function listServerModels(baseURL: string, options: ServerModelsOptions = {}): Promise<string[]> {
  const url = `${baseURL.replace(/\/+$/, "")}/models`;
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.apiKey) {
    headers.authorization = `Bearer ${options.apiKey}`;
  }
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs ?? SERVER_MODELS_TIMEOUT_MS) });
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? "no answer in time" : error instanceof Error ? error.message : String(error);
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
  return body.data.map((entry) => (entry as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === "string" && id !== "");
}
