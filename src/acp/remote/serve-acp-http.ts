// serveAcpHttp(): serves a graph over ACP's Streamable HTTP & WebSocket transport, at one endpoint
// (`/acp`), on the SDK's own server. Every request says who is calling before any JSON-RPC is read
// (a hook answers with the principal, or the request gets 401); a connection belongs to the
// principal that opened it, and so does every session started in it, which no one else can find.
// Sessions outlive connections: a turn goes on when its connection drops, and the next connection
// that loads the session gets all of it. This file puts the endpoint together: who calls is
// caller.ts, the connections open now open-connections.ts, HTTP requests http-requests.ts and
// WebSocket upgrades websocket-upgrades.ts.

import type { Stream } from "@agentclientprotocol/sdk";
import { AcpServer as SdkServer, type ConnectionLimits } from "@agentclientprotocol/sdk/experimental/server";

import { silentLogger } from "../../types/logger.js";
import type { Principal } from "../../types/principal.js";
import type { ProtocolGraph } from "../../graph/protocol-graph.js";
import { AcpAgent } from "../server/acp-agent.js";
import type { AcpOptions } from "../server/acp-options.js";
import type { AcpConfigValues } from "../surface/config-options.js";
import type { AcpCommand } from "../surface/slash-commands.js";
import type { AcpHttpAuthenticate } from "./auth/acp-http-authenticate.js";
import { BodyBudget, type BodyBudgetLimits } from "./body-budget.js";
import { ANONYMOUS, whoCalls } from "./caller.js";
import type { AgentSide, EndpointParts } from "./endpoint-parts.js";
import { httpRequests } from "./http-requests.js";
import type { HttpHandlers } from "./listen-http.js";
import { OpenConnections } from "./open-connections.js";
import { limitRequestsInFlight, type RequestsInFlightLimits } from "./requests-in-flight.js";
import { webSocketUpgrades } from "./websocket-upgrades.js";

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
  const connections = new OpenConnections(http.idleConnectionMs ?? 120_000, (id, connection) => {
    logger.info("Closing an idle connection", { connectionId: id, owner: connection.owner });
    void sdk.handleRequest(new Request(`http://localhost${endpoint}`, { method: "DELETE", headers: { "acp-connection-id": id } })).catch(() => undefined);
  });

  /** The agent side of one new connection, answering for `principal`. */
  const connector = (principal: Principal): AgentSide => {
    const opened: { id?: string } = {};
    return {
      opened,
      connect: (stream: Stream, connectOptions?: unknown) => {
        const connection = agent.connect(limitRequestsInFlight(stream, http.requests), { principal }, connectOptions);
        void connection.closed.then(() => {
          if (opened.id !== undefined) {
            connections.forget(opened.id);
          }
        });
        return connection;
      },
    };
  };

  const parts: EndpointParts = {
    sdk,
    connections,
    connector,
    caller: (request) => whoCalls(request, { endpoint, origins: http.origins, authenticate: http.authenticate, logger }),
    maxRequestBodyBytes: http.maxRequestBodyBytes ?? 16 * 1024 * 1024,
    logger,
  };
  const upgrades = webSocketUpgrades(parts);

  return {
    request: httpRequests(parts, new BodyBudget(http.bodyBudget)),
    upgrade: upgrades.upgrade,
    close: async () => {
      connections.stop();
      await sdk.close();
      upgrades.close();
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
