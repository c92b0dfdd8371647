// What one very large model reply costs the agent in memory: `weft acp` (the coding agent, its
// SQLite sessions file) with its model pointed at a fake server that streams a reply of the size
// asked for, measured as the agent process's peak resident memory (VmHWM) above what it had
// after session/new. Run alone: `node --import tsx bench/big-reply.ts [megabytes] [chunk bytes]`.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";

import { FakeModelServer } from "../src/testing/fake-model-server.js";
import { spawnAgent } from "./agent-client.js";
import { formatBytes } from "./stats.js";

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

/** Streams one reply of `replyBytes` (in chunks of `chunkBytes`) through `weft acp` and measures its peak memory. */
export async function bigReply(replyBytes: number, chunkBytes: number, paced = true): Promise<BigReplyResult> {
  const chunk = "word ".repeat(Math.ceil(chunkBytes / 5)).slice(0, chunkBytes);
  const chunks = Array.from({ length: Math.ceil(replyBytes / chunkBytes) }, () => chunk);
  // Paced, the server waits a millisecond every 100 chunks (about 100 MB/s at 1 KB chunks): still
  // faster than any model, but no faster than the agent takes it, as a model's stream is.
  const beforeChunk = paced ? (index: number) => (index % 100 === 99 ? new Promise<void>((resolve) => setTimeout(resolve, 1)) : undefined) : undefined;
  const model = await FakeModelServer.start(() => ({ text: chunks, beforeChunk }), { sideCalls: () => ({ text: "A title" }) });
  const home = mkdtempSync(join(tmpdir(), "weft-big-reply-"));
  const agent = spawnAgent(process.execPath, ["bin/weft.js", "acp"], {
    XDG_STATE_HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    WEFT_LOG: "silent",
    WEFT_MODEL: "openai-compatible:fake-model",
    WEFT_BASE_URL: model.url,
    WEFT_MODELS: undefined,
    WEFT_SESSIONS: undefined,
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const megabytes = Number(process.argv[2] ?? 20);
  const chunkBytes = Number(process.argv[3] ?? 1000);
  for (const paced of [true, false]) {
    const result = await bigReply(megabytes * 1_000_000, chunkBytes, paced);
    process.stdout.write(
      `reply ${formatBytes(result.replyBytes)} in ${chunkBytes}-byte chunks, ${paced ? "paced" : "all at once"}: peak RSS ${formatBytes(result.before)} → ${formatBytes(result.peak)}, ${result.ratio.toFixed(2)}x the reply\n`,
    );
  }
}
