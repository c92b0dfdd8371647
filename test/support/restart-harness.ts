// What a test of agents that die and start again sets up: a temp folder, the store specs it made
// (Postgres schemas and Redis prefixes dropped after the file), and the agents and model servers
// it started, stopped and checked after each test.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, afterEach, expect } from "vitest";

import type { ChatRequest, FakeModelServer, FakeScript } from "../../src/testing/fake-model-server.js";
import { type AgentProcess, stopAndCheck } from "./agent-process.js";
import { cleanUpStores } from "./servers.js";

export interface RestartHarness {
  temp: string;
  specs: string[];
  agents: AgentProcess[];
  servers: FakeModelServer[];
}

/** Registers the file's clean-up hooks; push what a test starts onto the lists it returns. */
export function restartHarness(prefix: string): RestartHarness {
  const harness: RestartHarness = { temp: mkdtempSync(join(tmpdir(), prefix)), specs: [], agents: [], servers: [] };
  afterEach(async () => {
    expect(await stopAndCheck(harness.agents, harness.servers)).toEqual([]);
  });
  afterAll(async () => {
    await cleanUpStores(harness.specs.filter((spec) => spec.includes("://")));
    rmSync(harness.temp, { recursive: true, force: true });
  });
  return harness;
}

/** Kills `agent` with SIGKILL, as a crash would, and waits until it is gone. */
export async function killHard(agent: AgentProcess): Promise<void> {
  agent.child.kill("SIGKILL");
  await agent.exited;
}

/**
 * A model telling a story: its first reply stops for good after two chunks ("Once upon "); asked
 * again, it gives the story whole ("Once upon a time, the end."); a request `more` picks gets "More.".
 */
export function stallingStory(more: (request: ChatRequest) => boolean): FakeScript {
  const hang = new Promise<void>(() => undefined);
  return (request, index) =>
    index === 0 ? { text: ["Once ", "upon ", "a ", "time"], beforeChunk: (chunk) => (chunk === 3 ? hang : undefined) } : more(request) ? { text: "More." } : { text: ["Once ", "upon ", "a ", "time, ", "the end."] };
}

/** Prompts "tell a story" in a new session in `cwd`, kills the agent once the reply has begun ("Once upon "), and resolves with the session's id. */
export async function killedMidStory(agent: AgentProcess, cwd: string): Promise<string> {
  const sessionId = await agent.newSession(cwd);
  agent.prompt(sessionId, "tell a story").catch(() => undefined);
  await agent.waitFor(() => agent.textOf(sessionId) === "Once upon ", "the reply to start streaming");
  await killHard(agent);
  return sessionId;
}
