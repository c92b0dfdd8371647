// One port that speaks HTTP/1.1 (with WebSocket upgrades) and HTTP/2, in cleartext or over TLS: the
// network under the remote ACP endpoint, whose Streamable HTTP profile needs HTTP/2 and whose
// WebSocket profile is an HTTP/1.1 upgrade.

import * as http from "node:http";
import * as http2 from "node:http2";
import * as https from "node:https";
import type { Server, Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { TLSSocket } from "node:tls";

/** A request as either protocol delivers it; `request.httpVersion` is "1.1" (or "1.0") or "2.0". */
export type HttpRequest = http.IncomingMessage | http2.Http2ServerRequest;

/** The response that goes with an {@link HttpRequest} of the same protocol. */
export type HttpResponse = http.ServerResponse | http2.Http2ServerResponse;

/** What the listener hands each request to. */
export interface HttpHandlers {
  /**
   * Answers one request, of either protocol. A request over HTTP/2 comes with the HTTP/2
   * compatibility objects, whose `headers` include pseudo-headers (`:path`, `:authority` …).
   */
  request(request: HttpRequest, response: HttpResponse): void;
  /**
   * Takes over an HTTP/1.1 request with an `Upgrade` header (a WebSocket handshake). The handler
   * owns `socket` from then on, and must answer or destroy it.
   */
  upgrade(request: http.IncomingMessage, socket: Duplex, head: Buffer): void;
}

export interface ListenHttpOptions {
  /** Address to bind; loopback unless told otherwise. */
  host?: string | undefined;
  /** Port to bind; 0 (the default) lets the system pick one, which `url` then tells. */
  port?: number | undefined;
  /** Serve TLS with this key and certificate (PEM), offering `h2` and `http/1.1` by ALPN. */
  tls?: { key: string | Buffer; cert: string | Buffer } | undefined;
}

export interface HttpListener {
  /** Where the listener is, such as `http://127.0.0.1:41234` (no path). */
  url: URL;
  /**
   * Stops taking connections and ends the open ones. HTTP/2 clients are sent GOAWAY and idle
   * HTTP/1.1 connections close at once; whatever is still open a second later (an SSE stream
   * never ends by itself) is destroyed. Resolves once every connection is gone. Close the ACP
   * server first, so that its streams end cleanly within that second.
   */
  close(): Promise<void>;
}

/** The first bytes of every HTTP/2 connection (RFC 9113 §3.4); HTTP/1.1 can never start this way. */
const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/**
 * Streams one HTTP/2 client may have open at once. An ACP client holds one SSE stream for its
 * connection and one per session it uses, plus a POST or two in flight; RFC 9113 advises no
 * fewer than 100. Node's default is unlimited.
 */
const MAX_CONCURRENT_STREAMS = 128;

/** How long a new connection may take to say which protocol it speaks (first bytes, or TLS). */
const FIRST_BYTES_TIMEOUT_MS = 10_000;

/**
 * Time allowed to receive a request's headers, and the whole request. Node applies both only
 * while a request is arriving, never to the response, so a long-lived SSE response is not cut.
 */
const HEADERS_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 120_000;

/** How often Node checks those two; its default of 30 s would let a slow client hold on twice as long. */
const TIMEOUT_CHECK_INTERVAL_MS = 5_000;

/**
 * How long an idle kept-alive HTTP/1.1 connection stays open. With the checks above every 5 s,
 * Node's default of 5 s closes idle sockets close to when fetch (which keeps one 4 s) may reuse
 * them, and a request sent into a socket as it closes is reset: the likely cause of an ECONNRESET
 * the remote benchmark saw once under load. Clients close idle sockets long before this.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * How long an HTTP/2 connection may pass with no frame either way before it is closed. Each
 * write resets it, and the SDK writes an SSE keep-alive every 15 s, so open streams outlive it.
 * (HTTP/1.1 has Node's keep-alive timeout for its idle connections.)
 */
const HTTP2_IDLE_TIMEOUT_MS = 120_000;

/** How long close() lets open responses finish before it destroys their connections. */
const CLOSE_GRACE_MS = 1_000;

/** TCP keep-alive probes find peers that vanished under a quiet SSE stream or WebSocket. */
const TCP_KEEPALIVE_DELAY_MS = 30_000;

/**
 * Listens on one port for HTTP/1.1 and HTTP/2. In cleartext it reads the first bytes of each
 * connection: the HTTP/2 preface means h2c with prior knowledge, anything else HTTP/1.1. With
 * `tls`, ALPN decides (`h2`, else HTTP/1.1). Each socket gets an error handler, so a client
 * that misbehaves or vanishes never crashes the process. Resolves once listening.
 *
 * @example The SDK's ACP server on it:
 * ```ts
 * const acpServer = new AcpServer({ agent: app });
 * const webSockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
 * const listener = await listenHttp(
 *   { request: acpRequestListener(acpServer), upgrade: createNodeWebSocketUpgradeHandler(acpServer, webSockets) },
 *   { port: 8080 },
 * );
 * // to stop: await acpServer.close(); await listener.close();
 * ```
 */
export async function listenHttp(handlers: HttpHandlers, options: ListenHttpOptions = {}): Promise<HttpListener> {
  const sockets = new Set<Socket>();
  const sessions = new Set<http2.ServerHttp2Session>();

  // The HTTP/2 server never listens: it is handed the connections that turn out to be HTTP/2.
  const http2Server = http2.createServer({ settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS } });
  http2Server.on("request", handlers.request);
  http2Server.setTimeout(HTTP2_IDLE_TIMEOUT_MS);
  http2Server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  // The session is already destroyed when this is emitted; there is nothing more to do.
  http2Server.on("sessionError", ignore);

  const limits = { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS };
  const server = options.tls
    ? https.createServer({ ...limits, key: options.tls.key, cert: options.tls.cert, ALPNProtocols: ["h2", "http/1.1"], handshakeTimeout: FIRST_BYTES_TIMEOUT_MS })
    : http.createServer(limits);
  server.on("request", handlers.request);
  server.on("upgrade", handlers.upgrade);
  // A failed accept (out of file descriptors, say) is about one connection; the server listens on.
  server.on("error", ignore);
  // Node answers HTTP/1.1 parse errors itself (400, 408, 431) and destroys the socket; a TLS
  // handshake that fails only destroys its socket.
  server.on("tlsClientError", ignore);

  // Node's HTTP/1.1 server starts parsing a connection as soon as it is emitted; we take that
  // listener out and call it ourselves once we know the connection is HTTP/1.1.
  const http1Event = options.tls ? "secureConnection" : "connection";
  const startHttp1 = takeListener(server, http1Event);
  const startHttp2 = (socket: Socket): void => {
    // Node's HTTP/1.1 server accepts sockets half-open, and HTTP/2 does not close its side when
    // the client closes its own, so such a connection would linger until close() destroyed it.
    socket.allowHalfOpen = false;
    http2Server.emit("connection", socket);
  };

  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", ignore);
    socket.setNoDelay(true);
    socket.setKeepAlive(true, TCP_KEEPALIVE_DELAY_MS);
    if (!options.tls) {
      readPreface(socket, (isHttp2) => (isHttp2 ? startHttp2(socket) : startHttp1(socket)));
    }
  });
  if (options.tls) {
    server.on("secureConnection", (socket: TLSSocket) => {
      socket.on("error", ignore);
      if (socket.alpnProtocol === "h2") {
        startHttp2(socket);
      } else {
        startHttp1(socket);
      }
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new Error("the listener has no TCP address");
  }
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = new URL(`${options.tls ? "https" : "http"}://${host}:${address.port}`);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      // net.Server counts every socket it accepted, HTTP/2 ones included, and calls back when the
      // last has closed. It reports "not running" if it had stopped already, which is no matter.
      const grace = setTimeout(() => {
        for (const socket of sockets) {
          socket.destroy();
        }
      }, CLOSE_GRACE_MS);
      server.close(() => {
        clearTimeout(grace);
        resolve();
      });
      // Node's HTTP/1.1 server closes its idle keep-alive connections on close(); HTTP/2 clients
      // are told to start no new streams, and the session ends when its streams have.
      for (const session of sessions) {
        session.close();
      }
    });
    return closing;
  };
  return { url, close };
}

