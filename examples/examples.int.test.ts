// The examples run as real agents: each is started with tsx and driven by the SDK client.

import { afterEach, describe, expect, it } from "vitest";

import { AgentProcess, repoRoot } from "../test/support/agent-process.js";
import { FakeModelServer } from "../src/testing/fake-model-server.js";

const running: AgentProcess[] = [];
let model: FakeModelServer | undefined;
afterEach(async () => {
  for (const agent of running.splice(0)) {
    await agent.stop();
    expect(agent.wire.problems).toEqual([]);
  }
  await model?.close();
});

function example(file: string, env: Record<string, string> = {}): AgentProcess {
  const agent = AgentProcess.start({ command: process.execPath, args: ["--import", "tsx", `${repoRoot}examples/${file}`], env });
  running.push(agent);
  return agent;
}

describe("examples", () => {
  it("serve-graph.ts counts words", async () => {
    const agent = example("serve-graph.ts");
    await agent.initialize();
    const sessionId = await agent.newSession(repoRoot);
    expect((await agent.prompt(sessionId, "one two three")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("That prompt has 3 words.");
  });

  it("serve-agent.ts asks before setting a reminder", async () => {
    model = await FakeModelServer.start([{ toolCalls: [{ name: "set_reminder", arguments: { text: "tea", at: "16:00" } }] }, { text: "Done." }]);
    const agent = example("serve-agent.ts", { WEFT_MODEL: "openai-compatible:fake", WEFT_BASE_URL: model.url });
    await agent.initialize();
    const sessionId = await agent.newSession(repoRoot);
    expect((await agent.prompt(sessionId, "remind me about tea")).stopReason).toBe("end_turn");
    expect(agent.permissions).toHaveLength(1);
    expect(agent.textOf(sessionId)).toBe("Done.");
  });
});
