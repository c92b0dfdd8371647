// A fake OpenAI-compatible chat-completions server on 127.0.0.1, for testing agents through a real
// AI SDK provider over real HTTP. It streams scripted replies as server-sent events (text,
// reasoning, tool calls), and can fail, break off mid-stream or stall, to test what an agent does
// when its model misbehaves.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One scripted reply. Text and reasoning given as arrays stream as those chunks. */
export interface FakeReply {
  text?: string | readonly string[] | undefined;
  reasoning?: string | readonly string[] | undefined;
  toolCalls?: readonly { name: string; arguments: unknown; id?: string | undefined }[] | undefined;
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: "stop" | "length" | "tool_calls" | "content_filter" | undefined;
  /** Milliseconds between chunks. */
  chunkDelayMs?: number | undefined;
  /** Answer with this HTTP status and `error` as the message instead of a reply. */
  status?: number | undefined;
  error?: string | undefined;
  /** Extra response headers, such as `retry-after` on a 429. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Read the request and never answer: no status line, no headers, the connection left open. */
  neverAnswer?: boolean | undefined;
  /** Break the connection after this many chunks. */
  failAfter?: number | undefined;
  /** Stop sending after this many chunks and keep the connection open. */
  stallAfter?: number | undefined;
  /** Awaited before each chunk is sent, so a test can hold the stream at a point of its choosing. */
  beforeChunk?: ((index: number) => Promise<void> | void) | undefined;
  /** The token counts the reply reports. Default 12 prompt and 7 completion tokens. */
  usage?: { promptTokens: number; completionTokens: number } | undefined;
}

/** A chat-completions request as the server received it. */
export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content?: unknown; tool_calls?: unknown[] | undefined; tool_call_id?: string | undefined; [key: string]: unknown }>;
  tools?: Array<{ type: string; function: { name: string; description?: string | undefined; parameters?: unknown } }> | undefined;
  stream?: boolean | undefined;
  [key: string]: unknown;
}

export type FakeScript = readonly FakeReply[] | ((request: ChatRequest, index: number) => FakeReply | Promise<FakeReply>);

export interface FakeModelServerOptions {
  /** The model ids `GET /v1/models` lists, in the OpenAI format; without them that route is 404. */
  models?: readonly string[] | undefined;
}

