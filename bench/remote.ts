// Remote ACP against stdio: 100 sessions streaming at once, to the same agent (bench/timed-agent.mjs,
// a graph that streams timestamped tokens, no model) served over stdio, over Streamable HTTP on
// HTTP/1.1 and on h2c, and over WebSocket, each measured in the same run. Per transport: tokens per
// second for all the sessions together, and each token's latency from its emission in the agent to
// its arrival in the client's notification handler (both processes read the same clock).
//
//   node --import tsx bench/remote.ts [--quick] [--rounds N] [--sessions N] [--transports stdio,http/1.1,h2c,websocket]
//   (after npm run build; BENCH_AGENT_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the agent processes)

import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { WebSocket } from "ws";

import { http2Fetch } from "../test/support/http2-fetch.js";
import { spawnAgent } from "./agent-client.js";
import { formatBytes, formatMs, median, percentile } from "./stats.js";

export type Transport = "stdio" | "http/1.1" | "h2c" | "websocket";

export const TRANSPORTS: readonly Transport[] = ["stdio", "http/1.1", "h2c", "websocket"];

export interface RemoteBenchOptions {
  /** Sessions streaming at once. */
  sessions: number;
  /** Tokens per session in the paced turn, and the gap between them. */
  pacedTokens: number;
  pacedEveryMs: number;
  /** Tokens per session in the flat-out turn, all emitted at once. */
  flatTokens: number;
}

export interface TurnResult {
  tokens: number;
  /** From the first prompt sent to the last token in. */
  seconds: number;
  tokensPerSecond: number;
  medianMs: number;
  p99Ms: number;
  /** From the prompts sent to each session's first token (one value per session). */
  firstTokenMedianMs: number;
  firstTokenP99Ms: number;
  /** CPU time per 1,000 tokens, in the agent process and in this one (every client). */
  agentCpuMs: number;
  clientCpuMs: number;
}

export interface TransportResult {
  transport: Transport;
  /** Starting the agent process, then connecting, initialize and session/new for every session, all at once. */
  setupMs: number;
  paced: TurnResult;
  flat: TurnResult;
  /** The agent process's resident memory after both turns, from /proc (0 where there is none). */
  agentRssBytes: number;
  /** HTTP/1.1 requests sent again because the kept-alive connection they went out on was reset. */
  retriedRequests: number;
}

const root = resolve(fileURLToPath(import.meta.url), "../..");
const agentScript = resolve(root, "bench/timed-agent.mjs");
/** Node flags for the agent processes, such as `--cpu-prof --cpu-prof-dir=DIR` (Node refuses those in NODE_OPTIONS). */
const agentNodeArgs = process.env.BENCH_AGENT_NODE_ARGS?.split(" ").filter((flag) => flag !== "") ?? [];
/** The same clock the agent stamps its tokens with. */
const now = () => performance.timeOrigin + performance.now();

/** One simulated editor: a connection and the sessions it has open. */
interface BenchClient {
  connection: acp.ClientConnection;
  close(): Promise<void>;
}

/** What every client's notification handler feeds: token latencies while a turn is measured. */
class Arrivals {
  latencies: number[] = [];
  count = 0;
  last = 0;
  firsts = new Map<string, number>();

  take(notification: acp.SessionNotification): void {
    const update = notification.update;
    if (update.sessionUpdate !== "agent_message_chunk" || update.content.type !== "text") {
      return;
    }
    const arrived = now();
    // Chunks may carry several tokens if a transport joined them; each counts from its own stamp.
    for (const stamp of update.content.text.split(" ")) {
      if (stamp !== "") {
        this.latencies.push(arrived - Number(stamp));
        this.count++;
      }
    }
    this.last = arrived;
    if (!this.firsts.has(notification.sessionId)) {
      this.firsts.set(notification.sessionId, arrived);
    }
  }

  reset(): void {
    this.latencies = [];
    this.count = 0;
    this.last = 0;
    this.firsts.clear();
  }
}

/** The agent served remotely in its own process: its URL, and how to stop it. */
interface RemoteAgent {
  url: string;
  child: ChildProcess;
  token: string;
  stop(): Promise<void>;
}

