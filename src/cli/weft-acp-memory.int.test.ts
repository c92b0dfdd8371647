// What a large model reply leaves in `weft acp`'s memory once its turn is over: a heap snapshot of
// the agent process (taken on a signal, after a full collection) must hold the reply's text, not
// every chunk it streamed in. bench/big-reply.ts measures the peak memory such a reply costs.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";

import type { AgentProcess } from "../../test/support/agent-process.js";
import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";

const harness = weftAcpHarness();
const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) {
    rmSync(directory, { recursive: true, force: true });
  }
});

/** A snapshot of the agent's heap, written on SIGUSR2 into `directory`, once it is whole. */
async function heapSnapshot(agent: AgentProcess, directory: string): Promise<HeapSnapshot> {
  agent.child.kill("SIGUSR2");
  // The agent writes the snapshot on its one thread: an answer after the file appeared comes after it is written.
  const written = () => readdirSync(directory).find((name) => name.endsWith(".heapsnapshot"));
  while (written() === undefined) {
    await agent.agent.request(acp.methods.agent.session.list, {});
  }
  await agent.agent.request(acp.methods.agent.session.list, {});
  return JSON.parse(readFileSync(join(directory, written() as string), "utf8")) as HeapSnapshot;
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** How many strings in the heap start with `prefix`. */
function stringsStartingWith(heap: HeapSnapshot, prefix: string): number {
  return stringsWhere(heap, (name) => name.startsWith(prefix));
}

/** How many strings in the heap have a name (their text, cut at 1,024 characters) that `matches`. */
function stringsWhere(heap: HeapSnapshot, matches: (name: string) => boolean): number {
  const fields = heap.snapshot.meta.node_fields;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const types = heap.snapshot.meta.node_types[0];
  let count = 0;
  for (let index = 0; index < heap.nodes.length; index += fields.length) {
    const name = heap.strings[heap.nodes[index + nameAt] as number];
    if (types[heap.nodes[index + typeAt] as number] === "string" && name !== undefined && matches(name)) {
      count++;
    }
  }
  return count;
}

describe("weft acp after a large reply", () => {
  it("keeps the reply's text, not each of the 4,000 chunks it streamed in", async () => {
    const chunks = Array.from({ length: 4_000 }, (_, index) => `chunk ${String(index).padStart(5, "0")} ${"x".repeat(988)}`);
    const fake = await harness.fakeModel(() => ({ text: chunks }));
    const snapshots = mkdtempSync(join(tmpdir(), "weft-heap-"));
    made.push(snapshots);
    const agent = harness.start({ ...fake.env, NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}` });
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "write a lot")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toHaveLength(4_000 * 1_000);
    const heap = await heapSnapshot(agent, snapshots);
    expect(existsSync(snapshots)).toBe(true);
    // The reply itself is one string (starting with the first chunk); the chunks are gone.
    expect(stringsStartingWith(heap, "chunk ")).toBeLessThan(10);
  });

  it("with sessions in memory, keeps the reply's text once: the stored step and message share it", async () => {
    // The first chunk is marked, so the reply's text and any JSON text holding it can be told apart.
    const marker = "MARKED-REPLY-7f3a";
    const chunks = Array.from({ length: 2_000 }, (_, index) => (index === 0 ? `${marker} ${"y".repeat(982)}` : "z".repeat(1_000)));
    const fake = await harness.fakeModel(() => ({ text: chunks }));
    const snapshots = mkdtempSync(join(tmpdir(), "weft-heap-"));
    made.push(snapshots);
    const agent = harness.start({ ...fake.env, WEFT_SESSIONS: "memory", NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}` });
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "write a lot")).stopReason).toBe("end_turn");
    const heap = await heapSnapshot(agent, snapshots);
    // One string holds the marker: the reply's text, which the conversation, the graph's state and
    // the store's copies of both share. A store that kept JSON text would hold it in two more.
    expect(stringsWhere(heap, (name) => name.includes(marker))).toBe(1);
  });
});
