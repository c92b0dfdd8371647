// One address for every model API an agent may speak: Chat Completions, OpenAI Responses and
// Anthropic Messages served on the same port, each request handed to the fake of its path (the
// query ignored). An agent's SDK then finds its API wherever it looks: OpenAI's clients at
// `<origin>/v1`, Anthropic's at the origin (its SDK adds `/v1` itself). A request no fake serves is
// answered 404 and kept with a hint saying which variable would have pointed the agent right.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

import { pathOf } from "./fake-http-server.js";

/** Answers one request, as a fake model server does. */
export interface RequestHandler {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

/** The fakes behind the origin, by the API they speak. */
export interface OriginFakes {
  chat: RequestHandler;
  responses: RequestHandler;
  messages: RequestHandler;
}

/** A model request the origin could not serve. */
export interface UnservedCall {
  method: string;
  /** The path and query, as the agent sent them. */
  url: string;
  /** The API the path looks like, when it looks like one. */
  api: "Chat Completions" | "Responses" | "Anthropic Messages" | undefined;
  /** What to set so that the agent calls the right place. */
  hint: string;
}

const ROUTES: ReadonlyArray<{ method: string; suffix: string; fake: keyof OriginFakes; api: UnservedCall["api"] }> = [
  { method: "POST", suffix: "/chat/completions", fake: "chat", api: "Chat Completions" },
  { method: "POST", suffix: "/responses", fake: "responses", api: "Responses" },
  { method: "POST", suffix: "/messages", fake: "messages", api: "Anthropic Messages" },
  { method: "GET", suffix: "/models", fake: "chat", api: undefined },
];

export class FakeModelOrigin {
  /** Every model call (POST) no fake served, in order. */
  readonly unserved: UnservedCall[] = [];
  private readonly server: Server = createServer();
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly fakes: OriginFakes) {
    this.server.on("request", (request, response) => void this.route(request, response));
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  /** Starts the origin on 127.0.0.1 with a free port. */
  static async start(fakes: OriginFakes): Promise<FakeModelOrigin> {
    const origin = new FakeModelOrigin(fakes);
    await new Promise<void>((resolve) => origin.server.listen(0, "127.0.0.1", resolve));
    return origin;
  }

  /** `http://127.0.0.1:<port>`, with no path: what Anthropic's SDK takes as its base URL. */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** `<origin>/v1`: what OpenAI's SDKs and the AI SDK's providers take as their base URL. */
  get v1(): string {
    return `${this.url}/v1`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = pathOf(request.url);
    const method = request.method ?? "";
    const route = ROUTES.find((route) => route.method === method && (path === route.suffix || path === `/v1${route.suffix}`));
    if (route) {
      await this.fakes[route.fake].handle(request, response);
      return;
    }
    if (method === "HEAD") {
      // A reachability probe (Claude Code's `HEAD /api/hello`): the origin is there.
      response.writeHead(200).end();
      return;
    }
    request.resume();
    const unserved = this.unservedCall(method, request.url ?? "", path);
    if (method === "POST") {
      // A model call. A GET the origin does not answer is an optional lookup (a context window, a
      // model's details), which an agent carries on without.
      this.unserved.push(unserved);
    }
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { type: "not_found", message: `The conformance check's fake model does not serve ${method} ${path}. ${unserved.hint}` } }));
  }

  private unservedCall(method: string, url: string, path: string): UnservedCall {
    const like = ROUTES.find((route) => route.method === method && path.endsWith(route.suffix));
    const api = like?.api;
    const served = `it serves POST ${this.v1}/chat/completions, ${this.v1}/responses and ${this.v1}/messages`;
    if (api === "Anthropic Messages") {
      return { method, url, api, hint: `Anthropic's SDK adds /v1 itself: ANTHROPIC_BASE_URL should be the origin, ${this.url} (${served}).` };
    }
    if (like) {
      // Chat Completions, Responses or the model list: an OpenAI client's paths.
      return { method, url, api, hint: `An OpenAI client's base URL should be ${this.v1} (OPENAI_BASE_URL, or --env with {model_v1}); ${served}.` };
    }
    return { method, url, api, hint: `It looks like no model API the check fakes; ${served}.` };
  }
}