async function startRemoteAgent(): Promise<RemoteAgent> {
  const token = randomBytes(24).toString("base64url");
  const child = spawn(process.execPath, [...agentNodeArgs, agentScript, "--http"], { cwd: root, stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, BENCH_TOKEN: token } });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolveUrl, reject) => {
    lines.once("line", resolveUrl);
    child.once("exit", (code) => reject(new Error(`the remote agent exited (${code}) before listening`)));
  });
  return { url, child, token, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) {
    return;
  }
  const exited = new Promise((resolveExit) => child.once("exit", resolveExit));
  child.stdin?.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Node's fetch, sending a request once more when the kept-alive connection it went out on is reset
 * before any answer. That happens when a connection sits idle through a turn for about the
 * server's keep-alive timeout (Node's 5 s) and the next POST meets the server closing it; browsers
 * retry such requests too. Without this the SDK's HTTP stream takes the reset as the end of the
 * connection. Every retry is counted and shown.
 */
function retryingFetch(retries: { count: number }): typeof globalThis.fetch {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      if (cause?.code !== "ECONNRESET" || init?.signal?.aborted) {
        throw error;
      }
      retries.count++;
      return await fetch(input, init);
    }
  };
}

function connectRemote(agent: RemoteAgent, transport: Exclude<Transport, "stdio">, arrivals: Arrivals, retries: { count: number }): BenchClient {
  const headers = { authorization: `Bearer ${agent.token}` };
  // One HTTP/2 connection per simulated editor, as separate editors would have: a shared one would
  // hold every client's streams and meet the server's limit of 128 at once.
  const h2 = transport === "h2c" ? http2Fetch() : undefined;
  const stream =
    transport === "websocket"
      ? createWebSocketStream(agent.url.replace(/^http/, "ws"), { WebSocket, headers })
      : createHttpStream(agent.url, { headers, fetch: h2 ? h2.fetch : retryingFetch(retries) });
  const connection = acp
    .client({ name: "bench" })
    .onNotification(acp.methods.client.session.update, ({ params }) => arrivals.take(params))
    .connect(stream);
  return {
    connection,
    close: async () => {
      connection.close();
      await connection.closed.catch(() => undefined);
      h2?.close();
    },
  };
}

const prompt = (connection: acp.ClientConnection, sessionId: string, text: string) =>
  connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

/** Sends one prompt to every session at once and waits for every token of it. */
async function measureTurn(sessions: Array<{ connection: acp.ClientConnection; sessionId: string }>, arrivals: Arrivals, agentPid: number | undefined, tokens: number, everyMs: number): Promise<TurnResult> {
  arrivals.reset();
  const expected = tokens * sessions.length;
  const agentCpuBefore = cpuOf(agentPid);
  const clientCpuBefore = process.cpuUsage();
  const started = now();
  await Promise.all(sessions.map(({ connection, sessionId }) => prompt(connection, sessionId, `stream ${tokens} every ${everyMs}`)));
  // The client runs notification handlers without waiting; let the last ones land.
  const deadline = Date.now() + 30_000;
  while (arrivals.count < expected && Date.now() < deadline) {
    await new Promise((resolveSoon) => setImmediate(resolveSoon));
  }
  if (arrivals.count < expected) {
    throw new Error(`only ${arrivals.count} of ${expected} tokens arrived`);
  }
  const seconds = (arrivals.last - started) / 1000;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const firsts = [...arrivals.firsts.values()].map((first) => first - started);
  return {
    tokens: expected,
    seconds,
    tokensPerSecond: expected / seconds,
    medianMs: median(arrivals.latencies),
    p99Ms: percentile(arrivals.latencies, 0.99),
    firstTokenMedianMs: median(firsts),
    firstTokenP99Ms: percentile(firsts, 0.99),
    agentCpuMs: ((cpuOf(agentPid) - agentCpuBefore) / expected) * 1000,
    clientCpuMs: ((clientCpu.user + clientCpu.system) / 1000 / expected) * 1000,
  };
}

/** A process's CPU time so far (user and system), in ms, from /proc; 0 where there is none. */
function cpuOf(pid: number | undefined): number {
  try {
    // The fields after the command's name, which sits in parentheses; utime and stime are the 14th and 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
  } catch {
    return 0;
  }
}

/** Linux's USER_HZ, the unit of /proc's CPU times, on every architecture Node runs on. */
const CLOCK_TICKS = 100;

