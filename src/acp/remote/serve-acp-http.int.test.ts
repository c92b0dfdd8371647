// serveAcpHttp() on a real port, reached with the SDK's own client streams over Streamable HTTP
// (HTTP/1.1 and HTTP/2) and WebSocket: a turn with a tool call and a permission, cancel, credentials refused, one person
// kept out of another's sessions, a connection cut mid-turn and the session loaded again, and a
// directory outside the allowed root.

import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { SignJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { type ClientOptions, WebSocket } from "ws";
import { z } from "zod";

import { http2Fetch } from "../../../test/support/http2-fetch.js";
import { TcpProxy } from "../../../test/support/tcp-proxy.js";
import { testCertificate, type TestCertificate } from "../../../test/support/test-certificate.js";
import { textClient } from "../../../test/support/text-client.js";
import { createAgent } from "../../agent/create-agent.js";
import { defineTool } from "../../agent/tool.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import type { AcpOptions } from "../server/acp-options.js";
import { anyOf } from "./auth/any-of.js";
import { bearerTokens } from "./auth/bearer-tokens.js";
import { jwtAuth } from "./auth/jwt-auth.js";
import { listenHttp } from "./listen-http.js";
import { type AcpHttpOptions, serveAcpHttp } from "./serve-acp-http.js";

/** Streamable HTTP over HTTP/1.1 (Node's fetch) or HTTP/2 without TLS (h2c), or WebSocket. */
type Transport = "http" | "h2c" | "ws";

const SECRET = "a shared secret of at least thirty-two bytes";
const root = realpathSync(mkdtempSync(join(tmpdir(), "weft-remote-")));

interface Client {
  connection: acp.ClientConnection;
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  initialize(): Promise<acp.InitializeResponse>;
  newSession(cwd?: string): Promise<string>;
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  updatesOf(sessionId: string): acp.SessionUpdate[];
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

/** A gate a tool waits at, opened by the test. */
function gate(): { wait: (signal: AbortSignal) => Promise<string>; open(): void; reached: Promise<void> } {
  let open!: () => void;
  let reach!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return {
    open,
    reached,
    wait: (signal) => {
      reach();
      return new Promise((resolve, reject) => {
        void opened.then(() => resolve("waited"));
        signal.addEventListener("abort", () => reject(new Error("cancelled")), { once: true });
      });
    },
  };
}

async function serve(model: ScriptedModel, tools: Parameters<typeof createAgent>[0]["tools"], options: AcpOptions = {}, tls?: TestCertificate, http: AcpHttpOptions = {}) {
  const graph = createAgent({ model, tools, approvals: ["write"] });
  const authenticate = anyOf(bearerTokens({ "token-ann": "ann", "token-bob": "bob" }), jwtAuth({ key: SECRET, issuer: "https://id.test", audience: "weft" }));
  const acpHttp = serveAcpHttp(graph, { authenticate, roots: [root], ...http }, options);
  const listener = await listenHttp(acpHttp, { port: 0, ...(tls ? { tls } : {}) });
  cleanups.push(async () => {
    await acpHttp.close();
    await listener.close();
  });
  return { url: new URL("/acp", listener.url), port: Number(listener.url.port) };
}

function endpoint(url: URL, transport: Transport): string {
  return transport === "ws" ? url.href.replace(/^http/, "ws") : url.href;
}

function connect(url: URL | string, transport: Transport, token: string): Client {
  const headers = { authorization: `Bearer ${token}` };
  let stream: acp.Stream;
  if (transport === "ws") {
    stream = createWebSocketStream(String(url), { WebSocket, headers });
  } else if (transport === "h2c") {
    // One HTTP/2 session per client, as a client of its own would have.
    const h2 = http2Fetch();
    cleanups.push(() => h2.close());
    stream = createHttpStream(String(url), { headers, fetch: h2.fetch });
  } else {
    stream = createHttpStream(String(url), { headers });
  }
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const connection = acp
    .client({ name: "remote-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    })
    .connect(stream);
  const client: Client = {
    connection,
    updates,
    permissions,
    initialize: () => connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} }),
    newSession: async (cwd = root) => (await connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId,
    prompt: (sessionId, text) => connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] }),
    updatesOf: (sessionId) => updates.filter((notification) => notification.sessionId === sessionId).map((notification) => notification.update),
    close: async () => {
      connection.close();
      await connection.closed.catch(() => undefined);
    },
  };
  cleanups.push(() => client.close());
  return client;
}