/**
 * Reads a new cleartext connection until its first bytes tell HTTP/2 (the preface) from anything
 * else, puts the bytes back, and calls `route`. A connection that says nothing in time, or ends
 * before it is clear, is destroyed.
 */
function readPreface(socket: Socket, route: (isHttp2: boolean) => void): void {
  let seen: Buffer = Buffer.alloc(0);
  const done = (): void => {
    socket.off("readable", onReadable);
    socket.off("end", onEnd);
    socket.off("timeout", onTimeout);
    socket.setTimeout(0);
  };
  const decide = (isHttp2: boolean): void => {
    done();
    socket.unshift(seen);
    route(isHttp2);
  };
  const onReadable = (): void => {
    for (let chunk: Buffer | null = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
      seen = seen.length === 0 ? chunk : Buffer.concat([seen, chunk]);
    }
    const length = Math.min(seen.length, HTTP2_PREFACE.length);
    if (!seen.subarray(0, length).equals(HTTP2_PREFACE.subarray(0, length))) {
      decide(false);
    } else if (seen.length >= HTTP2_PREFACE.length) {
      decide(true);
    }
  };
  const onEnd = (): void => {
    done();
    socket.destroy();
  };
  const onTimeout = onEnd;
  socket.on("readable", onReadable);
  socket.once("end", onEnd);
  socket.once("timeout", onTimeout);
  socket.setTimeout(FIRST_BYTES_TIMEOUT_MS);
}

/** Removes the one listener Node's own server put on `event`, and returns it bound to the server. */
function takeListener(server: Server, event: string): (socket: Socket) => void {
  const listeners = server.listeners(event) as Array<(socket: Socket) => void>;
  const [listener] = listeners;
  if (listeners.length !== 1 || listener === undefined) {
    throw new Error(`expected Node's HTTP server to have one "${event}" listener, found ${listeners.length}`);
  }
  server.off(event, listener);
  return (socket) => listener.call(server, socket);
}

function ignore(): void {}
