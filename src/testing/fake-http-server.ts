// What every fake model server shares: an HTTP server on 127.0.0.1 that answers one POST route
// from a script, records each request and its headers, and streams a reply as server-sent events that can fail,
// break off or stall. Each API's fake supplies only its wire format.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

import { SIDE_CALL_HEADER } from "../models/side-call-header.js";
import type { FakeReply, FakeScriptFor } from "./fake-reply.js";
import { errorMessage } from "../errors/error-message.js";

/** Options every fake model server takes. */
export interface FakeModelOptions {
  /**
   * The script for an agent's side calls: requests with the `x-weft-side-call` header, such as
   * weft's call for a session's title, which it makes in the background beside a turn's calls.
   * They are recorded in `sideRequests`, not `requests`, and take no reply from the main script,
   * so a side call never shifts the replies a test scripted for the turns. Without it, a side
   * call is answered with an HTTP 500 error (and an agent falls back as when it fails).
   */
  sideCalls?: FakeScriptFor<unknown> | undefined;
  /**
   * More JSON routes, by method and path (`"GET /v1/models"`, `"POST /api/show"`; the query is not
   * part of the path): the body to answer with, or a function of the request's body (parsed JSON,
   * undefined for none) and its full URL that gives it. Asked before the fake's own routes; a
   * function that gives undefined answers 404.
   */
  routes?: Readonly<Record<string, unknown>> | undefined;
}

/** One server-sent event, written as it goes on the wire, and the reply text it carries if any. */
export interface FakeStreamEvent {
  frame: string;
  text?: string | undefined;
}

/** The model server fakes extend this with the wire format of the API they fake. */
export abstract class FakeHttpServer<Request> {
  /** Every request, in order, but side calls. */
  readonly requests: Request[] = [];
  /** The headers of each of `requests`, in the same order (to check the API key a client sent, say). */
  readonly requestHeaders: IncomingHttpHeaders[] = [];
  /** Every side call (see FakeModelOptions.sideCalls), in order. */
  readonly sideRequests: Request[] = [];
  /** When each request had arrived (its body read), by `performance.now()`, in order. */
  readonly requestTimes: number[] = [];
  /** How many replies the client broke off before they ended (or, for `neverAnswer`, began). */
  aborted = 0;
  /** Called with each chunk's text just before it is written, for latency measurements. */
  onChunk: ((text: string) => void) | undefined;
  private readonly server: Server = createServer();
  private readonly sockets = new Set<Socket>();

