// The coding agent's session titles: a short side call to the session's model with the first
// prompt, made in the background by serveAcp's title(). It is never part of the conversation and
// never shown as a turn; when it fails, is slow or says nothing useful, the title stays the start
// of the prompt.

import type { LanguageModelV3, LanguageModelV3Content } from "@ai-sdk/provider";

import type { RunConfig } from "../graph/run-outcome.js";
import { SIDE_CALL_HEADER } from "../models/side-call-header.js";
import type { AcpTitle } from "../acp/surface/session-title.js";

/** How long the side call may take before the title falls back to the prompt's words. */
export const TITLE_TIMEOUT_MS = 20_000;

/** What the title call is told. */
export const TITLE_INSTRUCTIONS =
  "You name coding sessions. Reply with a title for the session that starts with the person's request below: at most six words, plain text, no quotes, no full stop. Do not answer the request.";

/** The longest prompt text sent to the title call. */
const PROMPT_CHARS = 2_000;

export interface SessionTitleOptions {
  /** The session's model, or how to pick it from the session's config (the model the person chose). */
  model: LanguageModelV3 | ((config: RunConfig) => LanguageModelV3 | Promise<LanguageModelV3>);
  /** Default {@link TITLE_TIMEOUT_MS}. */
  timeoutMs?: number | undefined;
}

/** A title() for serveAcp that asks the session's model; it throws on failure, which keeps the default. */
export function modelSessionTitle(options: SessionTitleOptions): AcpTitle {
  const timeoutMs = options.timeoutMs ?? TITLE_TIMEOUT_MS;
  return async ({ prompt, config, signal }) => {
    if (prompt.trim() === "") {
      return undefined;
    }
    const model = typeof options.model === "function" ? await options.model(config) : options.model;
    const controller = new AbortController();
    const stop = () => controller.abort(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    const timer = setTimeout(() => controller.abort(new Error(`The title call took longer than ${timeoutMs} ms.`)), timeoutMs);
    try {
      const result = await model.doGenerate({
        prompt: [
          { role: "system", content: TITLE_INSTRUCTIONS },
          { role: "user", content: [{ type: "text", text: prompt.slice(0, PROMPT_CHARS) }] },
        ],
        maxOutputTokens: 40,
        abortSignal: controller.signal,
        // Marks the call as beside the turn, for proxies and logs (and the test fakes).
        headers: { [SIDE_CALL_HEADER]: "title" },
      });
      return cleanTitle(result.content);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    }
  };
}

/** The reply's text as a title: its first line, without quotes, a heading mark or a closing full stop. */
function cleanTitle(content: readonly LanguageModelV3Content[]): string | undefined {
  const text = content.map((part) => (part.type === "text" ? part.text : "")).join("");
  const line = text
    .split("\n")
    .map((candidate) => candidate.trim())
    .find((candidate) => candidate !== "");
  if (!line) {
    return undefined;
  }
  const title = line
    .replace(/^#+\s*/, "")
    .replace(/^(title:\s*)/i, "")
    .replace(/^["'`“”‘’]+|["'`“”‘’]+$/g, "")
    .replace(/\.$/, "")
    .trim();
  return title === "" ? undefined : title;
}
