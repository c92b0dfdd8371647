// serveAcpHttp(): serves a graph over ACP's Streamable HTTP & WebSocket transport, at one endpoint
// (`/acp`), on the SDK's own server. Every request says who is calling before any JSON-RPC is read
// (a hook answers with the principal, or the request gets 401); a connection belongs to the
// principal that opened it, and so does every session started in it, which no one else can find.
// Sessions outlive connections: a turn goes on when its connection drops, and the next connection
// that loads the session gets all of it.

import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { constants as http2Constants, Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import type { Duplex } from "node:stream";

import type { Stream } from "@agentclientprotocol/sdk";
import { createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer as SdkServer, type ConnectionLimits } from "@agentclientprotocol/sdk/experimental/server";

import { silentLogger } from "../../types/logger.js";
import type { Principal } from "../../types/principal.js";
import type { ProtocolGraph } from "../../graph/protocol-graph.js";
import { AcpAgent } from "../server/acp-agent.js";
import type { AcpOptions } from "../server/acp-options.js";
import type { AcpConfigValues } from "../surface/config-options.js";
import type { AcpCommand } from "../surface/slash-commands.js";
import { acpRequestListener } from "./acp-request-listener.js";
import type { AcpHttpAuthenticate } from "./auth/acp-http-authenticate.js";
import { BodyBudget, type BodyBudgetLimits } from "./body-budget.js";
import { checkOrigin } from "./auth/check-origin.js";
import { HttpRefusal } from "./auth/http-refusal.js";
import type { HttpHandlers, HttpRequest, HttpResponse } from "./listen-http.js";
import { limitRequestsInFlight, type RequestsInFlightLimits } from "./requests-in-flight.js";

/** How `serveAcpHttp()` takes requests: who may call, from where, and what a connection may hold. */
export interface AcpHttpOptions {
  /**
   * Who is calling, from the request's method, URL and headers (its body is not read yet): the
   * principal, or undefined for a 401; throw an HttpRefusal for another answer (a 403). Without
   * it every caller is the same anonymous principal, which only suits a server on loopback.
   */
  authenticate?: AcpHttpAuthenticate | undefined;
  /**
   * The directories a principal's sessions may be opened in and work in: their `cwd` and other
   * directories must really lead inside one (links followed, and a directory not made yet by the
   * real place it would be made in), and every path their tools resolve stays inside one, even
   * after a directory of the session is swapped for a link that points out. Defaults to the
   * directory the process started in.
   */
  roots?: readonly string[] | ((principal: Principal) => readonly string[]) | undefined;
  /**
   * The origins browsers may call from. Requests without an `Origin` header (editors, the CLI)
   * always pass; by default only loopback origins do.
   */
  origins?: readonly string[] | undefined;
  /** The endpoint's path. Default `/acp`. */
  path?: string | undefined;
  /** What one connection may hold for a client that is slow to read; see the SDK's ConnectionLimits. */
  limits?: ConnectionLimits | undefined;
  /** The largest request body read, in bytes. Default 16 MiB (the largest prompt serveAcp takes). */
  maxRequestBodyBytes?: number | undefined;
  /**
   * How many bytes of request bodies are held at once, per principal and in all (bodies are read
   * whole before they are parsed). A request that would pass a limit is answered 503 with
   * `Retry-After`, unread. Defaults: 32 MiB per principal, 128 MiB in all.
   */
  bodyBudget?: BodyBudgetLimits | undefined;
  /** How many requests one connection may have the agent working on at once, and queued behind them. */
  requests?: RequestsInFlightLimits | undefined;
  /**
   * How long a Streamable HTTP connection may go without a request or an open stream before it
   * is closed, in ms: its client is gone (a laptop that slept, a network that dropped) and will
   * make a new one. Default 2 minutes. Its sessions go on without it.
   */
  idleConnectionMs?: number | undefined;
}

/** A running remote ACP endpoint: handlers for a Node HTTP (or HTTP/2 compatibility) server. */
export interface AcpHttpServer {
  /** Handles a request, HTTP/1.1 or HTTP/2 (the server's `request` event). Requests for another path get 404. */
  request: HttpHandlers["request"];
  /** Handles a WebSocket upgrade (the server's `upgrade` event). */
  upgrade: HttpHandlers["upgrade"];
  /** Ends every connection and stops every turn. */
  close(): Promise<void>;
  /** As AcpServer.setConfig, for a session open in this process. */
  setConfig(sessionId: string, values: Readonly<AcpConfigValues>): Promise<void>;
  /** As AcpServer.setCommands, for a session open in this process. */
  setCommands(sessionId: string, commands: readonly AcpCommand[] | undefined): void;
}

/** Connection limits tighter than the SDK's for a server many people share; each can be set in AcpHttpOptions.limits. */
export const REMOTE_CONNECTION_LIMITS: Required<ConnectionLimits> = {
  maxBufferedBytes: 16 * 1024 * 1024,
  maxOutputStallMs: 30_000,
  maxBufferedSessionStreams: 256,
  maxIdLength: 256,
};

const ANONYMOUS: Principal = { id: "anonymous" };

/**
 * The header this server puts on each request it has let in, naming the principal it found for
 * it; whatever a client sent under that name is overwritten.
 */
const PRINCIPAL_TICKET = "x-weft-principal-ticket";

/**
 * Serves a graph to remote ACP clients. Put its handlers on a server of your own, or on
 * `listenHttp()`, which takes HTTP/1.1, WebSocket and HTTP/2 on one port:
 *
 * ```ts
 * const acp = serveAcpHttp(agent, { authenticate: bearerTokens({ [process.env.TOKEN!]: "ana" }) }, { sessions });
 * const { url } = await listenHttp(acp, { port: 8080 });
 * ```
 */
export function serveAcpHttp(graph: ProtocolGraph, http: AcpHttpOptions = {}, options: AcpOptions = {}): AcpHttpServer {
  const logger = options.logger ?? silentLogger;
  const endpoint = http.path ?? "/acp";
  const roots = http.roots ?? [process.cwd()];
  const agent = new AcpAgent(graph, options, {
    shared: true,
    roots: (principal) => (typeof roots === "function" ? roots(principal ?? ANONYMOUS) : roots),
  });
  const sdk = new SdkServer({ ...REMOTE_CONNECTION_LIMITS, ...http.limits, createAgent: () => connector(ANONYMOUS) });
  const maxRequestBodyBytes = http.maxRequestBodyBytes ?? 16 * 1024 * 1024;
  const budget = new BodyBudget(http.bodyBudget);
  /**
   * The connections open now, by their Acp-Connection-Id: whose, over which transport, and (for
   * Streamable HTTP) when last used. An id not here, or not the caller's, names no connection.
   */
  const connections = new Map<string, { owner: string; transport: "http" | "websocket"; lastSeen: number; streams: number }>();
  const idleMs = http.idleConnectionMs ?? 120_000;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, connection] of connections) {
      if (connection.transport === "http" && connection.streams === 0 && now - connection.lastSeen > idleMs) {
        connections.delete(id);
        logger.info("Closing an idle connection", { connectionId: id, owner: connection.owner });
        void sdk.handleRequest(new Request(`http://localhost${endpoint}`, { method: "DELETE", headers: { "acp-connection-id": id } })).catch(() => undefined);
      }
    }
  }, Math.max(10, Math.min(idleMs / 2, 10_000)));
  sweep.unref();

  /** The agent side of one new connection, answering for `principal`. */
  const connector = (principal: Principal) => {
    const opened: { id?: string } = {};
    return {
      opened,
      connect: (stream: Stream, connectOptions?: unknown) => {
        const connection = agent.connect(limitRequestsInFlight(stream, http.requests), { principal }, connectOptions);
        void connection.closed.then(() => {
          if (opened.id !== undefined) {
            connections.delete(opened.id);
          }
        });
        return connection;
      },
    };
  };

  /** Who is calling, from the request's headers alone, or the answer that refuses them. */
  const caller = async (request: Request): Promise<Principal | Response> => {
    if (new URL(request.url).pathname !== endpoint) {
      return new Response("Not found.", { status: 404 });
    }
    if (!checkOrigin(request, http.origins)) {
      return new Response("This server does not take requests from that page.", { status: 403 });
    }
    if (!http.authenticate) {
      return ANONYMOUS;
    }
    try {
      return (await http.authenticate(request)) ?? new HttpRefusal(401, "This server needs credentials: a bearer token in the Authorization header.").toResponse();
    } catch (error) {
      if (HttpRefusal.isInstance(error)) {
        return error.toResponse();
      }
      logger.error("Authenticating a request failed", { error: String(error) });
      return new Response("Authentication failed.", { status: 500 });
    }
  };

  /** The principals of requests let in and not yet handed to the SDK, by the ticket their request carries. */
  const tickets = new Map<string, Principal>();

  // The SDK's Node adapter reads the body and writes the answer; in between, this sees the request
  // first: whether the connection it names is the caller's, over Streamable HTTP.
  const gate = {
    handleRequest: async (request: Request): Promise<Response> => {
      const ticket = request.headers.get(PRINCIPAL_TICKET) ?? "";
      const principal = tickets.get(ticket);
      tickets.delete(ticket);
      if (!principal) {
        return new Response("This request was not let in.", { status: 500 });
      }
      const connectionId = request.headers.get("acp-connection-id");
      if (connectionId !== null) {
        const connection = connections.get(connectionId);
        // Someone else's connection, or a WebSocket's (which takes messages on its socket only),
        // is answered as one that does not exist.
        if (!connection || connection.owner !== principal.id || connection.transport !== "http") {
          return new Response("Unknown Acp-Connection-Id", { status: 404 });
        }
        return inUse(connection, await sdk.handleRequest(request));
      }
      const made = connector(principal);
      const response = await sdk.handleRequest(request, { createAgent: () => made });
      const id = response.headers.get("acp-connection-id");
      if (id !== null) {
        made.opened.id = id;
        connections.set(id, { owner: principal.id, transport: "http", lastSeen: Date.now(), streams: 0 });
      }
      return response;
    },
  };
  const sdkRequest = acpRequestListener(gate as unknown as SdkServer, { maxRequestBodyBytes });

  /**
   * Checks the caller from the headers before a byte of the body is read: a refused request is
   * answered and its connection closed (HTTP/1.1) or its stream reset (HTTP/2), its body never
   * held. A request let in sets aside room for its body, then goes to the SDK's handler.
   */
  const admit = async (request: HttpRequest, response: HttpResponse): Promise<void> => {
    const principal = await caller(headersOnly(request));
    if (principal instanceof Response) {
      await refuse(request, response, principal);
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      const declared = Number(request.headers["content-length"]);
      // A body over the limit is refused by the SDK unread; one of unknown length may grow to it.
      const size = Number.isSafeInteger(declared) && declared >= 0 ? (declared > maxRequestBodyBytes ? 0 : declared) : maxRequestBodyBytes;
      const release = budget.reserve(principal.id, size);
      if (!release) {
        logger.warn("Refused a request: too many bodies being read", { principal: principal.id, bytes: size });
        await refuse(request, response, new Response("Too many request bodies are being read for you at once; try again shortly.", { status: 503, headers: { "retry-after": "1" } }));
        return;
      }
      response.once("close", release);
    }
    const ticket = randomUUID();
    tickets.set(ticket, principal);
    response.once("close", () => tickets.delete(ticket));
    request.headers[PRINCIPAL_TICKET] = ticket;
    sdkRequest(request, response);
  };
  const handleRequest: HttpHandlers["request"] = (request, response) => {
    admit(request, response).catch((error: unknown) => {
      logger.error("A request failed before it was read", { error: String(error) });
      if (!response.headersSent) {
        response.statusCode = 500;
      }
      response.end();
    });
  };

  let sockets: { WebSocketServer: new (options: { noServer: true; maxPayload: number }) => NodeWebSocketServer } | undefined;
  let webSockets: NodeWebSocketServer | undefined;
  const handleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on("error", () => socket.destroy());
    void (async () => {
      const principal = await caller(headersOnly(request));
      if (principal instanceof Response) {
        refuseUpgrade(socket, principal);
        return;
      }
      sockets ??= (await import("ws")) as unknown as typeof sockets;
      // Messages over the limit would close the connection as over its buffer anyway.
      webSockets ??= new sockets!.WebSocketServer({ noServer: true, maxPayload: maxRequestBodyBytes });
      const made = connector(principal);
      const server = {
        prepareWebSocketUpgrade: () => {
          const upgrade = sdk.prepareWebSocketUpgrade({ createAgent: () => made });
          const id = upgrade.connectionId;
          made.opened.id = id;
          connections.set(id, { owner: principal.id, transport: "websocket", lastSeen: Date.now(), streams: 0 });
          return {
            ...upgrade,
            reject: () => {
              connections.delete(id);
              upgrade.reject();
            },
          };
        },
      };
      createNodeWebSocketUpgradeHandler(server as unknown as SdkServer, webSockets)(request, socket, head);
    })().catch((error: unknown) => {
      logger.error("A WebSocket upgrade failed", { error: String(error) });
      socket.destroy();
    });
  };

  return {
    request: handleRequest,
    upgrade: handleUpgrade,
    close: async () => {
      clearInterval(sweep);
      await sdk.close();
      webSockets?.close();
      await agent.close();
    },
    setConfig: async (sessionId, values) => {
      await agent.live(sessionId).config.change(values);
    },
    setCommands: (sessionId, commands) => {
      agent.live(sessionId).commands.set(commands);
    },
  };
}

