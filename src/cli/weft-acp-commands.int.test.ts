// `weft acp`'s slash commands as an editor sees them, over stdio with the SDK client: /help,
// /mode, /model (over weft acp's picker of one configured model, and over a fixture with two fake
// models) and /init.

import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { AgentProcess, stopAndCheck } from "../../test/support/agent-process.js";
import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import { INIT_PROMPT } from "../coding-agent/commands/init-command.js";
import { FakeModelServer } from "../testing/fake-model-server.js";

const harness = weftAcpHarness();

function commandsOf(agent: AgentProcess, sessionId: string): string[] {
  const update = agent
    .updatesOf(sessionId)
    .filter((candidate) => candidate.sessionUpdate === "available_commands_update")
    .at(-1);
  return update?.sessionUpdate === "available_commands_update" ? update.availableCommands.map((command) => command.name) : [];
}

describe("weft acp slash commands", () => {
  it("offers /help, /mode, /model and /init, then /compact and /permissions, and /help lists them without calling the model", async () => {
    const { model, env } = await harness.fakeModel([]);
    const agent = harness.start(env);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    await agent.waitFor(() => commandsOf(agent, sessionId).length > 0, "the commands");
    expect(commandsOf(agent, sessionId)).toEqual(["help", "mode", "model", "init", "compact", "permissions"]);
    expect((await agent.prompt(sessionId, "/help")).stopReason).toBe("end_turn");
    const help = agent.textOf(sessionId);
    for (const name of ["/help", "/mode <a mode>", "/model <a model>", "/init", "/compact", "/permissions"]) {
      expect(help).toContain(name);
    }
    expect(model.requests).toEqual([]);
  });

  it("/mode shows the mode, switches it as the editor's picker would, and the next turn runs in it", async () => {
    const { model, env } = await harness.fakeModel([{ text: "planned" }]);
    const agent = harness.start(env);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    await agent.prompt(sessionId, "/mode");
    expect(agent.textOf(sessionId)).toMatch(/^The mode is ask\. The modes:\n- ask \(Ask\), current: /);
    let seen = agent.updatesOf(sessionId).length;
    await agent.prompt(sessionId, "/mode Plan");
    expect(agent.textOf(sessionId, seen)).toMatch(/^Switched to plan mode: /);
    const updates = agent.updatesOf(sessionId).slice(seen);
    expect(updates).toContainEqual({ sessionUpdate: "current_mode_update", currentModeId: "plan" });
    seen = agent.updatesOf(sessionId).length;
    await agent.prompt(sessionId, "/mode nonsense");
    expect(agent.textOf(sessionId, seen)).toMatch(/^There is no mode "nonsense"\. The modes:\n- ask/);
    await agent.prompt(sessionId, "what would you change?");
    expect(model.requests).toHaveLength(1);
    expect(String(model.requests[0]?.messages[0]?.content)).toContain("You are in plan mode");
    expect((model.requests[0]?.tools ?? []).map((tool) => tool.function.name)).not.toContain("write_file");
    // The prompts that ran commands never reach the model.
    expect(model.requests[0]?.messages.filter((message) => message.role === "user")).toHaveLength(1);
  });

  it("/model lists the one model WEFT_MODEL configures, as the model picker weft acp offers has it", async () => {
    const { model, env } = await harness.fakeModel([]);
    const agent = harness.start(env);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    await agent.prompt(sessionId, "/model smart");
    expect(agent.textOf(sessionId)).toBe('There is no model "smart". The models:\n- openai-compatible:fake-model, current');
    expect(model.requests).toEqual([]);
  });

  it("/init has the model look at the project and write AGENTS.md", async () => {
    const { model, env } = await harness.fakeModel([
      { toolCalls: [{ name: "list_files", arguments: {}, id: "l" }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "AGENTS.md", content: "# Agents\n\nRun npm test.\n" }, id: "w" }] },
      { text: "Wrote AGENTS.md." },
    ]);
    const agent = harness.start(env);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "/init mention the tests")).stopReason).toBe("end_turn");
    const prompt = model.requests[0]?.messages.find((message) => message.role === "user");
    expect(JSON.stringify(prompt?.content)).toContain(JSON.stringify(INIT_PROMPT).slice(1, 80));
    expect(JSON.stringify(prompt?.content)).toContain("Also: mention the tests");
    expect(agent.permissions).toHaveLength(1);
    expect(readFileSync(join(harness.project, "AGENTS.md"), "utf8")).toBe("# Agents\n\nRun npm test.\n");
    expect(agent.textOf(sessionId)).toBe("Wrote AGENTS.md.");
  });
});

describe("/model over a model picker", () => {
  const agents: AgentProcess[] = [];
  const servers: FakeModelServer[] = [];
  afterEach(async () => {
    expect(await stopAndCheck(agents, servers)).toEqual([]);
  });

  it("shows the models, switches to the one named, and the next turn goes to it", async () => {
    const fast = await FakeModelServer.start([{ text: "fast answer" }]);
    const smart = await FakeModelServer.start([{ text: "smart answer" }]);
    servers.push(fast, smart);
    const agent = AgentProcess.start({ fixture: "model-choice-agent.ts", env: { FAKE_MODEL_FAST_URL: fast.url, FAKE_MODEL_SMART_URL: smart.url } });
    agents.push(agent);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    await agent.prompt(sessionId, "/model");
    expect(agent.textOf(sessionId)).toBe("The model is Fast model. The models:\n- fast (Fast model), current\n- smart (Smart model): Slower, more careful\n\nSwitch with /model <model>.");
    let seen = agent.updatesOf(sessionId).length;
    await agent.prompt(sessionId, "/model Smart model");
    expect(agent.textOf(sessionId, seen)).toBe("Switched to Smart model; the next model call uses it.");
    const change = agent
      .updatesOf(sessionId)
      .slice(seen)
      .find((update) => update.sessionUpdate === "config_option_update");
    expect(change?.sessionUpdate === "config_option_update" && change.configOptions.find((option) => option.id === "model")?.currentValue).toBe("smart");
    seen = agent.updatesOf(sessionId).length;
    await agent.prompt(sessionId, "/model gigantic");
    expect(agent.textOf(sessionId, seen)).toMatch(/^There is no model "gigantic"\. The models:\n- fast \(Fast model\)\n- smart \(Smart model\), current/);
    seen = agent.updatesOf(sessionId).length;
    await agent.prompt(sessionId, "hello");
    expect(agent.textOf(sessionId, seen)).toBe("smart answer");
    expect(fast.requests).toEqual([]);
    expect(smart.requests).toHaveLength(1);
  });
});