const texts = (updates: acp.SessionUpdate[], kind: "agent_message_chunk" | "user_message_chunk") =>
  updates.flatMap((update) => (update.sessionUpdate === kind && update.content.type === "text" ? [update.content.text] : []));

async function jwt(claims: { sub?: string; aud?: string; expiresIn?: string | number }): Promise<string> {
  let token = new SignJWT(claims.sub ? { sub: claims.sub } : {}).setProtectedHeader({ alg: "HS256" }).setIssuer("https://id.test").setAudience(claims.aud ?? "weft").setIssuedAt(Math.floor(Date.now() / 1000) - 120);
  token = token.setExpirationTime(claims.expiresIn ?? "5m");
  return token.sign(new TextEncoder().encode(SECRET));
}

describe.each<Transport>(["http", "h2c", "ws"])("serveAcpHttp over %s", (transport) => {
  it("runs a turn with a tool call that asks permission, then writes", async () => {
    const written: unknown[] = [];
    const write = defineTool({ name: "write", description: "Writes.", input: z.object({ text: z.string() }), execute: (input) => void written.push(input.text) });
    const { url } = await serve(new ScriptedModel([{ toolCalls: [{ toolName: "write", input: { text: "hello" } }] }, { text: ["it is ", "written"] }]), [write]);
    const client = connect(endpoint(url, transport), transport, "token-ann");
    const initialized = await client.initialize();
    expect(initialized.agentCapabilities?.loadSession).toBe(true);
    const sessionId = await client.newSession();
    const end = await client.prompt(sessionId, "write hello");
    expect(end.stopReason).toBe("end_turn");
    expect(client.permissions).toHaveLength(1);
    expect(client.permissions[0]?.toolCall.title).toBeTruthy();
    expect(written).toEqual(["hello"]);
    expect(texts(client.updatesOf(sessionId), "agent_message_chunk").join("")).toBe("it is written");
    expect(client.updatesOf(sessionId).filter((update) => update.sessionUpdate === "tool_call_update" && update.status === "completed")).toHaveLength(1);
  });

  it("cancels a turn", async () => {
    const waiting = gate();
    const wait = defineTool({ name: "wait", description: "Waits.", input: z.object({}), execute: (_input, context) => waiting.wait(context.signal) });
    const { url } = await serve(new ScriptedModel([{ toolCalls: [{ toolName: "wait", input: {} }] }, { text: "never" }]), [wait]);
    const client = connect(endpoint(url, transport), transport, "token-ann");
    await client.initialize();
    const sessionId = await client.newSession();
    const turn = client.prompt(sessionId, "wait");
    await waiting.reached;
    await client.connection.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe("cancelled");
  });

  it("keeps one person out of another's sessions: each is not found", async () => {
    const { url } = await serve(new ScriptedModel(() => ({ text: "hi" })), []);
    const ann = connect(endpoint(url, transport), transport, "token-ann");
    const bob = connect(endpoint(url, transport), transport, "token-bob");
    await ann.initialize();
    await bob.initialize();
    const sessionId = await ann.newSession();
    await ann.prompt(sessionId, "mine");
    const bobs = await bob.newSession();
    const listed = await bob.connection.agent.request(acp.methods.agent.session.list, {});
    expect(listed.sessions.map((session) => session.sessionId)).toEqual([bobs]);
    const annListed = await ann.connection.agent.request(acp.methods.agent.session.list, {});
    expect(annListed.sessions.map((session) => session.sessionId)).toEqual([sessionId]);
    const notFound = { code: acp.RequestError.resourceNotFound().code };
    await expect(bob.connection.agent.request(acp.methods.agent.session.load, { sessionId, cwd: root, mcpServers: [] })).rejects.toMatchObject(notFound);
    await expect(bob.connection.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: root })).rejects.toMatchObject(notFound);
    await expect(bob.prompt(sessionId, "yours?")).rejects.toMatchObject(notFound);
    // The SDK's client takes "not found" for a delete as done (a delete is idempotent): what shows
    // it was not found is that Ann's session is still there.
    await bob.connection.agent.request(acp.methods.agent.session.delete, { sessionId });
    const afterDelete = await ann.connection.agent.request(acp.methods.agent.session.list, {});
    expect(afterDelete.sessions.map((session) => session.sessionId)).toEqual([sessionId]);
    // Bob saw nothing of Ann's session, and it is still hers.
    expect(bob.updatesOf(sessionId)).toEqual([]);
    expect(await ann.prompt(sessionId, "still mine")).toMatchObject({ stopReason: "end_turn" });
  });

  it("refuses a directory outside the allowed root", async () => {
    const { url } = await serve(new ScriptedModel([]), []);
    const client = connect(endpoint(url, transport), transport, "token-ann");
    await client.initialize();
    await expect(client.newSession(tmpdir())).rejects.toMatchObject({ code: -32602, data: { code: "directory_not_allowed" } });
    await expect(client.newSession(join(root, "..", "elsewhere"))).rejects.toMatchObject({ data: { code: "directory_not_allowed" } });
    expect(await client.newSession(root)).toMatch(/^sess_/);
  });

  it("shows a second client of a session the turn the first one prompts", async () => {
    const { url } = await serve(new ScriptedModel([{ text: ["one ", "two"] }]), []);
    const first = connect(endpoint(url, transport), transport, "token-ann");
    const second = connect(endpoint(url, transport), transport, "token-ann");
    await first.initialize();
    await second.initialize();
    const sessionId = await first.newSession();
    await second.connection.agent.request(acp.methods.agent.session.load, { sessionId, cwd: root, mcpServers: [] });
    await first.prompt(sessionId, "count");
    await expect.poll(() => texts(second.updatesOf(sessionId), "agent_message_chunk").join("")).toBe("one two");
    expect(texts(second.updatesOf(sessionId), "user_message_chunk")).toEqual(["count"]);
    expect(texts(first.updatesOf(sessionId), "agent_message_chunk").join("")).toBe("one two");
  });

  it("goes on with a turn whose connection is cut, and a load gets every update of it once", async () => {
    const waiting = gate();
    const wait = defineTool({ name: "wait", description: "Waits.", input: z.object({}), execute: (_input, context) => waiting.wait(context.signal) });
    const { url, port } = await serve(new ScriptedModel([{ text: "before ", toolCalls: [{ toolName: "wait", input: {} }] }, { text: ["after ", "the cut"] }, { text: "now" }]), [wait]);
    const proxy = new TcpProxy("127.0.0.1", port);
    await proxy.up();
    cleanups.push(() => proxy.down());
    const through = new URL(url);
    through.port = String(proxy.port);
    const cut = connect(endpoint(through, transport), transport, "token-ann");
    await cut.initialize();
    const sessionId = await cut.newSession();
    void cut.prompt(sessionId, "wait for it").catch(() => undefined);
    await waiting.reached;
    await proxy.down();
    await cut.close();

    const again = connect(endpoint(url, transport), transport, "token-ann");
    await again.initialize();
    const loaded = again.connection.agent.request(acp.methods.agent.session.load, { sessionId, cwd: root, mcpServers: [] });
    // The load waits for the turn; once the tool goes on, the rest of the turn arrives, then the answer.
    await expect.poll(() => again.updatesOf(sessionId).some((update) => update.sessionUpdate === "tool_call")).toBe(true);
    waiting.open();
    await loaded;
    // Over HTTP the load's answer and the session's updates come on different streams, so the
    // last updates may follow the answer.
    await expect.poll(() => texts(again.updatesOf(sessionId), "agent_message_chunk").join("")).toBe("before after the cut");
    // The session ended its turn normally and takes the next prompt.
    expect(await again.prompt(sessionId, "and now?")).toMatchObject({ stopReason: "end_turn" });
    await expect.poll(() => texts(again.updatesOf(sessionId), "agent_message_chunk").join("")).toBe("before after the cutnow");
    const updates = again.updatesOf(sessionId);
    expect(texts(updates, "user_message_chunk")).toEqual(["wait for it"]);
    expect(updates.filter((update) => update.sessionUpdate === "tool_call")).toHaveLength(1);
    expect(updates.filter((update) => update.sessionUpdate === "tool_call_update" && update.status === "completed")).toHaveLength(1);
  });
});

