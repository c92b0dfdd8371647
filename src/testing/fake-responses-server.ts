// A fake OpenAI Responses API server (`POST /v1/responses`) on 127.0.0.1, the API the AI SDK's
// OpenAI provider calls for `openai:` models. It streams scripted replies as the real API's events
// (message, reasoning and function-call items, usage on response.completed), or whole when not
// asked to stream, answers errors in OpenAI's error JSON, and resolves `item_reference` inputs to
// the items it sent before, as the real API does for stored responses.

import { contentText } from "../store-core/content-text.js";
import { FakeHttpServer, type FakeStreamEvent, namedFrame, type FakeModelOptions } from "./fake-http-server.js";
import { appendAssistant, type FakeModelMessage, type FakeModelRequest, parseArguments } from "./fake-model-request.js";
import { argumentsText, type FakeReply, type FakeScriptFor, finishOf, pieces, usageOf } from "./fake-reply.js";

type InputItem = Record<string, unknown> & { type?: unknown; role?: unknown };

/** What an item this server sent stands for, so a later `item_reference` to it can be read. */
type SentItem = { text: string } | { toolCall: { id: string; name: string; arguments: unknown } } | { reasoning: true };

type ToolItem = Record<string, unknown> & { type?: unknown; tools?: unknown };

/** The function tools among `tools`, those inside namespaces included. */
function functionTools(tools: readonly ToolItem[]): ToolItem[] {
  return tools.flatMap((tool) => (tool.type === "function" ? [tool] : tool.type === "namespace" && Array.isArray(tool.tools) ? functionTools(tool.tools as ToolItem[]) : []));
}

export class FakeResponsesServer extends FakeHttpServer<FakeModelRequest> {
  protected readonly path = "/responses";
  private readonly sent = new Map<string, SentItem>();
  private responses = 0;

  /** Starts a server on 127.0.0.1 with a free port. */
  static async start(script: FakeScriptFor<FakeModelRequest>, options: FakeModelOptions = {}): Promise<FakeResponsesServer> {
    return new FakeResponsesServer(script, options).listen();
  }

  protected read(body: unknown): FakeModelRequest {
    const request = body as Record<string, unknown>;
    const system: string[] = typeof request.instructions === "string" ? [request.instructions] : [];
    const messages: FakeModelMessage[] = [];
    const input: InputItem[] = typeof request.input === "string" ? [{ role: "user", content: request.input }] : ((request.input ?? []) as InputItem[]);
    for (const item of input) {
      this.readItem(item, system, messages);
    }
    // Codex offers its tools in an `additional_tools` input item, grouped in namespaces.
    const offered = [...((request.tools ?? []) as ToolItem[]), ...input.flatMap((item) => (item.type === "additional_tools" && Array.isArray(item.tools) ? (item.tools as ToolItem[]) : []))];
    const tools = functionTools(offered).map((tool) => ({ name: String(tool.name), description: tool.description as string | undefined, parameters: tool.parameters }));
    return { model: String(request.model), system: system.join("\n\n"), messages, tools, stream: request.stream === true, body: request };
  }

  private readItem(item: InputItem, system: string[], messages: FakeModelMessage[]): void {
    if (item.type === "item_reference") {
      const sent = this.sent.get(String(item.id));
      if (!sent) {
        throw new Error(`Item with id '${String(item.id)}' not found.`);
      }
      if ("text" in sent) {
        appendAssistant(messages, { text: sent.text });
      } else if ("toolCall" in sent) {
        appendAssistant(messages, { toolCall: sent.toolCall });
      }
      return;
    }
    if (item.type === "additional_tools") {
      return;
    }
    if (item.type === "function_call") {
      appendAssistant(messages, { toolCall: { id: String(item.call_id), name: String(item.name), arguments: parseArguments(String(item.arguments)) } });
    } else if (item.type === "function_call_output") {
      messages.push({ role: "tool", toolCallId: String(item.call_id), content: contentText(item.output) });
    } else if (item.role === "system" || item.role === "developer") {
      system.push(contentText(item.content));
    } else if (item.role === "user") {
      messages.push({ role: "user", text: contentText(item.content) });
    } else if (item.role === "assistant") {
      appendAssistant(messages, { text: contentText(item.content) });
    }
    // Reasoning items carry nothing the conversation shows.
  }

  protected errorBody(status: number, message: string): unknown {
    return { error: { message, ...openAIErrorKind(status), param: null } };
  }

  protected streamError(message: string): string {
    return namedFrame("error", { type: "error", sequence_number: 0, code: "server_error", message, param: null });
  }

  protected events(reply: FakeReply, request: FakeModelRequest): FakeStreamEvent[] {
    return this.respond(reply, request).events;
  }

  protected override completion(reply: FakeReply, request: FakeModelRequest): unknown {
    return this.respond(reply, request).response;
  }

