// What a test's fake model was asked: the last user message of a request, as JSON or as its text.

import type { ChatRequest } from "../../src/testing/fake-model-server.js";

/** The content of the request's last user message: undefined as "". */
function lastUserContent(request: ChatRequest): unknown {
  return [...request.messages].reverse().find((message) => message.role === "user")?.content ?? "";
}

/** The last user message's content as JSON: a string in quotes, or the list of its parts. */
export function lastUserJson(request: ChatRequest): string {
  return JSON.stringify(lastUserContent(request));
}

/** The last user message as text: its string, or the list of its parts as JSON. */
export function lastUserText(request: ChatRequest): string {
  const content = lastUserContent(request);
  return typeof content === "string" ? content : JSON.stringify(content);
}