export class FakeModelServer {
  /** Every request, in order. */
  readonly requests: ChatRequest[] = [];
  /** Each request's headers, in the same order. */
  readonly requestHeaders: IncomingHttpHeaders[] = [];
  /** When each request had arrived (its body read), by `performance.now()`, in order. */
  readonly requestTimes: number[] = [];
  /** How many replies the client broke off before they ended (or, for `neverAnswer`, began). */
  aborted = 0;
  /** How many times the model list was asked for. */
  modelListRequests = 0;
  /** Called with each chunk's text just before it is written, for latency measurements. */
  onChunk: ((text: string) => void) | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly script: FakeScript,
    private readonly options: FakeModelServerOptions,
  ) {}

  /** Starts a server on 127.0.0.1 with a free port. */
  static async start(script: FakeScript, options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
    const server = createServer();
    const fake = new FakeModelServer(server, script, options);
    server.on("request", (request, response) => void fake.handle(request, response));
    server.on("connection", (socket) => {
      fake.sockets.add(socket);
      socket.on("close", () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  /** The base URL to give a provider, ending in `/v1`. */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === "GET" && request.url?.endsWith("/models") && this.options.models) {
      this.modelListRequests++;
      const data = this.options.models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" }));
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data }));
      return;
    }
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `No route ${request.method} ${request.url}` } }));
      return;
    }
    let body = "";
    for await (const chunk of request) {
      body += String(chunk);
    }
    const parsed = JSON.parse(body) as ChatRequest;
    const index = this.requests.length;
    this.requests.push(parsed);
    this.requestHeaders.push(request.headers);
    this.requestTimes.push(performance.now());
    let reply: FakeReply | undefined;
    try {
      reply = typeof this.script === "function" ? await this.script(parsed, index) : this.script[index];
    } catch (error) {
      reply = { status: 500, error: error instanceof Error ? error.message : String(error) };
    }
    reply ??= { status: 500, error: `The fake model server has no reply number ${index + 1}.` };
    if (reply.neverAnswer) {
      response.on("close", () => this.aborted++);
      return;
    }
    if (reply.status !== undefined) {
      response.writeHead(reply.status, { ...reply.headers, "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: reply.error ?? "error", type: "fake_error" } }));
      return;
    }
    if (parsed.stream) {
      await this.stream(reply, parsed.model, response);
    } else {
      response.writeHead(200, { ...reply.headers, "content-type": "application/json" });
      response.end(JSON.stringify(completion(reply, parsed.model)));
    }
  }

  private async stream(reply: FakeReply, model: string, response: ServerResponse): Promise<void> {
    response.writeHead(200, { ...reply.headers, "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    let closed = false;
    response.on("close", () => {
      if (!response.writableFinished) {
        closed = true;
        this.aborted++;
      }
    });
    const chunks = streamChunks(reply, model);
    for (let index = 0; index < chunks.length; index++) {
      if (closed) {
        return;
      }
      if (reply.failAfter !== undefined && index >= reply.failAfter) {
        response.socket?.destroy();
        return;
      }
      if (reply.stallAfter !== undefined && index >= reply.stallAfter) {
        return;
      }
      if (reply.chunkDelayMs && index > 0) {
        await new Promise((resolve) => setTimeout(resolve, reply.chunkDelayMs));
      }
      await reply.beforeChunk?.(index);
      if (closed) {
        return;
      }
      const chunk = chunks[index] as { text?: string | undefined; data: string };
      if (chunk.text !== undefined) {
        this.onChunk?.(chunk.text);
      }
      // Wait until the chunk is handed to the socket, so a break that follows really is mid-stream.
      await new Promise((resolve) => response.write(`data: ${chunk.data}\n\n`, resolve));
    }
    response.end("data: [DONE]\n\n");
  }
}

function streamChunks(reply: FakeReply, model: string): Array<{ text?: string | undefined; data: string }> {
  const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const out: Array<{ text?: string | undefined; data: string }> = [{ data: chunk({ role: "assistant", content: "" }) }];
  for (const delta of pieces(reply.reasoning)) {
    out.push({ data: chunk({ reasoning_content: delta }) });
  }
  for (const delta of pieces(reply.text)) {
    out.push({ text: delta, data: chunk({ content: delta }) });
  }
  reply.toolCalls?.forEach((call, index) => {
    const id = call.id ?? `call_${index + 1}`;
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    const half = Math.floor(args.length / 2);
    out.push({ data: chunk({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: args.slice(0, half) } }] }) });
    out.push({ data: chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }) });
  });
  out.push({ data: chunk({}, finishOf(reply)) });
  out.push({ data: JSON.stringify({ ...base, choices: [], usage: usageOf(reply) }) });
  return out;
}

function usageOf(reply: FakeReply): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const { promptTokens, completionTokens } = reply.usage ?? { promptTokens: 12, completionTokens: 7 };
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

function completion(reply: FakeReply, model: string): unknown {
  const toolCalls = reply.toolCalls?.map((call, index) => ({
    id: call.id ?? `call_${index + 1}`,
    type: "function",
    function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
  }));
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content: pieces(reply.text).join(""), tool_calls: toolCalls }, finish_reason: finishOf(reply) }],
    usage: usageOf(reply),
  };
}

function finishOf(reply: FakeReply): string {
  return reply.finishReason ?? (reply.toolCalls?.length ? "tool_calls" : "stop");
}

function pieces(value: string | readonly string[] | undefined): readonly string[] {
  return value === undefined ? [] : typeof value === "string" ? [value] : value;
}
