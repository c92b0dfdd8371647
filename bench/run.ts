// npm run bench: every benchmark, weft side by side with a bare agent written on the ACP SDK alone
// (bench/bare-agent.mjs), measured in the same run, then remote ACP against stdio (bench/remote.ts).
// Prints Markdown tables. Never part of npm test.
//
//   npm run bench              everything (a few minutes)
//   npm run bench -- --quick   fewer runs and shorter sessions, to try things out

import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";

import { cleanUpStores } from "../test/support/servers.js";
import { tokenLatency } from "./latency.js";
import { bytesPerSession } from "./memory.js";
import { benchRemote, remoteOptions, remoteRows } from "./remote.js";
import { benchReplay, formatTiming } from "./replay.js";
import { benchSessionStore, sessionStoreDrivers, type SessionStoreResult } from "./session-store.js";
import { formatBytes, formatMs } from "./stats.js";
import { benchStartup, type AgentCommand } from "./startup.js";
import { chunksPerSecond } from "./throughput.js";

const quick = process.argv.includes("--quick");
const runs = quick ? 3 : 12;
const turns = quick ? [10, 100] : [10, 100, 1000];
const temp = mkdtempSync(join(tmpdir(), "weft-bench-"));
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

const weftEnv = { XDG_STATE_HOME: temp, WEFT_LOG: "silent", WEFT_MODEL: undefined };
const weft: AgentCommand = { name: "weft acp", command: process.execPath, args: ["bin/weft.js", "acp"], env: weftEnv };
const bare: AgentCommand = { name: "bare SDK agent", command: process.execPath, args: ["bench/bare-agent.mjs"] };
const streamer: AgentCommand = { name: "weft serveAcp graph", command: process.execPath, args: ["bench/stream-agent.mjs"] };

const rows: string[] = [];
const row = (measure: string, weftValue: string, bareValue: string, ratio: string, target: string) => rows.push(`| ${measure} | ${weftValue} | ${bareValue} | ${ratio} | ${target} |`);
const ratio = (value: number, baseline: number) => `${(value / baseline).toFixed(2)}x`;

