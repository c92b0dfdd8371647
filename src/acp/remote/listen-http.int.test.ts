// The listener under real ACP traffic: a tiny agent built with the SDK's app API, behind the SDK's
// AcpServer, reached by the SDK's own client streams over every protocol the port speaks. Each
// case also checks what the server saw negotiated, so none can pass by falling back to HTTP/1.1.

import { connect as connectTcp, type Socket } from "node:net";
import * as http2 from "node:http2";
import type { TLSSocket } from "node:tls";

import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { createWebSocketStream, type WebSocketConstructor } from "@agentclientprotocol/sdk/experimental/ws-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer, type ClientOptions } from "ws";

import { http2Fetch } from "../../../test/support/http2-fetch.js";
import { httpsFetch } from "../../../test/support/https-fetch.js";
import { testCertificate, type TestCertificate } from "../../../test/support/test-certificate.js";
import { textClient } from "../../../test/support/text-client.js";
import { acpRequestListener } from "./acp-request-listener.js";
import { listenHttp, type HttpHandlers, type HttpListener, type HttpRequest } from "./listen-http.js";

const REPLY = "hello over the wire";

/** The smallest agent that does a turn: one message chunk, then end_turn. */
function tinyAgent(): acp.AgentApp {
  let sessions = 0;
  return acp
    .agent({ name: "tiny" })
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `session-${(sessions += 1)}` }))
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: REPLY } },
      });
      return { stopReason: "end_turn" };
    });
}

/** What the server saw of one request: the protocol it came over, and whether it is still open. */
interface Seen {
  httpVersion: string;
  alpn: string | false | null | undefined;
  encrypted: boolean;
  upgrade: boolean;
  method: string | undefined;
  open: boolean;
  /** Resolves when the response (or the upgraded socket) has closed. */
  closed: Promise<void>;
}

interface Served {
  listener: HttpListener;
  acpServer: AcpServer;
  seen: Seen[];
  /** Resolves at the next request the server sees. */
  nextRequest(): Promise<Seen>;
  close(): Promise<void>;
}

function describeRequest(request: HttpRequest, upgrade: boolean): Seen {
  const socket = request.socket as Socket & Partial<TLSSocket>;
  return { httpVersion: request.httpVersion, alpn: socket.alpnProtocol, encrypted: socket.encrypted === true, upgrade, method: request.method, open: true, closed: Promise.resolve() };
}

const served: Served[] = [];

/** The tiny agent behind AcpServer, on a listener; `request` replaces the ACP request handler. */
async function serve(options: { tls?: TestCertificate; request?: (server: AcpServer) => HttpHandlers["request"] } = {}): Promise<Served> {
  const acpServer = new AcpServer({ agent: tinyAgent() });
  const webSocketServer = new WebSocketServer({ noServer: true });
  const handleRequest = (options.request ?? acpRequestListener)(acpServer);
  const handleUpgrade = createNodeWebSocketUpgradeHandler(acpServer, webSocketServer);
  const seen: Seen[] = [];
  const waiting: Array<(seen: Seen) => void> = [];
  const record = (entry: Seen): void => {
    seen.push(entry);
    for (const resolve of waiting.splice(0)) {
      resolve(entry);
    }
  };
  const listener = await listenHttp(
    {
      request: (request, response) => {
        const entry = describeRequest(request, false);
        record(entry);
        entry.closed = new Promise((resolve) => response.once("close", resolve)).then(() => void (entry.open = false));
        handleRequest(request, response);
      },
      upgrade: (request, socket, head) => {
        const entry = describeRequest(request, true);
        record(entry);
        entry.closed = new Promise((resolve) => socket.once("close", resolve)).then(() => void (entry.open = false));
        handleUpgrade(request, socket, head);
      },
    },
    { tls: options.tls },
  );
  const result: Served = {
    listener,
    acpServer,
    seen,
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    close: async () => {
      await acpServer.close();
      await listener.close();
      webSocketServer.close();
    },
  };
  served.push(result);
  return result;
}

afterEach(async () => {
  await Promise.all(served.splice(0).map((entry) => entry.close()));
});

interface Turn {
  replies: string[];
  stopReason: string;
}

/** initialize, session/new and one prompt through the SDK's client app; then closes the stream. */
async function fullTurn(stream: acp.Stream): Promise<Turn> {
  const { connection, replies } = textClient("test-editor", stream);
  try {
    const initialized = await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    expect(initialized.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] });
    const { stopReason } = await connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] });
    return { replies, stopReason };
  } finally {
    connection.close();
    await connection.closed;
  }
}

/** `ws.WebSocket`, trusting the test certificate, in the constructor shape the SDK calls. */
function trustingWebSocket(ca: string): WebSocketConstructor {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[], options?: ClientOptions) {
      super(url, protocols ?? [], { ...options, ca });
    }
  };
}

