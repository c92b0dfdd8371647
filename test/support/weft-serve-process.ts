// `weft serve` as a child process for tests, and the SDK's HTTP client signed in to it: a server
// that says where it listens, and a client that keeps the session updates it is sent and answers
// every permission request with "allow once".

import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";

import { repoRoot } from "./agent-process.js";

const weft = join(repoRoot, "bin/weft.js");

export interface ServedWeft {
  child: ChildProcess;
  /** The endpoint, such as `http://127.0.0.1:40123/acp`. */
  url: string;
  stderr(): string;
  /** Kills the process if it still runs. */
  stop(): void;
}

/**
 * Starts `weft serve --listen 127.0.0.1:0` with `args` and resolves once it says where it listens.
 * `env` is added to this process's, with the model, key and log variables of the caller's shell
 * cleared first. `home` holds its state and config.
 */
export function serveWeft(home: string, args: readonly string[], env: Record<string, string | undefined>): Promise<ServedWeft> {
  const child = spawn(process.execPath, [weft, "serve", "--listen", "127.0.0.1:0", ...args], {
    env: { ...process.env, XDG_STATE_HOME: home, XDG_CONFIG_HOME: join(home, "config"), WEFT_MODELS: undefined, WEFT_API_KEY: undefined, OPENAI_API_KEY: undefined, WEFT_LOG: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
    }
  };
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (\S+)/.exec(stderr);
      if (match?.[1]) {
        resolve({ child, url: match[1], stderr: () => stderr, stop });
      }
    });
    child.once("exit", (code) => reject(new Error(`weft serve exited ${code}: ${stderr}`)));
  });
}

export interface ServedClient {
  agent: acp.ClientContext;
  /** Every session update received, in order. */
  updates: acp.SessionNotification[];
  close(): void;
}

/** Connects to `url` with `token`, initializes, and answers every permission request "allow once". */
export async function connectServed(url: string, token: string): Promise<ServedClient> {
  const updates: acp.SessionNotification[] = [];
  const connection = acp
    .client({ name: "serve-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }))
    .connect(createHttpStream(url, { headers: { authorization: `Bearer ${token}` } }));
  await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  return { agent: connection.agent, updates, close: () => connection.close() };
}
