// A lean ACP client for benchmarks: spawns an agent and drives it with the official SDK client
// over its stdio, without the schema checks the tests do, so the numbers are the agent's.

import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";

import * as acp from "@agentclientprotocol/sdk";

export interface BenchAgent {
  child: ChildProcess;
  connection: acp.ClientConnection;
  /** Counts session/update notifications; `onUpdate` sees each one. */
  updates: number;
  onUpdate: ((notification: acp.SessionNotification) => void) | undefined;
  stop(): Promise<void>;
}

export function spawnAgent(command: string, args: string[], env: Record<string, string | undefined> = {}): BenchAgent {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, ...env } });
  const agent: BenchAgent = {
    child,
    connection: undefined as unknown as acp.ClientConnection,
    updates: 0,
    onUpdate: undefined,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin?.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
      agent.connection.close();
    },
  };
  agent.connection = acp
    .client({ name: "bench" })
    .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }))
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      agent.updates++;
      agent.onUpdate?.(params);
    })
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin as Writable), Readable.toWeb(child.stdout as Readable) as ReadableStream<Uint8Array>));
  return agent;
}
