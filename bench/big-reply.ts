// What one very large model reply costs the agent in memory: `weft acp` (the coding agent) with its
// model pointed at a fake server that streams a reply of the size asked for, on each session store,
// measured as the agent process's peak resident memory (VmHWM) above what it had after
// session/new. Beside it, in the same run: a floor (a bare Node process holding the reply's text and
// one JSON copy of it, the least a durable agent can hold at once) and, with `--compare`, another
// build of weft (say, main's) on the same stores.
//
// `node --import tsx bench/big-reply.ts [megabytes] [chunk bytes] [--stores memory,sqlite,postgres,redis]
//   [--runs N] [--paced-only] [--compare DIR]`, where DIR holds another build's bin/weft.js and
// dist/. Postgres and Redis are measured when WEFT_TEST_POSTGRES_URL and WEFT_TEST_REDIS_URL are set.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import * as acp from "@agentclientprotocol/sdk";

import { FakeModelServer } from "../src/testing/fake-model-server.js";
import { spawnAgent } from "./agent-client.js";
import { formatBytes, median } from "./stats.js";

/** The agent's peak and current resident memory, from /proc. */
export function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const read = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { peak: read("VmHWM"), now: read("VmRSS") };
}

export interface BigReplyResult {
  replyBytes: number;
  /** Peak resident memory after session/new, before the prompt. */
  before: number;
  /** Peak resident memory once the turn ended. */
  peak: number;
  /** (peak - before) / replyBytes. */
  ratio: number;
}

export interface BigReplyOptions {
  /** The session store, as `--sessions` takes it; default a SQLite file in a temporary directory. */
  sessions?: string | undefined;
  /** The `bin/weft.js` to run; default this checkout's. */
  weft?: string | undefined;
  /** A millisecond's pause every 100 chunks (default), or every chunk at once. */
  paced?: boolean | undefined;
}

