// A fake Anthropic Messages API server (`POST /v1/messages`) on 127.0.0.1, the API the AI SDK's
// Anthropic provider calls for `anthropic:` models. It streams scripted replies as the real API's
// events (thinking, text and tool_use content blocks, stop reason and usage on message_delta), or
// whole when not asked to stream, and answers errors in Anthropic's error JSON.

import { contentText } from "../store-core/content-text.js";
import { FakeHttpServer, type FakeStreamEvent, namedFrame, type FakeModelOptions } from "./fake-http-server.js";
import { appendAssistant, type FakeModelMessage, type FakeModelRequest, parseArguments } from "./fake-model-request.js";
import { argumentsText, type FakeReply, type FakeScriptFor, finishOf, pieces, usageOf } from "./fake-reply.js";

type ContentBlock = Record<string, unknown> & { type?: unknown };

const STOP_REASONS = { stop: "end_turn", length: "max_tokens", tool_calls: "tool_use", content_filter: "refusal" } as const;

export class FakeMessagesServer extends FakeHttpServer<FakeModelRequest> {
  protected readonly path = "/messages";
  private replies = 0;

  /** Starts a server on 127.0.0.1 with a free port. */
  static async start(script: FakeScriptFor<FakeModelRequest>, options: FakeModelOptions = {}): Promise<FakeMessagesServer> {
    return new FakeMessagesServer(script, options).listen();
  }

  protected read(body: unknown): FakeModelRequest {
    const request = body as Record<string, unknown>;
    const messages: FakeModelMessage[] = [];
    for (const message of (request.messages ?? []) as Array<{ role: string; content: string | ContentBlock[] }>) {
      const blocks: ContentBlock[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
      for (const block of blocks) {
        if (message.role === "assistant") {
          if (block.type === "text") {
            appendAssistant(messages, { text: String(block.text) });
          } else if (block.type === "tool_use") {
            appendAssistant(messages, { toolCall: { id: String(block.id), name: String(block.name), arguments: block.input } });
          }
        } else if (block.type === "tool_result") {
          messages.push({ role: "tool", toolCallId: String(block.tool_use_id), content: contentText(block.content), ...(block.is_error === true ? { isError: true } : {}) });
        } else if (block.type === "text") {
          const last = messages.at(-1);
          if (last?.role === "user") {
            last.text += String(block.text);
          } else {
            messages.push({ role: "user", text: String(block.text) });
          }
        }
      }
    }
    const tools = ((request.tools ?? []) as Array<Record<string, unknown>>).map((tool) => ({
      name: String(tool.name),
      description: tool.description as string | undefined,
      parameters: tool.input_schema,
    }));
    return { model: String(request.model), system: contentText(request.system), messages, tools, stream: request.stream === true, body: request };
  }

  protected errorBody(status: number, message: string): unknown {
    return { type: "error", error: { type: anthropicErrorType(status), message } };
  }

  protected streamError(message: string): string {
    return namedFrame("error", { type: "error", error: { type: "overloaded_error", message } });
  }

  protected override completion(reply: FakeReply, request: FakeModelRequest): unknown {
    const number = ++this.replies;
    const { promptTokens, completionTokens } = usageOf(reply);
    const content: unknown[] = [];
    if (pieces(reply.reasoning).length > 0) {
      content.push({ type: "thinking", thinking: pieces(reply.reasoning).join(""), signature: `fake-signature-${number}` });
    }
    if (pieces(reply.text).length > 0) {
      content.push({ type: "text", text: pieces(reply.text).join("") });
    }
    reply.toolCalls?.forEach((call, callIndex) => {
      content.push({ type: "tool_use", id: call.id ?? `toolu_fake_${number}_${callIndex + 1}`, name: call.name, input: parseArguments(argumentsText(call)) });
    });
    return {
      id: `msg_fake_${number}`,
      type: "message",
      role: "assistant",
      model: request.model,
      content,
      stop_reason: STOP_REASONS[finishOf(reply)],
      stop_sequence: null,
      usage: { input_tokens: promptTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: completionTokens },
    };
  }

  protected events(reply: FakeReply, request: FakeModelRequest): FakeStreamEvent[] {
    const number = ++this.replies;
    const { promptTokens, completionTokens } = usageOf(reply);
    const out: FakeStreamEvent[] = [];
    const push = (type: string, data: Record<string, unknown>, text?: string) => out.push({ frame: namedFrame(type, { type, ...data }), text });
    push("message_start", {
      message: {
        id: `msg_fake_${number}`,
        type: "message",
        role: "assistant",
        model: request.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: promptTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    });
    push("ping", {});
    let index = 0;
    const reasoning = pieces(reply.reasoning);
    if (reasoning.length > 0) {
      push("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
      for (const thinking of reasoning) {
        push("content_block_delta", { index, delta: { type: "thinking_delta", thinking } });
      }
      push("content_block_delta", { index, delta: { type: "signature_delta", signature: `fake-signature-${number}` } });
      push("content_block_stop", { index });
      index++;
    }
    const text = pieces(reply.text);
    if (text.length > 0) {
      push("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const delta of text) {
        push("content_block_delta", { index, delta: { type: "text_delta", text: delta } }, delta);
      }
      push("content_block_stop", { index });
      index++;
    }
    reply.toolCalls?.forEach((call, callIndex) => {
      const args = argumentsText(call);
      const half = Math.floor(args.length / 2);
      push("content_block_start", { index, content_block: { type: "tool_use", id: call.id ?? `toolu_fake_${number}_${callIndex + 1}`, name: call.name, input: {} } });
      push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } });
      push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: args.slice(0, half) } });
      push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: args.slice(half) } });
      push("content_block_stop", { index });
      index++;
    });
    push("message_delta", { delta: { stop_reason: STOP_REASONS[finishOf(reply)], stop_sequence: null }, usage: { output_tokens: completionTokens } });
    push("message_stop", {});
    return out;
  }
}

/** The error `type` Anthropic's error JSON carries for an HTTP status. */
function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
  };
  return types[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}
