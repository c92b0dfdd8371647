// Replay speed: from a session/load request to its answer, in a fresh `weft acp`, for a session of
// 1,000 turns on SQLite (3,000 updates), against the bare SDK agent (bench/bare-agent.mjs) sending
// 3,000 updates from a fresh process. The agents run alternately in one loop, so the machine's
// load falls on both alike. Two baselines: 3,000 one-word chunks (what the issue measures against),
// and the very updates weft replayed, read from a file. And a floor: an agent with neither SDK nor
// store (bench/written-agent.mjs) that writes those updates in one write; its time is the client's.
//
//   node --import tsx bench/replay.ts                     15 alternating runs of each, after a warm-up
//   node --import tsx bench/replay.ts --runs 25 --turns 100
//   node --import tsx bench/replay.ts --cpu-prof          profiles of weft's runs, summarised (bench/cpu-profile.ts)

import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import * as acp from "@agentclientprotocol/sdk";

import { spawnAgent } from "./agent-client.js";
import { summariseProfile } from "./cpu-profile.js";
import { fillSessions } from "./session-store.js";
import { formatMs, median } from "./stats.js";
import type { AgentCommand } from "./startup.js";

/** Median and spread of one agent's times. */
export interface Timing {
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** The middle half of the runs: first and third quartiles. */
  q1Ms: number;
  q3Ms: number;
  runs: number;
}

export interface ReplayResult {
  turns: number;
  updates: number;
  weft: Timing;
  /** The bare agent sending as many one-word chunks. */
  bare: Timing;
  /** The bare agent sending the updates weft replayed. */
  bareSame: Timing;
  /** An agent writing the updates weft replayed in one write: the client's own time. */
  floor: Timing;
  /** Median weft / median bare, and the spread of the ratio of each alternating pair. */
  ratio: number;
  pairRatios: { minimum: number; q1: number; q3: number; maximum: number };
}

export interface ReplayOptions {
  turns: number;
  runs: number;
  /** Where weft's runs write CPU profiles, when they are profiled. */
  cpuProfileDir?: string | undefined;
  log?: ((message: string) => void) | undefined;
}

/** Fills a SQLite session of `turns` turns in `temp` and measures its replay against the bare agent. */
export async function benchReplay(weft: AgentCommand, bare: AgentCommand, temp: string, options: ReplayOptions): Promise<ReplayResult> {
  const bench = dirname(fileURLToPath(import.meta.url));
  const log = options.log ?? (() => undefined);
  const spec = join(temp, "replay.db");
  const cwd = join(temp, "replay-cwd");
  mkdirSync(cwd, { recursive: true });
  log(`filling a session of ${options.turns} turns`);
  const { sessions } = await fillSessions(spec, cwd, [options.turns]);
  const sessionId = sessions.get(options.turns) as string;
  const updates = options.turns * 3;
  const replayed: acp.SessionUpdate[] = [];
  // The warm-up of weft also records what it replays, for the bare agent to send the same: the
  // turns' updates and the session's own (its commands and title), which every later load must match.
  await loadOnce(weft, spec, cwd, sessionId, updates, replayed);
  const sameUpdates = replayed.length;
  const sameFile = join(temp, "replayed-updates.json");
  writeFileSync(sameFile, JSON.stringify(replayed));
  await promptOnce(bare, `stream ${updates}`, updates);
  await promptOnce(bare, `replay ${sameFile}`, sameUpdates);
  const weftTimes: number[] = [];
  const bareTimes: number[] = [];
  const sameTimes: number[] = [];
  const floorTimes: number[] = [];
  const written: AgentCommand = { name: "written lines", command: process.execPath, args: [join(bench, "written-agent.mjs"), sameFile] };
  await loadOnce(written, spec, cwd, sessionId, sameUpdates);
  const profiled: AgentCommand = options.cpuProfileDir ? { ...weft, args: ["--cpu-prof", "--cpu-prof-interval", "250", "--cpu-prof-dir", options.cpuProfileDir, ...weft.args] } : weft;
  for (let run = 0; run < options.runs; run++) {
    weftTimes.push(await loadOnce(profiled, spec, cwd, sessionId, sameUpdates));
    bareTimes.push(await promptOnce(bare, `stream ${updates}`, updates));
    sameTimes.push(await promptOnce(bare, `replay ${sameFile}`, sameUpdates));
    floorTimes.push(await loadOnce(written, spec, cwd, sessionId, sameUpdates));
    log(`run ${run + 1}/${options.runs}: weft ${formatMs(weftTimes.at(-1) ?? 0)}, bare ${formatMs(bareTimes.at(-1) ?? 0)}, bare (same updates) ${formatMs(sameTimes.at(-1) ?? 0)}, written lines ${formatMs(floorTimes.at(-1) ?? 0)}`);
  }
  const pairs = weftTimes.map((time, index) => time / (bareTimes[index] ?? time)).sort((left, right) => left - right);
  const weftTiming = timing(weftTimes);
  const bareTiming = timing(bareTimes);
  return {
    turns: options.turns,
    updates,
    weft: weftTiming,
    bare: bareTiming,
    bareSame: timing(sameTimes),
    floor: timing(floorTimes),
    ratio: weftTiming.medianMs / bareTiming.medianMs,
    pairRatios: { minimum: pairs[0] ?? 0, q1: quartile(pairs, 0.25), q3: quartile(pairs, 0.75), maximum: pairs.at(-1) ?? 0 },
  };
}

