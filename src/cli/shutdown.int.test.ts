// `weft acp` stops when a client or supervisor signals it: idle, in the middle of a model's reply,
// and while a command runs. The commands' process groups go with it (even when the agent is killed
// with SIGKILL), and a turn it was in the middle of is carried on by the next session/load.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import type { AgentProcess } from "../../test/support/agent-process.js";
import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import { processAlive } from "../../test/support/processes.js";
import type { FakeModelServer, FakeScript } from "../testing/fake-model-server.js";

const harness = weftAcpHarness();

async function weftAcp(model: FakeModelServer): Promise<AgentProcess> {
  const agent = harness.start({ WEFT_MODEL: "openai-compatible:fake", WEFT_BASE_URL: model.url, WEFT_LOG: "info" }, ["--sessions", join(harness.home, "sessions.db")]);
  await agent.initialize();
  return agent;
}

async function fakeModel(script: FakeScript): Promise<FakeModelServer> {
  return (await harness.fakeModel(script)).model;
}

/** Resolves with how the agent exited, or rejects if it is still running after `ms`. */
async function exitWithin(agent: AgentProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${ms} ms after the signal. stderr:\n${agent.stderr}`)), ms);
  });
  try {
    return await Promise.race([agent.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `condition` until it holds, for at most `ms`; resolves with whether it did. */
async function eventually(condition: () => boolean, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (condition()) {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

const SIGNALS = ["SIGTERM", "SIGHUP", "SIGINT"] as const;

// Generous: the machine is shared. The agent itself waits at most half a second for its store.
const EXIT_MS = 5_000;

describe("weft acp on SIGTERM, SIGHUP and SIGINT", () => {
  it.each(SIGNALS)("exits with code 0 on %s when idle", async (signal) => {
    const agent = await weftAcp(await fakeModel([]));
    await agent.newSession(harness.project);
    agent.child.kill(signal);
    expect(await exitWithin(agent, EXIT_MS)).toEqual({ code: 0, signal: null });
    expect(agent.stderr).toContain(`Stopping on ${signal}`);
  });

  it.each(SIGNALS)("on %s mid-reply, leaves the turn for session/load to carry on", async (signal) => {
    const model = await fakeModel([{ text: ["Working ", "on ", "it"], stallAfter: 2 }, { text: "All done." }]);
    const first = await weftAcp(model);
    const sessionId = await first.newSession(harness.project);
    const answer = first.prompt(sessionId, "do the thing");
    answer.catch(() => undefined);
    await first.waitFor(() => first.textOf(sessionId).includes("Working"), "the first chunk");
    first.child.kill(signal);
    expect(await exitWithin(first, EXIT_MS)).toEqual({ code: 0, signal: null });

    const second = await weftAcp(model);
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: harness.project, mcpServers: [] });
    // The replay shows the prompt, then the carried-on turn finishes before the load answers.
    expect(second.updatesOf(sessionId)[0]).toMatchObject({ sessionUpdate: "user_message_chunk", content: { text: "do the thing" } });
    expect(second.textOf(sessionId)).toContain("All done.");
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.messages.filter((message) => message.role === "user")).toHaveLength(1);
  });

  it.each([...SIGNALS, "SIGKILL"] as const)("on %s mid-command, kills the command and everything it started", async (signal) => {
    const pids = join(harness.project, "pids.txt");
    const model = await fakeModel([
      { toolCalls: [{ name: "run_command", arguments: { command: `sleep 300 & echo $! >> ${pids}; echo $$ >> ${pids}; wait` }, id: "c" }] },
      { text: "unused" },
    ]);
    const agent = await weftAcp(model);
    const sessionId = await agent.newSession(harness.project);
    const answer = agent.prompt(sessionId, "run it");
    answer.catch(() => undefined);
    expect(await eventually(() => existsSync(pids) && readFileSync(pids, "utf8").trim().split("\n").length === 2, 20_000)).toBe(true);
    const started = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    expect(started.every(processAlive)).toBe(true);
    agent.child.kill(signal);
    // SIGKILL gives the agent no say: its commands notice it is gone and stop themselves.
    expect(await exitWithin(agent, EXIT_MS)).toEqual(signal === "SIGKILL" ? { code: null, signal } : { code: 0, signal: null });
    for (const pid of started) {
      expect(await eventually(() => !processAlive(pid), 3_000)).toBe(true);
    }
    if (signal !== "SIGKILL") {
      expect(agent.stderr).toContain('"killedCommands":1');
    }
  });
});
