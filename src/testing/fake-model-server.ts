// A fake OpenAI-compatible chat-completions server on 127.0.0.1, for testing agents through a real
// AI SDK provider over real HTTP. It streams scripted replies as server-sent events (text,
// reasoning, tool calls), and can fail, break off mid-stream or stall, to test what an agent does
// when its model misbehaves. Given model ids, it lists them at `GET /v1/models` as OpenAI does.

import { dataFrame, FakeHttpServer, type FakeStreamEvent, type FakeModelOptions, pathOf } from "./fake-http-server.js";
import { argumentsText, type FakeReply, type FakeScriptFor, finishOf, pieces, usageOf } from "./fake-reply.js";

export type { FakeReply } from "./fake-reply.js";

/** A chat-completions request as the server received it. */
export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content?: unknown; tool_calls?: unknown[] | undefined; tool_call_id?: string | undefined; [key: string]: unknown }>;
  tools?: Array<{ type: string; function: { name: string; description?: string | undefined; parameters?: unknown } }> | undefined;
  stream?: boolean | undefined;
  [key: string]: unknown;
}

export type FakeScript = FakeScriptFor<ChatRequest>;

/** Options of the chat-completions fake: those every fake takes, and a model list. */
export interface FakeModelServerOptions extends FakeModelOptions {
  /** The model ids `GET /v1/models` lists, in the OpenAI format; without them that route is 404. */
  models?: readonly string[] | undefined;
}

export class FakeModelServer extends FakeHttpServer<ChatRequest> {
  protected readonly path = "/chat/completions";
  protected override readonly streamEnd = dataFrame("[DONE]");
  /** How many times the model list was asked for. */
  modelListRequests = 0;
  /** Replies made so far: each gets an id of its own, as OpenAI's do (LangChain keys messages by it). */
  private replies = 0;

  private constructor(
    script: FakeScript,
    private readonly serverOptions: FakeModelServerOptions,
  ) {
    super(script, serverOptions);
  }

  /** Starts a server on 127.0.0.1 with a free port. */
  static async start(script: FakeScript, options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
    return new FakeModelServer(script, options).listen();
  }

  protected override answerGet(url: string): unknown {
    const models = this.serverOptions.models;
    if (!models || !["/v1/models", "/models"].includes(pathOf(url))) {
      return undefined;
    }
    this.modelListRequests++;
    return { object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })) };
  }

  protected read(body: unknown): ChatRequest {
    return body as ChatRequest;
  }

  protected errorBody(_status: number, message: string): unknown {
    return { error: { message, type: "fake_error" } };
  }

  protected streamError(message: string): string {
    return dataFrame({ error: { message, type: "fake_error" } });
  }

  protected events(reply: FakeReply, request: ChatRequest): FakeStreamEvent[] {
    const base = { id: this.nextId(), object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: request.model };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => dataFrame({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
    const out: FakeStreamEvent[] = [{ frame: chunk({ role: "assistant", content: "" }) }];
    for (const delta of pieces(reply.reasoning)) {
      out.push({ frame: chunk({ reasoning_content: delta }) });
    }
    for (const delta of pieces(reply.text)) {
      out.push({ text: delta, frame: chunk({ content: delta }) });
    }
    reply.toolCalls?.forEach((call, index) => {
      const id = call.id ?? `call_${index + 1}`;
      const args = argumentsText(call);
      const half = Math.floor(args.length / 2);
      out.push({ frame: chunk({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: args.slice(0, half) } }] }) });
      out.push({ frame: chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }) });
    });
    out.push({ frame: chunk({}, finishOf(reply)) });
    out.push({ frame: dataFrame({ ...base, choices: [], usage: chatUsage(reply) }) });
    return out;
  }

  private nextId(): string {
    this.replies++;
    return `chatcmpl-fake-${this.replies}`;
  }

  protected override completion(reply: FakeReply, request: ChatRequest): unknown {
    const toolCalls = reply.toolCalls?.map((call, index) => ({
      id: call.id ?? `call_${index + 1}`,
      type: "function",
      function: { name: call.name, arguments: argumentsText(call) },
    }));
    return {
      id: this.nextId(),
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [{ index: 0, message: { role: "assistant", content: pieces(reply.text).join(""), tool_calls: toolCalls }, finish_reason: finishOf(reply) }],
      usage: chatUsage(reply),
    };
  }
}

function chatUsage(reply: FakeReply): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const { promptTokens, completionTokens } = usageOf(reply);
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}
