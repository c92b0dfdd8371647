// Start-up: time from spawning an agent to its answer to `initialize`, and to its answer to
// `session/new`, and the agent's resident memory after `session/new`. Each agent is spawned with
// raw JSON lines on stdin (no SDK client in the way), alternating between the agents measured, after
// a warm-up run of each.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

import { median } from "./stats.js";

export interface AgentCommand {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string | undefined>;
}

export interface StartupSample {
  initializeMs: number;
  newSessionMs: number;
  rssBytes: number;
}

export function startOnce(agent: AgentCommand): Promise<StartupSample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(agent.command, agent.args, { stdio: ["pipe", "pipe", "ignore"], env: { ...process.env, ...agent.env } });
    let output = "";
    let initializeMs: number | undefined;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${agent.name} did not answer within 20 s`));
    }, 20_000);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      if (initializeMs === undefined && /"id":0[,}]/.test(output)) {
        initializeMs = performance.now() - started;
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: process.cwd(), mcpServers: [] } })}\n`);
      }
      if (initializeMs !== undefined && /"id":1[,}]/.test(output)) {
        const newSessionMs = performance.now() - started;
        const rssBytes = residentBytes(child.pid as number);
        clearTimeout(timer);
        child.stdin.end();
        child.once("exit", () => resolve({ initializeMs: initializeMs as number, newSessionMs, rssBytes }));
        setTimeout(() => child.kill("SIGKILL"), 2_000).unref();
      }
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`);
  });
}

/** Resident memory of a process, from /proc. */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kilobytes * 1024;
}

export async function benchStartup(agents: AgentCommand[], runs: number): Promise<Map<string, StartupSample>> {
  for (const agent of agents) {
    await startOnce(agent);
  }
  const samples = new Map<string, StartupSample[]>(agents.map((agent) => [agent.name, []]));
  for (let run = 0; run < runs; run++) {
    for (const agent of agents) {
      samples.get(agent.name)?.push(await startOnce(agent));
    }
  }
  return new Map(
    [...samples].map(([name, list]) => [
      name,
      {
        initializeMs: median(list.map((sample) => sample.initializeMs)),
        newSessionMs: median(list.map((sample) => sample.newSessionMs)),
        rssBytes: median(list.map((sample) => sample.rssBytes)),
      },
    ]),
  );
}