describe("serveAcpHttp over TLS", () => {
  it("runs a turn over HTTP/2 and over WebSocket on one port", async () => {
    const certificate = testCertificate();
    const { url } = await serve(new ScriptedModel(() => ({ text: "secure" })), [], {}, certificate);
    expect(url.protocol).toBe("https:");
    const h2 = http2Fetch({ ca: certificate.cert });
    cleanups.push(() => h2.close());
    const headers = { authorization: "Bearer token-ann" };
    // ws.WebSocket trusting the test's certificate, as the SDK constructs it.
    const TrustingWebSocket = class extends WebSocket {
      constructor(address: string, protocols?: string | string[], options?: ClientOptions) {
        super(address, protocols ?? [], { ...options, ca: certificate.cert });
      }
    };
    for (const stream of [createHttpStream(url.href, { headers, fetch: h2.fetch }), createWebSocketStream(url.href.replace(/^https/, "wss"), { WebSocket: TrustingWebSocket, headers })]) {
      const { connection, replies } = textClient("tls-test", stream);
      cleanups.push(() => connection.close());
      await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd: root, mcpServers: [] });
      expect(await connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] })).toMatchObject({ stopReason: "end_turn" });
      await expect.poll(() => replies.join("")).toBe("secure");
    }
    expect(h2.sessionsOpened()).toBe(1);
  });
});