/** Streams one reply of `replyBytes` (in chunks of `chunkBytes`) through `weft acp` and measures its peak memory. */
export async function bigReply(replyBytes: number, chunkBytes: number, options: BigReplyOptions = {}): Promise<BigReplyResult> {
  const chunk = "word ".repeat(Math.ceil(chunkBytes / 5)).slice(0, chunkBytes);
  const chunks = Array.from({ length: Math.ceil(replyBytes / chunkBytes) }, () => chunk);
  // Paced, the server waits a millisecond every 100 chunks (about 100 MB/s at 1 KB chunks): still
  // faster than any model, but no faster than the agent takes it, as a model's stream is.
  const paced = options.paced ?? true;
  const beforeChunk = paced ? (index: number) => (index % 100 === 99 ? new Promise<void>((resolve) => setTimeout(resolve, 1)) : undefined) : undefined;
  const model = await FakeModelServer.start(() => ({ text: chunks, beforeChunk }), { sideCalls: () => ({ text: "A title" }) });
  const home = mkdtempSync(join(tmpdir(), "weft-big-reply-"));
  const agent = spawnAgent(process.execPath, [options.weft ?? "bin/weft.js", "acp"], {
    XDG_STATE_HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    WEFT_LOG: "silent",
    WEFT_MODEL: "openai-compatible:fake-model",
    WEFT_BASE_URL: model.url,
    WEFT_MODELS: undefined,
    WEFT_SESSIONS: options.sessions,
  });
  try {
    const client = agent.connection.agent;
    await client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await client.request(acp.methods.agent.session.new, { cwd: home, mcpServers: [] });
    const pid = agent.child.pid as number;
    const before = memoryOf(pid).peak;
    const { stopReason } = await client.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "write a lot" }] });
    if (stopReason !== "end_turn") {
      throw new Error(`The turn ended with ${stopReason}`);
    }
    const peak = memoryOf(pid).peak;
    const sent = chunks.length * chunkBytes;
    return { replyBytes: sent, before, peak, ratio: (peak - before) / sent };
  } finally {
    await agent.stop();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The floor: a bare Node process that builds the reply's text from its chunks, makes one JSON copy
 * of it (what any durable store must write) and holds both; its peak above what it had before.
 */
export function floor(replyBytes: number, chunkBytes: number): BigReplyResult {
  const script = `
    const { readFileSync } = require("node:fs");
    const peak = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]) * 1024;
    const before = peak();
    const chunks = [];
    for (let index = 0; index < ${Math.ceil(replyBytes / chunkBytes)}; index++) chunks.push(("word ".repeat(${Math.ceil(chunkBytes / 5)}) + index).slice(0, ${chunkBytes}));
    const text = chunks.join("");
    chunks.length = 0;
    const json = JSON.stringify({ role: "assistant", parts: [{ type: "text", text }] });
    globalThis.held = [text, json];
    process.stdout.write(JSON.stringify({ before, peak: peak(), length: text.length }));
  `;
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  if (run.status !== 0) {
    throw new Error(`The floor process failed: ${run.stderr}`);
  }
  const { before, peak, length } = JSON.parse(run.stdout) as { before: number; peak: number; length: number };
  return { replyBytes: length, before, peak, ratio: (peak - before) / length };
}

/** The stores to measure: `--stores`, of those this machine has. */
function storesFor(wanted: string[], home: string): Array<{ name: string; spec: () => string }> {
  const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const all: Record<string, (() => string) | undefined> = {
    memory: () => "memory",
    sqlite: () => join(home, `${stamp()}.db`),
    postgres: process.env.WEFT_TEST_POSTGRES_URL
      ? () => {
          const url = new URL(process.env.WEFT_TEST_POSTGRES_URL as string);
          url.searchParams.set("schema", `weft_big_reply_${stamp()}`);
          return url.toString();
        }
      : undefined,
    redis: process.env.WEFT_TEST_REDIS_URL
      ? () => {
          const url = new URL(process.env.WEFT_TEST_REDIS_URL as string);
          url.searchParams.set("prefix", `weft-big-reply-${stamp()}`);
          return url.toString();
        }
      : undefined,
  };
  return wanted.flatMap((name) => {
    const spec = all[name];
    return spec ? [{ name, spec }] : [];
  });
}

function describe(results: BigReplyResult[]): string {
  const ratios = results.map((result) => result.ratio);
  const peak = median(results.map((result) => result.peak));
  const before = median(results.map((result) => result.before));
  const spread = results.length > 1 ? ` (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})` : "";
  return `${formatBytes(before)} → ${formatBytes(peak)}, ${median(ratios).toFixed(2)}x${spread}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args.splice(at, 2)[1];
  };
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 && args.splice(at, 1).length > 0;
  };
  const compare = option("--compare");
  const runs = Number(option("--runs") ?? 3);
  const wanted = (option("--stores") ?? "memory,sqlite,postgres,redis").split(",");
  const pacedOnly = flag("--paced-only");
  const megabytes = Number(args[0] ?? 20);
  const chunkBytes = Number(args[1] ?? 1000);
  const replyBytes = megabytes * 1_000_000;
  const home = mkdtempSync(join(tmpdir(), "weft-big-reply-stores-"));
  const builds = [{ name: "this build", weft: "bin/weft.js" }, ...(compare ? [{ name: compare, weft: join(resolve(compare), "bin/weft.js") }] : [])];
  const floors = Array.from({ length: runs }, () => floor(replyBytes, chunkBytes));
  process.stdout.write(`reply ${formatBytes(replyBytes)} in ${chunkBytes}-byte chunks, median of ${runs} runs (min–max)\n`);
  process.stdout.write(`floor (a bare Node process holding the text and one JSON copy): ${describe(floors)}\n`);
  process.stdout.write(`| store | pace | ${builds.map((build) => build.name).join(" | ")} |\n| --- | --- |${builds.map(() => " --- |").join("")}\n`);
  try {
    for (const store of storesFor(wanted, home)) {
      for (const paced of pacedOnly ? [true] : [true, false]) {
        const results = builds.map(() => [] as BigReplyResult[]);
        // Builds take turns run by run, so the machine's load falls on each alike.
        for (let run = 0; run < runs; run++) {
          for (const [index, build] of builds.entries()) {
            results[index]?.push(await bigReply(replyBytes, chunkBytes, { sessions: store.spec(), weft: build.weft, paced }));
          }
        }
        process.stdout.write(`| ${store.name} | ${paced ? "paced" : "all at once"} | ${results.map(describe).join(" | ")} |\n`);
      }
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
