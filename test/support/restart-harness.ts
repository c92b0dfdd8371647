// What a test of agents that die and start again sets up: a temp folder, the store specs it made
// (Postgres schemas and Redis prefixes dropped after the file), and the agents and model servers
// it started, stopped and checked after each test.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, afterEach, expect } from "vitest";

import type { FakeModelServer } from "../../src/testing/fake-model-server.js";
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