try {
  log(`start-up, ${runs} runs each after a warm-up`);
  const startup = await benchStartup([bare, weft], runs);
  const weftStart = startup.get(weft.name);
  const bareStart = startup.get(bare.name);
  if (weftStart && bareStart) {
    row("spawn → initialize answered (median)", formatMs(weftStart.initializeMs), formatMs(bareStart.initializeMs), ratio(weftStart.initializeMs, bareStart.initializeMs), "≤ 1.0x");
    row("spawn → session/new answered (median)", formatMs(weftStart.newSessionMs), formatMs(bareStart.newSessionMs), ratio(weftStart.newSessionMs, bareStart.newSessionMs), "≤ 1.2x");
    row("RSS after session/new (median)", formatBytes(weftStart.rssBytes), formatBytes(bareStart.rssBytes), ratio(weftStart.rssBytes, bareStart.rssBytes), "≤ 1.3x");
  }

  log("streaming throughput");
  const chunks = quick ? 20_000 : 100_000;
  const bareRate = await chunksPerSecond(bare, chunks, runs > 3 ? 5 : 2);
  const weftRate = await chunksPerSecond(streamer, chunks, runs > 3 ? 5 : 2);
  row(`agent_message_chunks per second (${chunks.toLocaleString("en")} deltas, median)`, Math.round(weftRate).toLocaleString("en"), Math.round(bareRate).toLocaleString("en"), ratio(weftRate, bareRate), "≥ 0.9x");

  log("token latency");
  const paced = await tokenLatency(weft, 200, 20);
  const flat = await tokenLatency(weft, 2000, 0);
  row("model token → client chunk, 50 tokens/s (median / p99)", `${formatMs(paced.medianMs)} / ${formatMs(paced.p99Ms)}`, "n/a", "", "");
  row("model token → client chunk, 2,000 tokens at once (median / p99)", `${formatMs(flat.medianMs)} / ${formatMs(flat.p99Ms)}`, "n/a", "", "");

  log("idle memory per session");
  const sessions = quick ? 200 : 1000;
  const weftPerSession = await bytesPerSession(weft, sessions);
  const barePerSession = await bytesPerSession(bare, sessions);
  row(`idle memory per open session (${sessions.toLocaleString("en")} open)`, formatBytes(weftPerSession), formatBytes(barePerSession), ratio(weftPerSession, barePerSession), "");

  const longest = Math.max(...turns);
  const pairs = quick ? 5 : 15;
  log(`replay of ${longest.toLocaleString("en")} turns on sqlite, ${pairs} alternating runs`);
  const replay = await benchReplay(weft, bare, temp, { turns: longest, runs: pairs, log: (message) => log(`replay: ${message}`) });
  const updates = replay.updates.toLocaleString("en");
  const spread = `pairs ${replay.pairRatios.minimum.toFixed(2)}–${replay.pairRatios.maximum.toFixed(2)}`;
  row(
    `session/load, ${longest.toLocaleString("en")} turns, sqlite, request → answer (median, min–max, middle half; ${pairs} alternating runs)`,
    formatTiming(replay.weft),
    `${formatTiming(replay.bare)}, sending ${updates} one-word chunks`,
    `${replay.ratio.toFixed(2)}x (${spread})`,
    "≤ 1.0x; aim < 100 ms",
  );
  row(`session/load, ${longest.toLocaleString("en")} turns, sqlite, against the bare agent sending the same ${updates} updates`, formatMs(replay.weft.medianMs), formatTiming(replay.bareSame), ratio(replay.weft.medianMs, replay.bareSame.medianMs), "");
  row(`floor: the same ${updates} lines in one write (no SDK, no store; the client's own time)`, formatTiming(replay.floor), "", ratio(replay.weft.medianMs, replay.floor.medianMs), "");
  const stores: SessionStoreResult[] = [];
  const drivers = sessionStoreDrivers(temp);
  for (const { driver, spec } of drivers) {
    log(`sessions on ${driver}`);
    stores.push(await benchSessionStore(weft, driver, spec, temp, turns, quick ? 2 : 5));
  }
  for (const result of stores) {
    for (const length of turns) {
      const loaded = result.load.get(length) ?? 0;
      const baseline = length === longest ? `${formatMs(replay.bare.medianMs)} (sending ${updates} updates, above)` : "";
      row(`session/load, ${length.toLocaleString("en")} turns, ${result.driver}`, formatMs(loaded), baseline, length === longest ? ratio(loaded, replay.bare.medianMs) : "", "");
    }
    const first = result.perTurn.get(turns[0] as number);
    const last = result.perTurn.get(longest);
    for (const turn of turns) {
      const cost = result.perTurn.get(turn);
      row(`bytes written / time per turn at turn ${turn.toLocaleString("en")}, ${result.driver}`, `${formatBytes(cost?.bytes ?? 0)} / ${formatMs(cost?.ms ?? 0)}`, "", turn === longest && first && last ? `${(last.bytes / first.bytes).toFixed(2)}x turn ${turns[0]}` : "", turn === longest ? "bytes ≤ 1.5x turn 10" : "");
    }
  }
  await cleanUpStores(drivers.map((driver) => driver.spec).filter((spec) => spec.includes("://")));

  const remote = remoteOptions(quick);
  const remoteRounds = quick ? 1 : 2;
  log(`${remote.sessions} sessions streaming at once, stdio against remote, ${remoteRounds} round(s)`);
  const remoteResults = await benchRemote(remote, remoteRounds, (message) => log(`remote: ${message}`));

  const header = [
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${formatBytes(totalmem())} RAM, Node ${process.version}. ${new Date().toISOString().slice(0, 10)}.`,
    "",
    "| measure | weft | bare SDK agent | ratio | target |",
    "| --- | --- | --- | --- | --- |",
  ];
  const rounds = remoteRounds === 1 ? "one round" : `median of ${remoteRounds} interleaved rounds (min–max)`;
  const load = loadavg().map((value) => value.toFixed(1));
  const remoteTable = [
    "",
    `${remote.sessions} sessions streaming at once (bench/remote.ts): one agent over stdio and served remotely, ${rounds}; load average ${load.join(", ")} at the end.`,
    "",
    ...remoteRows(remote, remoteResults),
  ];
  process.stdout.write(`${[...header, ...rows, ...remoteTable].join("\n")}\n`);
} finally {
  rmSync(temp, { recursive: true, force: true });
}