/** One fresh `weft acp`: initialize, then the time from session/load to its answer, with every update checked in (at least `expected` when recording them). */
async function loadOnce(weft: AgentCommand, spec: string, cwd: string, sessionId: string, expected: number, record?: acp.SessionUpdate[]): Promise<number> {
  const agent = spawnAgent(weft.command, weft.args, { ...weft.env, WEFT_SESSIONS: spec });
  try {
    if (record) {
      agent.onUpdate = (notification) => record.push(notification.update);
    }
    const client = agent.connection.agent;
    await client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const started = performance.now();
    await client.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const elapsed = performance.now() - started;
    await arrived(agent, expected, record === undefined);
    return elapsed;
  } finally {
    await agent.stop();
  }
}

/** One fresh bare agent: initialize and session/new, then the time from the prompt to its answer. */
async function promptOnce(bare: AgentCommand, text: string, expected: number): Promise<number> {
  const agent = spawnAgent(bare.command, bare.args, bare.env);
  try {
    const client = agent.connection.agent;
    await client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await client.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
    const started = performance.now();
    await client.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    const elapsed = performance.now() - started;
    await arrived(agent, expected);
    return elapsed;
  } finally {
    await agent.stop();
  }
}

/** Waits for the client's handlers to have seen `expected` updates (they run without being awaited); fails on more or on too few. */
async function arrived(agent: ReturnType<typeof spawnAgent>, expected: number, exact = true): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (agent.updates < expected && performance.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (exact ? agent.updates !== expected : agent.updates < expected) {
    throw new Error(`expected ${expected} updates, the client saw ${agent.updates}`);
  }
}

function timing(times: readonly number[]): Timing {
  const sorted = [...times].sort((left, right) => left - right);
  return { medianMs: median(sorted), minMs: sorted[0] ?? 0, maxMs: sorted.at(-1) ?? 0, q1Ms: quartile(sorted, 0.25), q3Ms: quartile(sorted, 0.75), runs: sorted.length };
}

/** The value a `fraction` of the way through sorted values, interpolated. */
function quartile(sorted: readonly number[], fraction: number): number {
  const position = (sorted.length - 1) * fraction;
  const below = Math.floor(position);
  const low = sorted[below] ?? 0;
  const high = sorted[Math.min(sorted.length - 1, below + 1)] ?? low;
  return low + (high - low) * (position - below);
}

