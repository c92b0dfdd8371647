// What the tests of a file that starts agent processes share: the agents and fake model servers each
// test starts, stopped after it, and a check that every line those agents wrote kept the wire rules.

import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, expect } from "vitest";

import { FakeModelServer, type FakeModelServerOptions, type FakeScript } from "../../src/testing/fake-model-server.js";
import { AgentProcess, type AgentProcessOptions, stopAndCheck } from "./agent-process.js";

export interface StartedAgents {
  /** The agents this test started, stopped after it; push one started some other way. */
  readonly agents: AgentProcess[];
  /** The servers this test started, closed after the agents; push one started some other way. */
  readonly servers: Array<{ close(): Promise<void> }>;
  /** Starts a fake model server, closed after this test. */
  fakeModel(script?: FakeScript, options?: FakeModelServerOptions): Promise<FakeModelServer>;
  /** Starts an agent, stopped after this test. */
  start(options: AgentProcessOptions): AgentProcess;
  /** Starts an agent and initializes it as an editor with `capabilities`. */
  connect(options: AgentProcessOptions, capabilities?: acp.ClientCapabilities): Promise<AgentProcess>;
}

/**
 * Call once at the top of a test file. After each test its agents are stopped and its servers
 * closed, and the test fails if a line an agent wrote broke the wire rules; then `after` runs, for
 * what else the test made (a directory to remove, say).
 */
export function startedAgents(after?: () => unknown): StartedAgents {
  const agents: AgentProcess[] = [];
  const servers: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    expect(await stopAndCheck(agents, servers)).toEqual([]);
    await after?.();
  });
  const start = (options: AgentProcessOptions) => {
    const agent = AgentProcess.start(options);
    agents.push(agent);
    return agent;
  };
  return {
    agents,
    servers,
    async fakeModel(script = [], options) {
      const model = await FakeModelServer.start(script, options);
      servers.push(model);
      return model;
    },
    start,
    async connect(options, capabilities) {
      const agent = start(options);
      await agent.initialize(capabilities);
      return agent;
    },
  };
}
