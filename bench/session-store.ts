// Sessions in each store driver: the bytes written and time taken per turn at turns 10, 100 and
// 1,000 of a session served by the weft coding agent (each turn a prompt, a read_file call, its
// result and an answer), and how long `weft acp` takes to answer session/load of sessions of 10,
// 100 and 1,000 such turns, from a fresh process each time.

import { writeFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";

import { connectInProcess } from "../test/support/in-process.js";
import { serveCodingAgent } from "../src/coding-agent/serve-coding-agent.js";
import type { AcpStreams } from "../src/acp/wire/streams.js";
import { openStore } from "../src/stores/open-store.js";
import { ScriptedModel } from "../src/testing/scripted-model.js";
import { spawnAgent } from "./agent-client.js";
import { CountingStore } from "./counting-store.js";
import { median } from "./stats.js";
import type { AgentCommand } from "./startup.js";

export interface SessionStoreResult {
  driver: string;
  /** Turn number → median bytes and ms per turn over the five turns up to it. */
  perTurn: Map<number, { bytes: number; ms: number }>;
  /** Session length in turns → median session/load time in ms. */
  load: Map<number, number>;
}

const answer = "I read the notes; they say what the word means and where it is used. ".repeat(3);

/** A model that reads notes.md, then answers: a turn with one tool call, as coding turns go. */
function scriptedModel(): ScriptedModel {
  return new ScriptedModel((call) =>
    call.prompt.at(-1)?.role === "tool"
      ? { text: [answer.slice(0, 80), answer.slice(80)] }
      : { toolCalls: [{ toolName: "read_file", input: { path: "notes.md" }, toolCallId: `call_${call.prompt.length}` }] },
  );
}

/** Fills sessions of the given lengths through the coding agent, measuring the longest as it grows. */
export async function fillSessions(spec: string, cwd: string, lengths: number[]) {
  writeFileSync(join(cwd, "notes.md"), "weft: the threads woven across the warp.\n");
  const store = new CountingStore(await openStore(spec));
  const agent = await connectInProcess((streams: AcpStreams) => serveCodingAgent(streams, { model: scriptedModel(), store }));
  const sessions = new Map<number, string>();
  const perTurnBytes: number[] = [];
  const perTurnMs: number[] = [];
  const sorted = [...lengths].sort((left, right) => left - right);
  for (const length of sorted.slice(0, -1)) {
    const id = await agent.newSession(cwd);
    for (let turn = 0; turn < length; turn++) {
      await agent.prompt(id, `What does word ${turn} mean?`);
    }
    sessions.set(length, id);
  }
  const longest = sorted.at(-1) as number;
  const id = await agent.newSession(cwd);
  for (let turn = 1; turn <= longest; turn++) {
    const bytes = store.bytes;
    const started = performance.now();
    const response = await agent.prompt(id, `What does word ${turn} mean?`);
    perTurnMs.push(performance.now() - started);
    perTurnBytes.push(store.bytes - bytes);
    if (response.stopReason !== "end_turn") {
      throw new Error(`turn ${turn} ended with ${response.stopReason}`);
    }
  }
  sessions.set(longest, id);
  agent.server.close();
  await store.close();
  const perTurn = new Map<number, { bytes: number; ms: number }>();
  for (const turn of lengths) {
    const window = (values: number[]) => median(values.slice(Math.max(0, turn - 5), turn));
    perTurn.set(turn, { bytes: window(perTurnBytes), ms: window(perTurnMs) });
  }
  return { sessions, perTurn };
}

/** Time for a fresh `weft acp` to answer session/load (after initialize), median of `runs`. */
async function loadTime(weft: AgentCommand, spec: string, cwd: string, sessionId: string, turns: number, runs: number): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const agent = spawnAgent(weft.command, weft.args, { ...weft.env, WEFT_SESSIONS: spec });
    try {
      const client = agent.connection.agent;
      await client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      const started = performance.now();
      await client.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
      const elapsed = performance.now() - started;
      while (agent.updates < turns * 3) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (run > 0) {
        times.push(elapsed);
      }
    } finally {
      await agent.stop();
    }
  }
  return median(times);
}

export async function benchSessionStore(weft: AgentCommand, driver: string, spec: string, cwd: string, turns: number[], runs: number): Promise<SessionStoreResult> {
  const { sessions, perTurn } = await fillSessions(spec, cwd, turns);
  const load = new Map<number, number>();
  for (const length of turns) {
    load.set(length, await loadTime(weft, spec, cwd, sessions.get(length) as string, length, runs));
  }
  return { driver, perTurn, load };
}

export function sessionStoreDrivers(temp: string): Array<{ driver: string; spec: string }> {
  const drivers = [{ driver: "sqlite", spec: join(temp, "bench.db") }];
  const stamp = Date.now().toString(36);
  if (process.env.WEFT_TEST_POSTGRES_URL) {
    const url = new URL(process.env.WEFT_TEST_POSTGRES_URL);
    url.searchParams.set("schema", `weft_bench_${stamp}`);
    drivers.push({ driver: "postgres", spec: url.toString() });
  }
  if (process.env.WEFT_TEST_REDIS_URL) {
    const url = new URL(process.env.WEFT_TEST_REDIS_URL);
    url.searchParams.set("prefix", `weft-bench-${stamp}`);
    drivers.push({ driver: "redis", spec: url.toString() });
  }
  return drivers;
}
