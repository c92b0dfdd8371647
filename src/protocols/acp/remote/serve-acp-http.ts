// serveAcpHttp(): serves a graph over ACP's Streamable HTTP & WebSocket transport, at one endpoint
// (`/acp`), on the SDK's own server. Every request says who is calling before any JSON-RPC is read
// (a hook answers with the principal, or the request gets 401); a connection belongs to the
// principal that opened it, and so does every session started in it, which no one else can find.
// Sessions outlive connections: a turn goes on when its connection drops, and the next connection
// that loads the session gets all of it.

import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

import type { Stream } from "@agentclientprotocol/sdk";
import { createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer as SdkServer, type ConnectionLimits } from "@agentclientprotocol/sdk/experimental/server";

import { silentLogger } from "../../../types/logger.js";
import type { Principal } from "../../../types/principal.js";
import type { ProtocolGraph } from "../../shared.js";
import { AcpAgent } from "../acp-agent.js";
import type { AcpOptions } from "../acp-options.js";
import type { AcpConfigValues } from "../config-options.js";
import type { AcpCommand } from "../slash-commands.js";
import { acpRequestListener } from "./acp-request-listener.js";
import type { AcpHttpAuthenticate } from "./acp-http-authenticate.js";
import { checkOrigin } from "./check-origin.js";
import { HttpRefusal } from "./http-refusal.js";
import type { HttpHandlers } from "./listen-http.js";

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
  /** The Streamable HTTP connections open now, by their Acp-Connection-Id: whose, and when last used. */
  const connections = new Map<string, { owner: string; lastSeen: number; streams: number }>();
  const idleMs = http.idleConnectionMs ?? 120_000;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, connection] of connections) {
      if (connection.streams === 0 && now - connection.lastSeen > idleMs) {
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
        const connection = agent.connect(stream, { principal }, connectOptions);
        void connection.closed.then(() => {
          if (opened.id !== undefined) {
            connections.delete(opened.id);
          }
        });
        return connection;
      },
    };
  };

  /** Who is calling, or the answer that refuses them. */
  const caller = async (request: Request): Promise<Principal | Response> => {
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

  // The SDK's Node adapter reads the request and writes the answer; in between, this sees the
  // request first: who is calling, and whether the connection it names is theirs.
  const gate = {
    handleRequest: async (request: Request): Promise<Response> => {
      if (new URL(request.url).pathname !== endpoint) {
        return new Response("Not found.", { status: 404 });
      }
      const principal = await caller(request);
      if (principal instanceof Response) {
        return principal;
      }
      const connectionId = request.headers.get("acp-connection-id");
      if (connectionId !== null) {
        const connection = connections.get(connectionId);
        // Someone else's connection is answered as one that does not exist.
        if (connection && connection.owner !== principal.id) {
          return new Response("Unknown connection.", { status: 404 });
        }
        const response = await sdk.handleRequest(request);
        return connection ? inUse(connection, response) : response;
      }
      const made = connector(principal);
      const response = await sdk.handleRequest(request, { createAgent: () => made });
      const id = response.headers.get("acp-connection-id");
      if (id !== null) {
        made.opened.id = id;
        connections.set(id, { owner: principal.id, lastSeen: Date.now(), streams: 0 });
      }
      return response;
    },
  };
  const handleRequest = acpRequestListener(gate as unknown as SdkServer, { maxRequestBodyBytes: http.maxRequestBodyBytes ?? 16 * 1024 * 1024 });

  let sockets: { WebSocketServer: new (options: { noServer: true; maxPayload: number }) => NodeWebSocketServer } | undefined;
  let webSockets: NodeWebSocketServer | undefined;
  const handleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on("error", () => socket.destroy());
    void (async () => {
      const url = new URL(request.url ?? "/", "http://localhost");
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string") {
          headers.set(name, value);
        } else if (Array.isArray(value)) {
          headers.set(name, value.join(", "));
        }
      }
      const principal = url.pathname === endpoint ? await caller(new Request(url, { headers })) : new Response("Not found.", { status: 404 });
      if (principal instanceof Response) {
        refuseUpgrade(socket, principal);
        return;
      }
      sockets ??= (await import("ws")) as unknown as typeof sockets;
      // Messages over the limit would close the connection as over its buffer anyway.
      webSockets ??= new sockets!.WebSocketServer({ noServer: true, maxPayload: http.maxRequestBodyBytes ?? 16 * 1024 * 1024 });
      const made = connector(principal);
      const server = { prepareWebSocketUpgrade: () => sdk.prepareWebSocketUpgrade({ createAgent: () => made }) };
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

/** Answers an upgrade with a refusal, on the socket itself, and closes it. */
function refuseUpgrade(socket: Duplex, response: Response): void {
  const lines = [`HTTP/1.1 ${response.status} ${response.statusText || "Refused"}`, "Connection: close"];
  response.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  void response.text().then((body) => {
    socket.end(`${lines.join("\r\n")}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}