let certificate: TestCertificate;
beforeAll(() => {
  certificate = testCertificate();
});

describe("listenHttp carries a full ACP turn", () => {
  const closers: Array<() => void> = [];
  afterAll(() => {
    for (const close of closers) {
      close();
    }
  });

  it("over HTTP/1.1 with Node's fetch", async () => {
    const server = await serve();
    const turn = await fullTurn(createHttpStream(new URL("/acp", server.listener.url).href));
    expect(turn).toEqual({ replies: [REPLY], stopReason: "end_turn" });
    expect(server.seen.length).toBeGreaterThanOrEqual(4);
    expect(new Set(server.seen.map((seen) => `${seen.httpVersion} ${seen.encrypted}`))).toEqual(new Set(["1.1 false"]));
  });

  it("over h2c with prior knowledge, every request on one HTTP/2 session", async () => {
    const server = await serve();
    const client = http2Fetch();
    closers.push(client.close);
    const turn = await fullTurn(createHttpStream(new URL("/acp", server.listener.url).href, { fetch: client.fetch }));
    expect(turn).toEqual({ replies: [REPLY], stopReason: "end_turn" });
    expect(server.seen.length).toBeGreaterThanOrEqual(4);
    expect(new Set(server.seen.map((seen) => `${seen.httpVersion} ${seen.encrypted}`))).toEqual(new Set(["2.0 false"]));
    expect(client.sessionsOpened()).toBe(1);
  });

  it("over TLS with ALPN h2", async () => {
    const server = await serve({ tls: certificate });
    const client = http2Fetch({ ca: certificate.cert });
    closers.push(client.close);
    expect(server.listener.url.protocol).toBe("https:");
    const turn = await fullTurn(createHttpStream(new URL("/acp", server.listener.url).href, { fetch: client.fetch }));
    expect(turn).toEqual({ replies: [REPLY], stopReason: "end_turn" });
    expect(new Set(server.seen.map((seen) => `${seen.httpVersion} ${seen.alpn}`))).toEqual(new Set(["2.0 h2"]));
    expect(client.sessionsOpened()).toBe(1);
  });

  it("over TLS with ALPN http/1.1 on the same kind of port", async () => {
    const server = await serve({ tls: certificate });
    const client = httpsFetch({ ca: certificate.cert });
    closers.push(client.close);
    const turn = await fullTurn(createHttpStream(new URL("/acp", server.listener.url).href, { fetch: client.fetch }));
    expect(turn).toEqual({ replies: [REPLY], stopReason: "end_turn" });
    expect(new Set(server.seen.map((seen) => `${seen.httpVersion} ${seen.alpn}`))).toEqual(new Set(["1.1 http/1.1"]));
  });

  it("over WebSocket in cleartext", async () => {
    const server = await serve();
    const url = new URL("/acp", server.listener.url);
    url.protocol = "ws:";
    const turn = await fullTurn(createWebSocketStream(url.href, { WebSocket }));
    expect(turn).toEqual({ replies: [REPLY], stopReason: "end_turn" });
    expect(server.seen.map((seen) => `${seen.upgrade} ${seen.httpVersion} ${seen.encrypted}`)).toEqual(["true 1.1 false"]);
  });

  it("over WebSocket on TLS", async () => {
    const server = await serve({ tls: certificate });
    const url = new URL("/acp", server.listener.url);
    url.protocol = "wss:";
    const turn = await fullTurn(createWebSocketStream(url.href, { WebSocket: trustingWebSocket(certificate.cert) }));
    expect(turn).toEqual({ replies: [REPLY], stopReason: "end_turn" });
    // The ws client offers no ALPN, so the server takes it as HTTP/1.1.
    expect(server.seen.map((seen) => `${seen.upgrade} ${seen.httpVersion} ${seen.encrypted}`)).toEqual(["true 1.1 true"]);
  });
});

describe("the HTTP/2 adapter", () => {
  it("is needed: the SDK's own Node handler answers every HTTP/2 request 500", async () => {
    const server = await serve({ request: (acpServer) => createNodeHttpHandler(acpServer) as unknown as HttpHandlers["request"] });
    const client = http2Fetch();
    try {
      const response = await client.fetch(new URL("/acp", server.listener.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: acp.PROTOCOL_VERSION } }),
      });
      expect(response.status).toBe(500);
      expect(await response.text()).toMatch(/header name/i);
    } finally {
      client.close();
    }
  });
});