/** "231 ms (191–262, middle half 220–240)": a median and its spread. */
export function formatTiming(value: Timing): string {
  return `${formatMs(value.medianMs)} (${value.minMs.toFixed(0)}–${value.maxMs.toFixed(0)}, middle half ${value.q1Ms.toFixed(0)}–${value.q3Ms.toFixed(0)})`;
}

/**
 * Builds the `weft` command as dist/bundle has it, but with names kept and source maps, so that a
 * profile says which function of which file took the time; returns the script to run.
 */
async function profileBundle(root: string): Promise<string> {
  const { build } = await import("esbuild");
  const outdir = join(root, "dist/profile-bundle");
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [join(root, "src/cli/main.ts")],
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: true,
    external: ["better-sqlite3", "pg", "ioredis", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/openai-compatible"],
    banner: { js: "import { createRequire as __weftCreateRequire } from 'node:module'; const require = __weftCreateRequire(import.meta.url);" },
    logLevel: "warning",
  });
  const entry = join(outdir, "weft.js");
  writeFileSync(entry, 'import { main } from "./main.js";\nprocess.exitCode = await main(process.argv.slice(2));\n');
  return entry;
}

async function main(): Promise<void> {
  const argument = (name: string, fallback: number) => {
    const index = process.argv.indexOf(name);
    return index >= 0 ? Number(process.argv[index + 1]) : fallback;
  };
  const profile = process.argv.includes("--cpu-prof");
  const turns = argument("--turns", 1000);
  const runs = argument("--runs", profile ? 5 : 15);
  const temp = mkdtempSync(join(tmpdir(), "weft-replay-"));
  const log = (message: string) => process.stderr.write(`replay: ${message}\n`);
  const root = resolve(fileURLToPath(import.meta.url), "../..");
  const weft: AgentCommand = { name: "weft acp", command: process.execPath, args: [join(root, "bin/weft.js"), "acp"], env: { XDG_STATE_HOME: temp, WEFT_LOG: "silent", WEFT_MODEL: undefined } };
  const bare: AgentCommand = { name: "bare SDK agent", command: process.execPath, args: [join(root, "bench/bare-agent.mjs")] };
  const profileDir = join(root, "bench/.results/replay-profiles");
  try {
    if (profile) {
      rmSync(profileDir, { recursive: true, force: true });
      mkdirSync(profileDir, { recursive: true });
      weft.args = [await profileBundle(root), "acp"];
    }
    const result = await benchReplay(weft, bare, temp, { turns, runs, cpuProfileDir: profile ? profileDir : undefined, log });
    const lines = [
      `session/load, ${turns.toLocaleString("en")} turns (${result.updates.toLocaleString("en")} updates), sqlite, request → answer in a fresh process; median of ${runs} alternating runs (min–max, middle half):`,
      `  weft acp                               ${formatTiming(result.weft)}`,
      `  bare SDK agent, one-word chunks        ${formatTiming(result.bare)}`,
      `  bare SDK agent, the same updates       ${formatTiming(result.bareSame)}`,
      `  floor: the same lines in one write     ${formatTiming(result.floor)}`,
      `  ratio weft / bare                      ${result.ratio.toFixed(2)}x (pairs ${result.pairRatios.minimum.toFixed(2)}–${result.pairRatios.maximum.toFixed(2)}, middle half ${result.pairRatios.q1.toFixed(2)}–${result.pairRatios.q3.toFixed(2)})`,
      `  ratio weft / bare with the same updates ${(result.weft.medianMs / result.bareSame.medianMs).toFixed(2)}x`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    if (profile) {
      const files = readdirSync(profileDir).filter((name) => name.endsWith(".cpuprofile"));
      process.stdout.write(`\nCPU profiles of weft's runs (profiling slows them): ${profileDir}\n`);
      process.stdout.write(summariseProfile(files.map((name) => join(profileDir, name))));
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
