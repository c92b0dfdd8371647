// Telling model choices apart: the value an entry goes by in the editor's picker (its id, else its
// model string), which server it calls, and an id of its own for a model another server also serves.

import { OLLAMA_BASE_URL, parseModelSpec } from "../models/resolve-model.js";

/** The value a choice goes by: in the picker, in the config file's `default`, and in WEFT_MODEL. */
export function choiceId(choice: { id?: string | undefined; model: string }): string {
  return choice.id ?? choice.model;
}

/**
 * The server a choice calls, as one string: its provider and base URL (Ollama's local port when
 * it names none; none for OpenAI's and Anthropic's own), without trailing slashes, so the same
 * server written two ways is one.
 */
export function serverOf(choice: { model: string; baseURL?: string | undefined }): string {
  return serverAt(parseModelSpec(choice.model).provider, choice.baseURL);
}

/** The server of `provider` at `baseURL`, as serverOf() writes it. */
export function serverAt(provider: string, baseURL: string | undefined): string {
  return `${provider} ${(baseURL ?? (provider === "ollama" ? OLLAMA_BASE_URL : "")).replace(/\/+$/, "")}`;
}

/**
 * An id for `model` on the server at `baseURL` when another entry already goes by the model string:
 * the model and the server's host (`openai-compatible:llama@box:8000`), then its path too, then a
 * number, until `taken` says no entry has it.
 */
export function qualifiedChoiceId(model: string, baseURL: string | undefined, taken: (id: string) => boolean): string {
  let host = "";
  let path = "";
  try {
    const url = new URL(baseURL ?? "");
    host = url.host;
    path = url.pathname.replace(/\/+$/, "");
  } catch {
    // No base URL (or none a URL parser takes): the number below keeps the id apart.
  }
  const candidates = host === "" ? [] : [`${model}@${host}`, ...(path === "" ? [] : [`${model}@${host}${path}`])];
  const free = candidates.find((candidate) => !taken(candidate));
  if (free !== undefined) {
    return free;
  }
  const base = candidates.at(-1) ?? model;
  let number = 2;
  while (taken(`${base}#${number}`)) {
    number++;
  }
  return `${base}#${number}`;
}
