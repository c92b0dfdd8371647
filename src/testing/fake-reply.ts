// The script every fake model server plays: one reply per request, written once and spoken in
// whichever wire format the server fakes (chat completions, OpenAI Responses, Anthropic Messages).

/** One scripted reply. Text and reasoning given as arrays stream as those chunks. */
export interface FakeReply {
  text?: string | readonly string[] | undefined;
  reasoning?: string | readonly string[] | undefined;
  toolCalls?: readonly { name: string; arguments: unknown; id?: string | undefined }[] | undefined;
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. Each server maps it to its own word. */
  finishReason?: "stop" | "length" | "tool_calls" | "content_filter" | undefined;
  /** Milliseconds between chunks. */
  chunkDelayMs?: number | undefined;
  /** Answer with this HTTP status and `error` as the message, in the API's error body, instead of a reply. */
  status?: number | undefined;
  error?: string | undefined;
  /** Extra response headers, such as `retry-after` on a 429. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Read the request and never answer: no status line, no headers, the connection left open. */
  neverAnswer?: boolean | undefined;
  /** Break the connection after this many chunks (server-sent events). */
  failAfter?: number | undefined;
  /** Stop sending after this many chunks and keep the connection open. */
  stallAfter?: number | undefined;
  /** After this many chunks, send the API's in-stream error event with `error` as its message, and end. */
  errorAfter?: number | undefined;
  /** Awaited before each chunk is sent, so a test can hold the stream at a point of its choosing. */
  beforeChunk?: ((index: number) => Promise<void> | void) | undefined;
  /** The token counts the reply reports. Default 12 prompt and 7 completion tokens. */
  usage?: { promptTokens: number; completionTokens: number } | undefined;
}

/** Replies in order, or a function that chooses one for each request the server receives. */
export type FakeScriptFor<Request> = readonly FakeReply[] | ((request: Request, index: number) => FakeReply | Promise<FakeReply>);

/** The token counts a reply reports. */
export function usageOf(reply: FakeReply): { promptTokens: number; completionTokens: number } {
  return reply.usage ?? { promptTokens: 12, completionTokens: 7 };
}

/** The finish reason a reply ends with, in chat-completions words. */
export function finishOf(reply: FakeReply): "stop" | "length" | "tool_calls" | "content_filter" {
  return reply.finishReason ?? (reply.toolCalls?.length ? "tool_calls" : "stop");
}

/** A text or reasoning field as the chunks it streams in. */
export function pieces(value: string | readonly string[] | undefined): readonly string[] {
  return value === undefined ? [] : typeof value === "string" ? [value] : value;
}

/** A tool call's arguments as the JSON text a model sends. */
export function argumentsText(call: { arguments: unknown }): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}