function rssOf(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Runs the benchmark on one transport in a fresh agent process: sets up every session at once, a
 * short warm-up turn in each, then a paced turn and a flat-out turn in all of them together.
 * Over stdio the sessions share one agent process and one connection, as one editor's would;
 * remotely each session is its own client with its own connection to one server process.
 */
export async function benchTransport(transport: Transport, options: RemoteBenchOptions): Promise<TransportResult> {
  const arrivals = new Arrivals();
  const retries = { count: 0 };
  const clients: BenchClient[] = [];
  let stopAgent: () => Promise<void>;
  let pid: number | undefined;
  const setupStarted = now();
  let sessions: Array<{ connection: acp.ClientConnection; sessionId: string }>;
  const initialize = (connection: acp.ClientConnection) => connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const newSession = async (connection: acp.ClientConnection) => (await connection.agent.request(acp.methods.agent.session.new, { cwd: root, mcpServers: [] })).sessionId;
  if (transport === "stdio") {
    const agent = spawnAgent(process.execPath, [...agentNodeArgs, agentScript]);
    agent.onUpdate = (notification) => arrivals.take(notification);
    clients.push({ connection: agent.connection, close: () => agent.stop() });
    stopAgent = async () => undefined;
    pid = agent.child.pid;
    await initialize(agent.connection);
    const ids = await Promise.all(Array.from({ length: options.sessions }, () => newSession(agent.connection)));
    sessions = ids.map((sessionId) => ({ connection: agent.connection, sessionId }));
  } else {
    const agent = await startRemoteAgent();
    stopAgent = agent.stop;
    pid = agent.child.pid;
    for (let index = 0; index < options.sessions; index++) {
      clients.push(connectRemote(agent, transport, arrivals, retries));
    }
    sessions = await Promise.all(
      clients.map(async ({ connection }) => {
        await initialize(connection);
        return { connection, sessionId: await newSession(connection) };
      }),
    );
  }
  const setupMs = now() - setupStarted;
  try {
    await measureTurn(sessions, arrivals, pid, 10, 0);
    const paced = await measureTurn(sessions, arrivals, pid, options.pacedTokens, options.pacedEveryMs);
    const flat = await measureTurn(sessions, arrivals, pid, options.flatTokens, 0);
    return { transport, setupMs, paced, flat, agentRssBytes: rssOf(pid), retriedRequests: retries.count };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await stopAgent();
  }
}

/** Runs every transport `rounds` times, interleaved round by round so that load on the machine falls on all of them alike. */
export async function benchRemote(options: RemoteBenchOptions, rounds: number, log: (message: string) => void = () => {}, transports: readonly Transport[] = TRANSPORTS): Promise<Map<Transport, TransportResult[]>> {
  const results = new Map<Transport, TransportResult[]>(transports.map((transport) => [transport, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const transport of transports) {
      log(`round ${round}/${rounds}: ${options.sessions} sessions over ${transport}`);
      results.get(transport)!.push(await benchTransport(transport, options));
    }
  }
  return results;
}

/** The median over rounds, with the range when there is more than one. */
function spread(values: number[], format: (value: number) => string): string {
  if (values.length < 2) {
    return format(values[0] ?? 0);
  }
  return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

const perSecond = (value: number) => Math.round(value).toLocaleString("en");

/** The results as Markdown table rows: one column per transport. */
export function remoteRows(options: RemoteBenchOptions, results: Map<Transport, TransportResult[]>): string[] {
  const transports = [...results.keys()];
  const of = (pick: (result: TransportResult) => number, format: (value: number) => string) => transports.map((transport) => spread((results.get(transport) ?? []).map(pick), format));
  const ratioToStdio = (pick: (result: TransportResult) => number) => {
    const stdio = median((results.get("stdio") ?? []).map(pick));
    return transports.map((transport) => (results.has("stdio") ? `${(median((results.get(transport) ?? []).map(pick)) / stdio).toFixed(2)}x` : ""));
  };
  const both = (first: (result: TransportResult) => number, second: (result: TransportResult) => number, format: (value: number) => string) => {
    const firsts = of(first, format);
    return of(second, format).map((cell, index) => `${firsts[index]} / ${cell}`);
  };
  const row = (measure: string, cells: string[]) => `| ${measure} | ${cells.join(" | ")} |`;
  const offered = options.sessions * (1000 / options.pacedEveryMs);
  const paced = `paced turn (${options.pacedTokens} tokens per session, one every ${options.pacedEveryMs} ms: ${perSecond(offered)} tokens/s offered)`;
  const flat = `flat-out turn (${options.flatTokens.toLocaleString("en")} tokens per session at once, ${(options.flatTokens * options.sessions).toLocaleString("en")} in all)`;
  return [
    row("", transports.map((transport) => (transport === "stdio" ? "stdio (1 process, 1 connection)" : `${transport} (1 server, ${options.sessions} connections)`))),
    row("---", transports.map(() => "---")),
    row(`set-up: start the agent, then connect, initialize and session/new for all ${options.sessions} at once`, of((result) => result.setupMs, formatMs)),
    row(`${paced}: tokens/s`, of((result) => result.paced.tokensPerSecond, perSecond)),
    row(`${paced}: token latency median`, of((result) => result.paced.medianMs, formatMs)),
    row(`${paced}: token latency p99`, of((result) => result.paced.p99Ms, formatMs)),
    row(`${paced}: CPU per 1,000 tokens, agent process / all clients`, both((result) => result.paced.agentCpuMs, (result) => result.paced.clientCpuMs, formatMs)),
    row(`${paced}: prompts sent → each session's first token, median / p99`, both((result) => result.paced.firstTokenMedianMs, (result) => result.paced.firstTokenP99Ms, formatMs)),
    row(`${flat}: tokens/s`, of((result) => result.flat.tokensPerSecond, perSecond)),
    row(`${flat}: tokens/s against stdio`, ratioToStdio((result) => result.flat.tokensPerSecond)),
    row(`${flat}: token latency median`, of((result) => result.flat.medianMs, formatMs)),
    row(`${flat}: token latency p99`, of((result) => result.flat.p99Ms, formatMs)),
    row(`${flat}: prompts sent → each session's first token, median / p99`, both((result) => result.flat.firstTokenMedianMs, (result) => result.flat.firstTokenP99Ms, formatMs)),
    row(`${flat}: CPU per 1,000 tokens, agent process / all clients`, both((result) => result.flat.agentCpuMs, (result) => result.flat.clientCpuMs, formatMs)),
    row("agent process RSS after both turns", of((result) => result.agentRssBytes, formatBytes)),
    row("HTTP/1.1 requests sent again after their kept-alive connection was reset (all rounds)", transports.map((transport) => (transport === "http/1.1" ? String((results.get(transport) ?? []).reduce((sum, result) => sum + result.retriedRequests, 0)) : "n/a"))),
  ];
}

export function remoteOptions(quick: boolean, sessions = 100): RemoteBenchOptions {
  return { sessions, pacedTokens: quick ? 100 : 200, pacedEveryMs: 20, flatTokens: quick ? 200 : 1000 };
}

async function main(): Promise<void> {
  const argument = (name: string, fallback: number) => {
    const index = process.argv.indexOf(name);
    return index >= 0 ? Number(process.argv[index + 1]) : fallback;
  };
  const quick = process.argv.includes("--quick");
  const options = remoteOptions(quick, argument("--sessions", 100));
  const rounds = argument("--rounds", quick ? 1 : 3);
  const named = process.argv.includes("--transports") ? (process.argv[process.argv.indexOf("--transports") + 1] ?? "").split(",") : TRANSPORTS;
  const transports = TRANSPORTS.filter((transport) => named.includes(transport));
  const log = (message: string) => process.stderr.write(`remote: ${message}\n`);
  const loadBefore = loadavg();
  const results = await benchRemote(options, rounds, log, transports);
  const loadAfter = loadavg();
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(", ");
  const lines = [
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${formatBytes(totalmem())} RAM, Node ${process.version}. ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    `Load average (1, 5, 15 min) ${load(loadBefore)} before, ${load(loadAfter)} after. ${rounds === 1 ? "One round." : `Median of ${rounds} interleaved rounds (min–max).`}`,
    "",
    ...remoteRows(options, results),
    "",
    `${options.sessions} sessions of one agent (bench/timed-agent.mjs), all streaming at once, each token stamped when the agent emits it and`,
    "timed when the client's notification handler gets it. All clients live in this one process, on the same cores as the agent.",
    "Over stdio the sessions share one process and one connection, as one editor's would (100 processes would measure",
    "100 Node start-ups on 2 cores, not the transport); remotely each session is a client with its own connection.",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