  protected constructor(
    private readonly script: FakeScriptFor<Request>,
    private readonly options: FakeModelOptions = {},
  ) {
    this.server.on("request", (request, response) => void this.handle(request, response));
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  /** Starts listening on 127.0.0.1 with a free port. */
  protected async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
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

  /** The path under `/v1` the API is posted to, such as `/chat/completions`. */
  protected abstract readonly path: string;
  /** What a request body is recorded and shown to a script function as. Throwing answers 400 with the message. */
  protected abstract read(body: unknown): Request;
  /** Whether the client asked for a streamed reply: `stream: true` in each of these APIs. */
  protected streams(body: unknown): boolean {
    return (body as { stream?: unknown }).stream === true;
  }
  /** The JSON body of an error answer with this status. */
  protected abstract errorBody(status: number, message: string): unknown;
  /** The events a streamed reply is made of, in order. */
  protected abstract events(reply: FakeReply, request: Request): FakeStreamEvent[];
  /** The event that reports an error in the middle of a stream. */
  protected abstract streamError(message: string): string;
  /** What is written after the last event, such as `data: [DONE]`. */
  protected readonly streamEnd: string = "";
  /** The whole reply for a request that did not ask to stream; undefined when the fake only streams. */
  protected completion(_reply: FakeReply, _request: Request): unknown {
    return undefined;
  }
  /**
   * The JSON body of a GET route the fake answers besides its POST route, such as a model list,
   * or undefined for none (answered 404).
   */
  protected answerGet(_url: string): unknown {
    return undefined;
  }

  /**
   * Answers one request as this fake's own server would: for an origin that serves several APIs on
   * one port and hands each request to the fake of its path.
   */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const route = this.options.routes?.[`${request.method ?? ""} ${pathOf(request.url)}`];
    if (route !== undefined) {
      let text = "";
      for await (const chunk of request) {
        text += String(chunk);
      }
      const answer = typeof route === "function" ? (route as (body: unknown, url: string) => unknown)(text === "" ? undefined : JSON.parse(text), request.url ?? "") : route;
      if (answer === undefined) {
        this.answerError(response, 404, `No route ${request.method} ${request.url}`);
      } else {
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
      }
      return;
    }
    if (request.method === "GET" && request.url !== undefined) {
      const answer = this.answerGet(request.url);
      if (answer !== undefined) {
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
        return;
      }
    }
    if (request.method !== "POST" || !pathOf(request.url).endsWith(this.path)) {
      this.answerError(response, 404, `No route ${request.method} ${request.url}`);
      return;
    }
    let text = "";
    for await (const chunk of request) {
      text += String(chunk);
    }
    let body: unknown;
    let parsed: Request;
    try {
      body = JSON.parse(text) as unknown;
      parsed = this.read(body);
    } catch (error) {
      // What a real API does with a body it cannot make sense of.
      this.answerError(response, 400, errorMessage(error));
      return;
    }
    const side = request.headers[SIDE_CALL_HEADER] !== undefined;
    const script: FakeScriptFor<Request> = side ? (this.options.sideCalls ?? []) : this.script;
    const index = side ? this.sideRequests.length : this.requests.length;
    if (side) {
      this.sideRequests.push(parsed);
    } else {
      this.requests.push(parsed);
      this.requestHeaders.push(request.headers);
      this.requestTimes.push(performance.now());
    }
    let reply: FakeReply | undefined;
    try {
      reply = typeof script === "function" ? await script(parsed, index) : script[index];
    } catch (error) {
      reply = { status: 500, error: errorMessage(error) };
    }
    reply ??= { status: 500, error: `The fake model server has no ${side ? "side call " : ""}reply number ${index + 1}.` };
    if (reply.neverAnswer) {
      response.on("close", () => this.aborted++);
      return;
    }
    if (reply.status !== undefined) {
      this.answerError(response, reply.status, reply.error ?? "error", reply.headers);
      return;
    }
    if (this.streams(body)) {
      await this.stream(reply, parsed, response);
      return;
    }
    const completion = this.completion(reply, parsed);
    if (completion === undefined) {
      this.answerError(response, 400, "This fake model server only streams; send stream: true.");
      return;
    }
    response.writeHead(200, { ...reply.headers, "content-type": "application/json" });
    response.end(JSON.stringify(completion));
  }

  private answerError(response: ServerResponse, status: number, message: string, headers?: Readonly<Record<string, string>>): void {
    response.writeHead(status, { ...headers, "content-type": "application/json" });
    response.end(JSON.stringify(this.errorBody(status, message)));
  }

  private async stream(reply: FakeReply, request: Request, response: ServerResponse): Promise<void> {
    response.writeHead(200, { ...reply.headers, "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    let closed = false;
    response.on("close", () => {
      if (!response.writableFinished) {
        closed = true;
        this.aborted++;
      }
    });
    const events = this.events(reply, request);
    for (let index = 0; index < events.length; index++) {
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
      if (reply.errorAfter !== undefined && index >= reply.errorAfter) {
        response.end(this.streamError(reply.error ?? "error"));
        return;
      }
      if (reply.chunkDelayMs && index > 0) {
        await new Promise((resolve) => setTimeout(resolve, reply.chunkDelayMs));
      }
      await reply.beforeChunk?.(index);
      if (closed) {
        return;
      }
      const event = events[index] as FakeStreamEvent;
      if (event.text !== undefined) {
        this.onChunk?.(event.text);
      }
      // Wait until the event is handed to the socket, so a break that follows really is mid-stream.
      await new Promise((resolve) => response.write(event.frame, resolve));
    }
    response.end(this.streamEnd);
  }
}

/** A request's path without its query: clients such as Anthropic's SDK add `?beta=true`. */
export function pathOf(url: string | undefined): string {
  return (url ?? "").split("?")[0] ?? "";
}

/** A server-sent event with only a data line, as chat completions sends them. */
export function dataFrame(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** A server-sent event with an event name and a JSON data line, as the Responses and Messages APIs send them. */
export function namedFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
