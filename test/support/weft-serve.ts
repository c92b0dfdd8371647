// `weft serve` as a test runs it: a real child process on 127.0.0.1:0, and SDK clients that reach
// it over Streamable HTTP (HTTP/1.1 or h2c) or WebSocket and remember the connection id the server
// gave them, for tests that then try that id as someone else.

import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { type ClientOptions, WebSocket } from "ws";

import { repoRoot } from "./agent-process.js";
import type { Cleanups } from "./cleanups.js";
import { http2Fetch } from "./http2-fetch.js";

const weft = join(repoRoot, "bin/weft.js");

/** Streamable HTTP over HTTP/1.1 (Node's fetch) or HTTP/2 without TLS (h2c), or WebSocket. */
export type RemoteTransport = "http" | "h2c" | "ws";

export interface ServedWeft {
  child: ChildProcess;
  /** The endpoint, such as `http://127.0.0.1:41234/acp`. */
  url: string;
  /** What the process wrote to stderr so far. */
  stderr(): string;
}

export type { Cleanups };

/** The environment `weft serve` runs in: a private state and config home, no model keys from the test's own environment. */
export function serveEnvironment(home: string, extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    XDG_STATE_HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    WEFT_MODELS: undefined,
    WEFT_API_KEY: undefined,
    OPENAI_API_KEY: undefined,
    WEFT_LOG: "info",
    ...extra,
  };
}

/**
 * Starts `weft serve --listen 127.0.0.1:0 args…` and resolves once it says where it listens; it is
 * killed at cleanup. `env` goes over serveEnvironment(home).
 */
export function startWeftServe(options: { home: string; args: readonly string[]; env: Record<string, string | undefined>; cleanups: Cleanups }): Promise<ServedWeft> {
  const args = [weft, "serve", "--listen", "127.0.0.1:0", ...options.args];
  const child = spawn(process.execPath, args, { env: serveEnvironment(options.home, options.env), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  options.cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
    }
  });
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (\S+)/.exec(stderr);
      if (match?.[1]) {
        resolve({ child, url: match[1], stderr: () => stderr });
      }
    });
    child.once("exit", (code) => reject(new Error(`weft serve exited ${code}: ${stderr}`)));
  });
}

export interface RemoteClient {
  agent: acp.ClientContext;
  connection: acp.ClientConnection;
  updates: acp.SessionNotification[];
  /** The permission requests the agent sent, in order. */
  permissions: acp.RequestPermissionRequest[];
  /** The Acp-Connection-Id the server gave this client (set once `initialize` has been answered). */
  connectionId(): string;
  /** The text of the agent's message chunks in a session. */
  text(sessionId: string): string;
  close(): Promise<void>;
}

export interface RemoteClientOptions {
  /** How to answer a permission request; default: allow once. */
  permission?: (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
}

/** An SDK client of `url` over `transport`, as `token`, initialized. */
export async function connectRemote(url: string, transport: RemoteTransport, token: string, cleanups: Cleanups, options: RemoteClientOptions = {}): Promise<RemoteClient> {
  const headers = { authorization: `Bearer ${token}` };
  let connectionId: string | undefined;
  let stream: acp.Stream;
  if (transport === "ws") {
    // ws's WebSocket, noting the id the 101 answer carries.
    const Noting = class extends WebSocket {
      constructor(address: string, protocols?: string | string[], socketOptions?: ClientOptions) {
        super(address, protocols ?? [], socketOptions);
        this.once("upgrade", (response) => {
          connectionId = String(response.headers["acp-connection-id"] ?? "");
        });
      }
    };
    stream = createWebSocketStream(url.replace(/^http/, "ws"), { WebSocket: Noting, headers });
  } else {
    const base = transport === "h2c" ? http2Fetch() : undefined;
    if (base) {
      cleanups.push(() => base.close());
    }
    const noting: typeof fetch = async (input, init) => {
      const response = await (base?.fetch ?? fetch)(input, init);
      connectionId ??= response.headers.get("acp-connection-id") ?? undefined;
      return response;
    };
    stream = createHttpStream(url, { headers, fetch: noting });
  }
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const connection = acp
    .client({ name: "weft-serve-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      return options.permission ? await options.permission(params) : { outcome: { outcome: "selected", optionId: "allow_once" } };
    })
    .connect(stream);
  const close = async () => {
    connection.close();
    await connection.closed.catch(() => undefined);
  };
  cleanups.push(close);
  await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  return {
    agent: connection.agent,
    connection,
    updates,
    permissions,
    connectionId: () => {
      if (!connectionId) {
        throw new Error("the server gave this client no connection id");
      }
      return connectionId;
    },
    text: (sessionId) =>
      updates
        .filter((notification) => notification.sessionId === sessionId)
        .map(({ update }) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? update.content.text : ""))
        .join(""),
    close,
  };
}
