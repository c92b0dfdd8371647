// How large a local server's models' context windows are, asked of the server itself when its
// model list does not say: Ollama's `POST /api/show` (the Modelfile's `num_ctx`, else the model's
// `<architecture>.context_length`), LM Studio's `GET /api/v1/models` (the loaded instance's
// `context_length`, else `max_context_length`) and llama.cpp's `GET /props`
// (`default_generation_settings.n_ctx`). Each answer that is missing or not of that shape is
// simply no answer: a window is a nicety, never a reason to fail.

import { type ServerModel, tokens } from "./server-models.js";

export interface ContextWindowQuery {
  /** `ollama` asks Ollama's API first; any other provider asks LM Studio's and llama.cpp's. */
  provider: string;
  /** The server's OpenAI-compatible base URL, such as `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  apiKey?: string | undefined;
  /** How long each request may take. */
  timeoutMs: number;
}

/** At most this many models are asked about one by one (Ollama's /api/show), so a large library costs a bounded wait. */
const MAX_ASKED = 32;
/** And this many at once. */
const AT_ONCE = 4;

/**
 * The context window of each of `models` (by id) that the server tells: from its model list
 * entry, else from its own API. Ids it tells nothing about are left out.
 */
export async function serverContextWindows(query: ContextWindowQuery, models: readonly ServerModel[]): Promise<Map<string, number>> {
  const windows = new Map<string, number>();
  for (const model of models) {
    if (model.contextWindow !== undefined) {
      windows.set(model.id, model.contextWindow);
    }
  }
  const unknown = models.map((model) => model.id).filter((id) => !windows.has(id));
  if (unknown.length === 0) {
    return windows;
  }
  const root = serverRoot(query.baseURL);
  const asks = query.provider === "ollama" ? [askOllama] : [askLmStudio, askLlamaCpp, askOllama];
  for (const ask of asks) {
    const left = unknown.filter((id) => !windows.has(id));
    if (left.length === 0) {
      break;
    }
    for (const [id, size] of await ask(root, left, query)) {
      windows.set(id, size);
    }
  }
  return windows;
}

/** The server's own root, where its native API is: the base URL without its `/v1`. */
export function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** Ollama: `POST /api/show` for each model, the Modelfile's `num_ctx` first. */
async function askOllama(root: string, ids: readonly string[], query: ContextWindowQuery): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const queue = ids.slice(0, MAX_ASKED);
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const body = await askJson(`${root}/api/show`, query, { model: id });
      const size = body && ollamaWindow(body);
      if (size !== undefined) {
        found.set(id, size);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker));
  return found;
}

/** The window in an `/api/show` answer: `num_ctx` in its parameters, else the model's `*.context_length`. */
function ollamaWindow(body: Record<string, unknown>): number | undefined {
  if (typeof body.parameters === "string") {
    const set = /^\s*num_ctx\s+(\d+)\s*$/m.exec(body.parameters)?.[1];
    const size = set === undefined ? undefined : tokens(Number(set));
    if (size !== undefined) {
      return size;
    }
  }
  const info = body.model_info as Record<string, unknown> | null | undefined;
  if (typeof info !== "object" || info === null) {
    return undefined;
  }
  const architecture = info["general.architecture"];
  const own = typeof architecture === "string" ? tokens(info[`${architecture}.context_length`]) : undefined;
  return own ?? Object.entries(info).map(([key, value]) => (key.endsWith(".context_length") ? tokens(value) : undefined)).find((size) => size !== undefined);
}

/** LM Studio: `GET /api/v1/models`, one answer for every model; a loaded instance's context first. */
async function askLmStudio(root: string, ids: readonly string[], query: ContextWindowQuery): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const body = await askJson(`${root}/api/v1/models`, query);
  const models = body?.models;
  if (!Array.isArray(models)) {
    return found;
  }
  for (const entry of models as Array<Record<string, unknown> | null>) {
    const key = entry?.key;
    if (typeof key !== "string" || !ids.includes(key)) {
      continue;
    }
    const instances = Array.isArray(entry?.loaded_instances) ? (entry.loaded_instances as Array<{ config?: { context_length?: unknown } } | null>) : [];
    const loaded = instances.map((instance) => tokens(instance?.config?.context_length)).find((size) => size !== undefined);
    const size = loaded ?? tokens(entry?.max_context_length);
    if (size !== undefined) {
      found.set(key, size);
    }
  }
  return found;
}

/** llama.cpp: `GET /props` (with `?model=` for each, for a server that routes to several). */
async function askLlamaCpp(root: string, ids: readonly string[], query: ContextWindowQuery): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const id of ids.slice(0, MAX_ASKED)) {
    const body = await askJson(ids.length === 1 ? `${root}/props` : `${root}/props?model=${encodeURIComponent(id)}`, query);
    const settings = body?.default_generation_settings as Record<string, unknown> | null | undefined;
    const size = (typeof settings === "object" && settings !== null ? tokens(settings.n_ctx) : undefined) ?? tokens(body?.n_ctx);
    if (size === undefined) {
      // A server that is not llama.cpp answers none of them.
      break;
    }
    found.set(id, size);
  }
  return found;
}

/** A JSON object the server answers with (POSTing `post` when given), or undefined for any failure. */
async function askJson(url: string, query: ContextWindowQuery, post?: unknown): Promise<Record<string, unknown> | undefined> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (query.apiKey) {
    headers.authorization = `Bearer ${query.apiKey}`;
  }
  const init: RequestInit = { headers, signal: AbortSignal.timeout(query.timeoutMs) };
  if (post !== undefined) {
    headers["content-type"] = "application/json";
    init.method = "POST";
    init.body = JSON.stringify(post);
  }
  try {
    const response = await fetch(url, init);
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const body = (await response.json()) as unknown;
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
