// A request to a fake model server in one shape for every API, so a test can read what the model
// was sent (the conversation, the tool results, the tools offered) without knowing the wire format.

import { parseJson } from "../store-core/parse-json.js";

/** One message of the conversation a model was sent. */
export type FakeModelMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; toolCalls: FakeModelToolCall[] }
  | { role: "tool"; toolCallId: string; content: string; isError?: boolean | undefined };

/** A tool call the model made earlier, as it was sent back in the conversation. */
export interface FakeModelToolCall {
  id: string;
  name: string;
  /** The arguments, parsed from JSON where the API sends them as text. */
  arguments: unknown;
}

/** What a model was sent. `body` keeps the request in the API's own format. */
export interface FakeModelRequest {
  model: string;
  /** The system and developer text, joined by blank lines; empty when there was none. */
  system: string;
  /** The conversation after the system text, with consecutive assistant items merged into one message. */
  messages: FakeModelMessage[];
  tools: Array<{ name: string; description?: string | undefined; parameters?: unknown }>;
  stream: boolean;
  body: Record<string, unknown>;
}

/** Adds a piece of an assistant turn, joining it to the assistant message just before when there is one. */
export function appendAssistant(messages: FakeModelMessage[], piece: { text?: string | undefined; toolCall?: FakeModelToolCall | undefined }): void {
  let last = messages.at(-1);
  if (last?.role !== "assistant") {
    last = { role: "assistant", text: "", toolCalls: [] };
    messages.push(last);
  }
  last.text += piece.text ?? "";
  if (piece.toolCall) {
    last.toolCalls.push(piece.toolCall);
  }
}

/** Parses JSON text a model sent as tool-call arguments, keeping the text when it is not JSON. */
export function parseArguments(text: string): unknown {
  return parseJson(text, text);
}