describe("listenHttp closes and survives bad clients", () => {
  it("close() resolves while SSE streams and a WebSocket are open, and ends them", async () => {
    const server = await serve();
    const h2 = http2Fetch();
    const clients = [
      acp.client({ name: "h1" }).connect(createHttpStream(new URL("/acp", server.listener.url).href)),
      acp.client({ name: "h2c" }).connect(createHttpStream(new URL("/acp", server.listener.url).href, { fetch: h2.fetch })),
      acp.client({ name: "ws" }).connect(createWebSocketStream(new URL("/acp", server.listener.url).href.replace(/^http/, "ws"), { WebSocket })),
    ];
    try {
      for (const client of clients) {
        await client.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
        await client.agent.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] });
      }
      const openStreams = server.seen.filter((seen) => seen.open && (seen.method === "GET" || seen.upgrade));
      // The connection stream and the session stream of each HTTP client, and the WebSocket.
      expect(openStreams.map((seen) => `${seen.httpVersion} ${seen.upgrade}`).sort()).toEqual(["1.1 false", "1.1 false", "1.1 true", "2.0 false", "2.0 false"]);

      // The listener alone, before the ACP server: nothing but the listener ends these streams.
      await server.listener.close();
      await Promise.all(openStreams.map((seen) => seen.closed));
      await Promise.all(clients.map((client) => client.closed));
    } finally {
      h2.close();
    }
  });

  it("a garbage first packet, a half preface or garbage after the preface leaves the server serving", async () => {
    const server = await serve();
    const { port } = server.listener.url;
    const garbage = Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x00, 0x0d, 0x0a, 0x0d, 0x0a, 0x47, 0x45]);
    expect(await sendAndWaitForClose(connectTcp(Number(port), "127.0.0.1"), garbage)).toMatch(/^(HTTP\/1\.1 400|)/);
    await sendAndWaitForClose(connectTcp(Number(port), "127.0.0.1"), Buffer.from("PRI * HTTP/2"), { end: true });
    await sendAndWaitForClose(connectTcp(Number(port), "127.0.0.1"), Buffer.concat([Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), garbage]));

    const turn = await fullTurn(createHttpStream(new URL("/acp", server.listener.url).href));
    expect(turn).toEqual({ replies: [REPLY], stopReason: "end_turn" });
  });

  it("a TLS port given plain text or a broken handshake leaves the server serving", async () => {
    const server = await serve({ tls: certificate });
    const port = Number(server.listener.url.port);
    await sendAndWaitForClose(connectTcp(port, "127.0.0.1"), Buffer.from("GET /acp HTTP/1.1\r\nHost: x\r\n\r\n"));
    await sendAndWaitForClose(connectTcp(port, "127.0.0.1"), Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 1, 2, 3, 4, 5]));
    const client = http2Fetch({ ca: certificate.cert });
    try {
      const turn = await fullTurn(createHttpStream(new URL("/acp", server.listener.url).href, { fetch: client.fetch }));
      expect(turn).toEqual({ replies: [REPLY], stopReason: "end_turn" });
    } finally {
      client.close();
    }
  });

  it("clients that vanish mid-request, over HTTP/1.1 and HTTP/2, leave the server serving", async () => {
    const server = await serve();
    const port = Number(server.listener.url.port);

    // HTTP/1.1: headers promise a body that never comes.
    const socket = connectTcp(port, "127.0.0.1");
    const arrived = server.nextRequest();
    socket.write("POST /acp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":");
    expect((await arrived).httpVersion).toBe("1.1");
    socket.destroy();

    // HTTP/2: a stream with half its body, then the whole session gone.
    const session = http2.connect(server.listener.url);
    session.on("error", () => {});
    const streamArrived = server.nextRequest();
    const stream = session.request({ ":method": "POST", ":path": "/acp", "content-type": "application/json", "content-length": "1000" });
    stream.on("error", () => {});
    stream.write("{\"jsonrpc\":");
    expect((await streamArrived).httpVersion).toBe("2.0");
    session.destroy();

    // HTTP/2: a stream reset mid-body, on a session that stays.
    const resetArrived = server.nextRequest();
    const session2 = http2.connect(server.listener.url);
    session2.on("error", () => {});
    const stream2 = session2.request({ ":method": "POST", ":path": "/acp", "content-type": "application/json", "content-length": "1000" });
    stream2.on("error", () => {});
    stream2.write("{\"jsonrpc\":");
    await resetArrived;
    stream2.close(http2.constants.NGHTTP2_CANCEL);
    session2.destroy();

    const client = http2Fetch();
    try {
      const turn = await fullTurn(createHttpStream(new URL("/acp", server.listener.url).href, { fetch: client.fetch }));
      expect(turn).toEqual({ replies: [REPLY], stopReason: "end_turn" });
    } finally {
      client.close();
    }
  });
});

/** Writes `bytes` (then ends, if told), and resolves with what came back once the server closes. */
function sendAndWaitForClose(socket: Socket, bytes: Buffer, options: { end?: boolean } = {}): Promise<string> {
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("error", () => {});
    socket.once("close", () => resolve(Buffer.concat(received).toString("latin1")));
    socket.write(bytes);
    if (options.end === true) {
      socket.end();
    }
  });
}