/** Marks a connection used now, and while `response` streams (an SSE stream stays open for as long as its client reads it). */
function inUse(connection: { lastSeen: number; streams: number }, response: Response): Response {
  connection.lastSeen = Date.now();
  if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    return response;
  }
  connection.streams++;
  let open = true;
  const ended = () => {
    if (open) {
      open = false;
      connection.streams--;
      connection.lastSeen = Date.now();
    }
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        const { done, value } = await reader.read();
        if (done) {
          ended();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        ended();
        controller.error(error);
      }
    },
    cancel: (reason) => {
      ended();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The ws package's server, as far as the upgrade handler uses it. */
type NodeWebSocketServer = Parameters<typeof createNodeWebSocketUpgradeHandler>[1] & { close(): void };

/** A request as its headers alone tell it, for deciding who calls before the body is read. */
function headersOnly(request: HttpRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    // HTTP/2's pseudo-headers (`:path` …) are not header names a web Request takes.
    if (name.startsWith(":") || name === PRINCIPAL_TICKET) {
      continue;
    }
    if (typeof value === "string") {
      headers.set(name, value);
    } else if (Array.isArray(value)) {
      headers.set(name, value.join(", "));
    }
  }
  return new Request(new URL(request.url ?? "/", "http://localhost"), { headers });
}

/**
 * Answers a request with a refusal without reading its body: over HTTP/1.1 the connection then
 * closes (Node throws away what arrives meanwhile, and a client still sending a second later is
 * cut off); over HTTP/2 the stream is reset, which tells the client to stop sending.
 */
async function refuse(request: HttpRequest, response: HttpResponse, answer: Response): Promise<void> {
  const body = await answer.text();
  response.statusCode = answer.status;
  answer.headers.forEach((value, name) => response.setHeader(name, value));
  if (request instanceof Http2ServerRequest) {
    const stream = (response as Http2ServerResponse).stream;
    response.end(body, () => stream.close(http2Constants.NGHTTP2_NO_ERROR));
    return;
  }
  response.setHeader("connection", "close");
  response.end(body, () => setTimeout(() => request.socket.destroy(), 1000).unref());
}

/** Answers an upgrade with a refusal, on the socket itself, and closes it. */
function refuseUpgrade(socket: Duplex, response: Response): void {
  const lines = [`HTTP/1.1 ${response.status} ${response.statusText || "Refused"}`, "Connection: close"];
  response.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  void response.text().then((body) => {
    socket.end(`${lines.join("\r\n")}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}