describe("serveAcpHttp's credentials", () => {
  const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });
  const post = (url: URL, authorization?: string) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(authorization ? { authorization } : {}) }, body: initialize });

  it("answers 401 without credentials, with a wrong token, and for an expired or wrong-audience JWT, before any JSON-RPC", async () => {
    const { url } = await serve(new ScriptedModel([]), []);
    for (const authorization of [undefined, "Bearer nope", "Basic dG9rZW4tYW5uOg==", `Bearer ${await jwt({ sub: "cy", expiresIn: Math.floor(Date.now() / 1000) - 60 })}`, `Bearer ${await jwt({ sub: "cy", aud: "someone-else" })}`]) {
      const response = await post(url, authorization);
      expect({ authorization, status: response.status }).toEqual({ authorization, status: 401 });
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(response.headers.get("acp-connection-id")).toBeNull();
    }
    expect((await post(url, "Bearer token-ann")).status).toBe(200);
    expect((await post(url, `Bearer ${await jwt({ sub: "cy" })}`)).status).toBe(200);
  });

  it("refuses a WebSocket upgrade without credentials with 401", async () => {
    const { url } = await serve(new ScriptedModel([]), []);
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(url.href.replace(/^http/, "ws"));
      socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      socket.on("open", () => reject(new Error("the upgrade was accepted")));
      socket.on("error", () => undefined);
    });
    expect(status).toBe(401);
  });

  it("closes a connection left without a request or a stream, and keeps one whose stream is open", async () => {
    const { url } = await serve(new ScriptedModel([]), [], {}, undefined, { idleConnectionMs: 200 });
    const open = async () => (await post(url, "Bearer token-ann")).headers.get("acp-connection-id") as string;
    const [left, kept] = [await open(), await open()];
    const stream = await fetch(url, { headers: { accept: "text/event-stream", authorization: "Bearer token-ann", "acp-connection-id": kept } });
    expect(stream.status).toBe(200);
    const reading = stream.body?.getReader();
    void (async () => {
      while (!(await reading?.read())?.done) {
        // Read the stream as a client does, so it stays open.
      }
    })().catch(() => undefined);
    const list = (id: string) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer token-ann", "acp-connection-id": id }, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/list", params: {} }) });
    // Four idle times without a word from either (a request would count as use).
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await list(left)).status).toBe(404);
    expect((await list(kept)).status).toBe(202);
    await reading?.cancel();
  });

  it("answers hostile requests with their HTTP errors and goes on serving", async () => {
    const { url } = await serve(new ScriptedModel([]), [], {}, undefined, { maxRequestBodyBytes: 4096 });
    const send = (body: string, headers: Record<string, string> = {}) => fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer token-ann", ...headers }, body });
    expect((await send("{not json")).status).toBe(400);
    // A batch: the RFD says 501; the SDK's server answers 400.
    expect((await send(`[${initialize}]`)).status).toBe(400);
    expect((await send(initialize, { "content-type": "text/plain" })).status).toBe(415);
    expect((await send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { padding: "x".repeat(10_000) } }))).status).toBe(413);
    expect((await fetch(new URL("/elsewhere", url), { headers: { authorization: "Bearer token-ann" } })).status).toBe(404);
    expect((await post(url, "Bearer token-ann")).status).toBe(200);
  });

  it("answers someone else's connection as unknown", async () => {
    const { url } = await serve(new ScriptedModel([]), []);
    const opened = await post(url, "Bearer token-ann");
    const connectionId = opened.headers.get("acp-connection-id") as string;
    expect(connectionId).toBeTruthy();
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/list", params: {} });
    const asBob = await fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer token-bob", "acp-connection-id": connectionId }, body: list });
    expect(asBob.status).toBe(404);
    const asAnn = await fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer token-ann", "acp-connection-id": connectionId }, body: list });
    expect(asAnn.status).toBe(202);
  });
});