  /** A reply as the events that stream it and the finished response they add up to. */
  private respond(reply: FakeReply, request: FakeModelRequest): { events: FakeStreamEvent[]; response: Record<string, unknown> } {
    const number = ++this.responses;
    const createdAt = Math.floor(Date.now() / 1000);
    const response = { id: `resp_fake_${number}`, object: "response", created_at: createdAt, model: request.model };
    const out: FakeStreamEvent[] = [];
    const push = (type: string, data: Record<string, unknown>, text?: string) => out.push({ frame: namedFrame(type, { type, sequence_number: out.length, ...data }), text });
    const output: unknown[] = [];
    push("response.created", { response: { ...response, status: "in_progress", output: [], usage: null } });
    push("response.in_progress", { response: { ...response, status: "in_progress", output: [], usage: null } });

    const reasoning = pieces(reply.reasoning);
    if (reasoning.length > 0) {
      const id = `rs_fake_${number}`;
      const output_index = output.length;
      const summary = [{ type: "summary_text", text: reasoning.join("") }];
      push("response.output_item.added", { output_index, item: { type: "reasoning", id, summary: [], encrypted_content: null } });
      push("response.reasoning_summary_part.added", { item_id: id, output_index, summary_index: 0, part: { type: "summary_text", text: "" } });
      for (const delta of reasoning) {
        push("response.reasoning_summary_text.delta", { item_id: id, output_index, summary_index: 0, delta });
      }
      push("response.reasoning_summary_text.done", { item_id: id, output_index, summary_index: 0, text: reasoning.join("") });
      push("response.reasoning_summary_part.done", { item_id: id, output_index, summary_index: 0, part: summary[0] });
      const item = { type: "reasoning", id, summary, encrypted_content: null };
      push("response.output_item.done", { output_index, item });
      output.push(item);
      this.sent.set(id, { reasoning: true });
    }

    const text = pieces(reply.text);
    if (text.length > 0) {
      const id = `msg_fake_${number}`;
      const output_index = output.length;
      const whole = text.join("");
      push("response.output_item.added", { output_index, item: { type: "message", id, status: "in_progress", role: "assistant", content: [] } });
      push("response.content_part.added", { item_id: id, output_index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
      for (const delta of text) {
        push("response.output_text.delta", { item_id: id, output_index, content_index: 0, delta, logprobs: [] }, delta);
      }
      push("response.output_text.done", { item_id: id, output_index, content_index: 0, text: whole, logprobs: [] });
      const part = { type: "output_text", text: whole, annotations: [] };
      push("response.content_part.done", { item_id: id, output_index, content_index: 0, part });
      const item = { type: "message", id, status: "completed", role: "assistant", content: [part] };
      push("response.output_item.done", { output_index, item });
      output.push(item);
      this.sent.set(id, { text: whole });
    }

    reply.toolCalls?.forEach((call, index) => {
      const id = `fc_fake_${number}_${index + 1}`;
      const callId = call.id ?? `call_${index + 1}`;
      const output_index = output.length;
      const args = argumentsText(call);
      const half = Math.floor(args.length / 2);
      push("response.output_item.added", { output_index, item: { type: "function_call", id, call_id: callId, name: call.name, arguments: "", status: "in_progress" } });
      push("response.function_call_arguments.delta", { item_id: id, output_index, delta: args.slice(0, half) });
      push("response.function_call_arguments.delta", { item_id: id, output_index, delta: args.slice(half) });
      push("response.function_call_arguments.done", { item_id: id, output_index, arguments: args });
      const item = { type: "function_call", id, call_id: callId, name: call.name, arguments: args, status: "completed" };
      push("response.output_item.done", { output_index, item });
      output.push(item);
      this.sent.set(id, { toolCall: { id: callId, name: call.name, arguments: parseArguments(args) } });
    });

    const { promptTokens, completionTokens } = usageOf(reply);
    const usage = {
      input_tokens: promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: completionTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: promptTokens + completionTokens,
    };
    const finish = finishOf(reply);
    const incomplete = finish === "length" ? "max_output_tokens" : finish === "content_filter" ? "content_filter" : undefined;
    const finished = { ...response, status: incomplete ? "incomplete" : "completed", incomplete_details: incomplete ? { reason: incomplete } : null, output, usage };
    push(incomplete ? "response.incomplete" : "response.completed", { response: finished });
    return { events: out, response: finished };
  }
}

/** The `type` and `code` OpenAI's error JSON carries for an HTTP status. */
function openAIErrorKind(status: number): { type: string; code: string | null } {
  if (status === 401) {
    return { type: "invalid_request_error", code: "invalid_api_key" };
  }
  if (status === 429) {
    return { type: "requests", code: "rate_limit_exceeded" };
  }
  if (status >= 500) {
    return { type: "server_error", code: null };
  }
  return { type: "invalid_request_error", code: null };
}
