// `weft serve` started from the built bin for a test, and a remote client of it: the SDK's HTTP
// client with a bearer token, which allows every permission it is asked (a principal approving
// its own commands) and keeps every update.

import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";

import { repoRoot } from "./agent-process.js";

const weft = join(repoRoot, "bin/weft.js");

export interface ServedWeft {
  child: ChildProcess;
  /** The endpoint, as its start-up line says. */
  url: string;
  /** What it wrote to stderr so far. */
  stderr(): string;
}

/** Registers clean-up work to run after the test (the caller runs it, last registered first). */
export type OnCleanup = (cleanup: () => Promise<void> | void) => void;

/** Starts `weft serve --listen 127.0.0.1:0 args…` with exactly `env`, and resolves once it says where it listens. */
export function startWeftServe(args: readonly string[], env: NodeJS.ProcessEnv, onCleanup: OnCleanup): Promise<ServedWeft> {
  const child = spawn(process.execPath, [weft, "serve", "--listen", "127.0.0.1:0", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  onCleanup(() => {
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
  updates: acp.SessionNotification[];
  /** The agent's text in a session so far. */
  text(sessionId: string): string;
  close(): void;
}

/** Connects to `url` with `token`, and sends `initialize` with no client capabilities. */
export async function connectRemote(url: string, token: string, onCleanup: OnCleanup): Promise<RemoteClient> {
  const updates: acp.SessionNotification[] = [];
  const connection = acp
    .client({ name: "serve-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }))
    .connect(createHttpStream(url, { headers: { authorization: `Bearer ${token}` } }));
  onCleanup(() => connection.close());
  await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  return {
    agent: connection.agent,
    updates,
    text: (sessionId) =>
      updates
        .filter((notification) => notification.sessionId === sessionId)
        .map(({ update }) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? update.content.text : ""))
        .join(""),
    close: () => connection.close(),
  };
}
