// Storage cost of a session, per driver: bytes written and time per turn at turns 10, 100 and
// 1,000 of one session (each turn a prompt, a tool call, its result and an answer, all through
// serveAcp and createAgent on the same store), and how long session/load of 10, 100 and 1,000-turn
// sessions takes on a cold agent. Run: node --import tsx bench/session-store.ts [--turns N]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { z } from "zod";

import { serveInProcess } from "../test/support/in-process.js";
import { createAgent } from "../src/agent/create-agent.js";
import { defineTool } from "../src/agent/tool.js";
import { storeAcpSessions } from "../src/protocols/acp/store-sessions.js";
import { openStore } from "../src/stores/open-store.js";
import { ScriptedModel } from "../src/testing/scripted-model.js";
import type { Store } from "../src/types/store.js";
import { CountingStore } from "./counting-store.js";
import { formatBytes, formatMs, median } from "./stats.js";

export interface SessionStoreResult {
  driver: string;
  /** Turn number → median bytes and ms per turn around it. */
  perTurn: Map<number, { bytes: number; ms: number }>;
  /** Session length in turns → median session/load time in ms. */
  load: Map<number, number>;
}

const lookup = defineTool({ name: "lookup", description: "Looks a word up.", input: z.object({ word: z.string() }), execute: ({ word }) => `${word}: a word of ${word.length} letters.` });
const answer = "Here is what I found about that word. ".repeat(6);

function scriptedModel(): ScriptedModel {
  return new ScriptedModel((call) => (call.prompt.at(-1)?.role === "tool" ? { text: [answer.slice(0, 100), answer.slice(100)] } : { toolCalls: [{ toolName: "lookup", input: { word: "weft" }, toolCallId: `call_${call.prompt.length}` }] }));
}

async function serve(store: Store) {
  return serveInProcess(createAgent({ model: scriptedModel(), tools: [lookup], store }), { sessions: storeAcpSessions(store) });
}

export async function benchSessionStore(driver: string, spec: string, turns: number[]): Promise<SessionStoreResult> {
  const base = await openStore(spec);
  const store = new CountingStore(base);
  const agent = await serve(store);
  const maxTurns = Math.max(...turns);
  const perTurnBytes: number[] = [];
  const perTurnMs: number[] = [];
  const sessionsAt = new Map<number, string>();
  const sessionId = await agent.newSession("/tmp");
  const lengths = [...turns].sort((left, right) => left - right);
  // One long session measured along the way; shorter sessions for the load timings are separate.
  for (const length of lengths.slice(0, -1)) {
    const short = await agent.newSession("/tmp");
    for (let turn = 0; turn < length; turn++) {
      await agent.prompt(short, `What does word ${turn} mean?`);
    }
    sessionsAt.set(length, short);
  }
  for (let turn = 1; turn <= maxTurns; turn++) {
    const bytes = store.bytes;
    const started = performance.now();
    const response = await agent.prompt(sessionId, `What does word ${turn} mean?`);
    perTurnMs.push(performance.now() - started);
    perTurnBytes.push(store.bytes - bytes);
    if (response.stopReason !== "end_turn") {
      throw new Error(`turn ${turn} ended with ${response.stopReason}`);
    }
  }
  sessionsAt.set(maxTurns, sessionId);
  agent.server.close();
  const perTurn = new Map<number, { bytes: number; ms: number }>();
  for (const turn of turns) {
    const window = (values: number[]) => median(values.slice(Math.max(0, turn - 5), turn));
    perTurn.set(turn, { bytes: window(perTurnBytes), ms: window(perTurnMs) });
  }
  const load = new Map<number, number>();
  for (const [length, id] of sessionsAt) {
    const times: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      // A cold agent each time: nothing of the session is cached in memory.
      const cold = await serve(store);
      const started = performance.now();
      await cold.client.request(acp.methods.agent.session.load, { sessionId: id, cwd: "/tmp", mcpServers: [] });
      times.push(performance.now() - started);
      // The client runs notification handlers without waiting for them; let the last ones finish.
      for (let wait = 0; wait < 100 && cold.updates.length < length * 3; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const replayed = cold.updates.length;
      if (replayed < length * 3) {
        const written = cold.wire.fromAgent.filter((message) => message.method === "session/update").length;
        throw new Error(`load of ${length} turns replayed only ${replayed} updates (${written} written; ${JSON.stringify(cold.wire.problems.slice(0, 3))})`);
      }
      cold.server.close();
    }
    load.set(length, median(times));
  }
  await store.close();
  return { driver, perTurn, load };
}

export function sessionStoreDrivers(temp: string): Array<{ driver: string; spec: string }> {
  const drivers = [
    { driver: "memory", spec: "memory" },
    { driver: "sqlite", spec: join(temp, "bench.db") },
  ];
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

export function sessionStoreTable(results: SessionStoreResult[], turns: number[]): string {
  const lines = ["| driver | " + turns.map((turn) => `bytes/turn @${turn}`).join(" | ") + " | " + turns.map((turn) => `ms/turn @${turn}`).join(" | ") + " | " + turns.map((turn) => `load ${turn} turns`).join(" | ") + " |"];
  lines.push(`|${"---|".repeat(1 + turns.length * 3)}`);
  for (const result of results) {
    const cells = [
      ...turns.map((turn) => formatBytes(result.perTurn.get(turn)?.bytes ?? 0)),
      ...turns.map((turn) => formatMs(result.perTurn.get(turn)?.ms ?? 0)),
      ...turns.map((turn) => formatMs(result.load.get(turn) ?? 0)),
    ];
    lines.push(`| ${result.driver} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const turnsFlag = process.argv.indexOf("--turns");
  const maxTurns = turnsFlag > 0 ? Number(process.argv[turnsFlag + 1]) : 1000;
  const turns = [10, 100, 1000].filter((turn) => turn <= maxTurns);
  const temp = mkdtempSync(join(tmpdir(), "weft-bench-"));
  try {
    const results: SessionStoreResult[] = [];
    for (const { driver, spec } of sessionStoreDrivers(temp)) {
      process.stderr.write(`session store: ${driver}…\n`);
      results.push(await benchSessionStore(driver, spec, turns));
    }
    process.stdout.write(`${sessionStoreTable(results, turns)}\n`);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
