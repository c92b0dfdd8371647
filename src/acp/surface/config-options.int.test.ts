// Session config options and modes, driven by the official SDK client over a child process's
// stdio (test/fixtures/config-agent.ts), every line checked against the SDK's schema and the order
// rules (test/support/acp-wire.ts): the full list from set_config_option and an error for a bad
// value, a model picked in the editor reaching the next model request, the mode option and `modes`
// kept in sync both ways, the agent's own changes, values that survive a restart on SQLite, and no
// boolean option for an editor that did not say it shows them.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, describe, expect, it } from "vitest";

import { AgentProcess } from "../../../test/support/agent-process.js";
import { startedAgents } from "../../../test/support/started-agents.js";
import { type ChatRequest, FakeModelServer, type FakeScript } from "../../testing/fake-model-server.js";

const temp = mkdtempSync(join(tmpdir(), "weft-config-"));
const { agents, servers } = startedAgents();

afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

/** What an editor that shows boolean options says in `initialize`. */
const READS_BOOLEANS: acp.ClientCapabilities = { session: { configOptions: { boolean: {} } } };

async function start(script: FakeScript = [], options: { env?: Record<string, string>; capabilities?: acp.ClientCapabilities; server?: FakeModelServer } = {}) {
  const model = options.server ?? (await FakeModelServer.start(script));
  if (!options.server) {
    servers.push(model);
  }
  const agent = AgentProcess.start({ fixture: "config-agent.ts", env: { FAKE_MODEL_URL: model.url, ...options.env } });
  agents.push(agent);
  await agent.initialize(options.capabilities ?? READS_BOOLEANS);
  return { agent, model };
}

const newSession = (agent: AgentProcess) => agent.agent.request(acp.methods.agent.session.new, { cwd: temp, mcpServers: [] });
const setOption = (agent: AgentProcess, sessionId: string, configId: string, value: string) =>
  agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId, value });
const setBoolean = (agent: AgentProcess, sessionId: string, configId: string, value: boolean) =>
  agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId, type: "boolean", value });
const setMode = (agent: AgentProcess, sessionId: string, modeId: string) => agent.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId });

/** Each option's current value, by id. */
const values = (options: acp.SessionConfigOption[] | null | undefined) => Object.fromEntries((options ?? []).map((option) => [option.id, option.currentValue]));
/** The system prompt a model request carried: the fixture writes the session's config into it. */
const systemOf = (request: ChatRequest | undefined) => request?.messages.find((message) => message.role === "system")?.content;

describe("config options over stdio", () => {
  it("session/new offers the full list (the mode first) and the legacy modes, in step", async () => {
    const { agent } = await start();
    const created = await newSession(agent);
    expect(created.configOptions?.map((option) => [option.id, option.type, option.category])).toEqual([
      ["mode", "select", "mode"],
      ["model", "select", "model"],
      ["effort", "select", "thought_level"],
      ["concise", "boolean", "_style"],
    ]);
    expect(values(created.configOptions)).toEqual({ mode: "ask", model: "fast", effort: "low", concise: false });
    expect(created.configOptions?.[1]).toMatchObject({
      options: [
        { group: "quick", name: "Quick", options: [{ value: "fast", name: "Fast model" }] },
        { group: "deep", name: "Deep", options: [{ value: "smart", name: "Smart model", description: "Slower, thinks more" }] },
      ],
    });
    expect(created.modes).toEqual({
      currentModeId: "ask",
      availableModes: [
        { id: "ask", name: "Ask", description: "Answers questions, changes nothing" },
        { id: "code", name: "Code" },
      ],
    });
  });

  it("set_config_option answers the full list with the new value; a bad value, an unknown option and a wrong type are invalid params saying so", async () => {
    const { agent } = await start();
    const { sessionId } = await newSession(agent);
    const answered = await setOption(agent, sessionId, "effort", "high");
    expect(values(answered.configOptions)).toEqual({ mode: "ask", model: "fast", effort: "high", concise: false });
    expect(values((await setBoolean(agent, sessionId, "concise", true)).configOptions)).toEqual({ mode: "ask", model: "fast", effort: "high", concise: true });

    await expect(setOption(agent, sessionId, "model", "huge")).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid params: Config option "model" has no value "huge"; its values are fast, smart.',
      data: { configId: "model", value: "huge" },
    });
    await expect(setOption(agent, sessionId, "temperature", "hot")).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid params: This session has no config option "temperature"; its options are mode, model, effort, concise.',
    });
    await expect(setBoolean(agent, sessionId, "model", true)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Config option "model" is a select option') });
    await expect(setOption(agent, sessionId, "concise", "yes")).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Config option "concise" is a boolean option') });
    await expect(setOption(agent, "sess_nope", "effort", "high")).rejects.toMatchObject({ code: -32002 });
    // A refused value changed nothing.
    expect(values((await setOption(agent, sessionId, "effort", "high")).configOptions)).toEqual({ mode: "ask", model: "fast", effort: "high", concise: true });
  });

  it("a model picked in the editor reaches the next model request, and the other values reach the run", async () => {
    const { agent, model } = await start([{ text: "quick answer" }, { text: "deep answer" }]);
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, "first");
    await setOption(agent, sessionId, "model", "smart");
    await setOption(agent, sessionId, "effort", "high");
    await setBoolean(agent, sessionId, "concise", true);
    await agent.prompt(sessionId, "second");
    expect(model.requests.map((request) => request.model)).toEqual(["fast-model", "smart-model"]);
    expect(systemOf(model.requests[0])).toBe("Mode: ask. Effort: low. Concise: false.");
    expect(systemOf(model.requests[1])).toBe("Mode: ask. Effort: high. Concise: true.");
  });

  it("set_config_option of the mode sends current_mode_update; set_mode sends config_option_update with the full list; the run sees the mode", async () => {
    const { agent, model } = await start([{ text: "coding" }, { text: "asking" }]);
    const { sessionId } = await newSession(agent);

    const byOption = await setOption(agent, sessionId, "mode", "code");
    expect(values(byOption.configOptions).mode).toBe("code");
    await agent.waitFor(() => agent.updatesOf(sessionId).some((update) => update.sessionUpdate === "current_mode_update"), "current_mode_update");
    expect(agent.updatesOf(sessionId)).toEqual([{ sessionUpdate: "current_mode_update", currentModeId: "code" }]);
    await agent.prompt(sessionId, "write it");
    expect(systemOf(model.requests[0])).toBe("Mode: code. Effort: low. Concise: false.");

    const from = agent.updatesOf(sessionId).length;
    expect(await setMode(agent, sessionId, "ask")).toEqual({});
    await agent.waitFor(() => agent.updatesOf(sessionId).slice(from).some((update) => update.sessionUpdate === "config_option_update"), "config_option_update");
    const [update] = agent.updatesOf(sessionId).slice(from);
    expect(update?.sessionUpdate).toBe("config_option_update");
    expect(update?.sessionUpdate === "config_option_update" && values(update.configOptions)).toEqual({ mode: "ask", model: "fast", effort: "low", concise: false });
    await agent.prompt(sessionId, "explain it");
    expect(systemOf(model.requests[1])).toBe("Mode: ask. Effort: low. Concise: false.");

    await expect(setMode(agent, sessionId, "plan")).rejects.toMatchObject({ code: -32602, message: 'Invalid params: There is no mode "plan"; the modes are ask, code.' });
  });

  it("the agent's own change of mode during a turn sends both updates, and the turn's next model call is in the new mode", async () => {
    const { agent, model } = await start([{ toolCalls: [{ name: "switch_mode", arguments: { mode: "code" } }] }, { text: "Switched." }]);
    const { sessionId } = await newSession(agent);
    expect((await agent.prompt(sessionId, "start coding")).stopReason).toBe("end_turn");
    const kinds = agent.updatesOf(sessionId).map((update) => update.sessionUpdate);
    expect(kinds).toContain("config_option_update");
    expect(kinds).toContain("current_mode_update");
    const listed = agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "config_option_update");
    expect(listed?.sessionUpdate === "config_option_update" && values(listed.configOptions)).toEqual({ mode: "code", model: "fast", effort: "low", concise: false });
    expect(agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "current_mode_update")).toEqual({ sessionUpdate: "current_mode_update", currentModeId: "code" });
    expect(model.requests.map(systemOf)).toEqual(["Mode: ask. Effort: low. Concise: false.", "Mode: code. Effort: low. Concise: false."]);
  });

  it("a change the agent makes while session/new is being answered reaches the editor after the answer", async () => {
    const { agent } = await start([], { env: { WEFT_TEST_PICK_ON_OPEN: "smart" } });
    const created = await newSession(agent);
    expect(values(created.configOptions).model).toBe("smart");
    await agent.waitFor(() => agent.updatesOf(created.sessionId).some((update) => update.sessionUpdate === "config_option_update"), "config_option_update");
    const lines = agent.wire.fromAgent;
    const answer = lines.findIndex((message) => (message.result as { sessionId?: unknown } | undefined)?.sessionId === created.sessionId);
    const update = lines.findIndex((message) => message.method === "session/update");
    expect(answer).toBeGreaterThanOrEqual(0);
    expect(update).toBeGreaterThan(answer);
  });

  it("leaves boolean options out for an editor that did not say it shows them, and refuses to set them for it", async () => {
    const { agent } = await start([], { capabilities: {} });
    const created = await newSession(agent);
    expect(created.configOptions?.map((option) => option.id)).toEqual(["mode", "model", "effort"]);
    const answered = await setOption(agent, created.sessionId, "effort", "high");
    expect(answered.configOptions.map((option) => option.id)).toEqual(["mode", "model", "effort"]);
    await expect(setBoolean(agent, created.sessionId, "concise", true)).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid params: This session has no config option "concise"; its options are mode, model, effort.',
    });
  });

  it("keeps the values across a restart on SQLite: session/load and session/resume in a new process answer them, and the run uses them", async () => {
    const store = join(temp, "sessions.db");
    const model = await FakeModelServer.start([{ text: "before" }, { text: "after" }]);
    servers.push(model);
    const first = (await start([], { env: { WEFT_TEST_STORE: store }, server: model })).agent;
    const { sessionId } = await newSession(first);
    await first.prompt(sessionId, "remember me");
    await setOption(first, sessionId, "model", "smart");
    await setMode(first, sessionId, "code");
    await setBoolean(first, sessionId, "concise", true);
    await first.stop();

    const second = (await start([], { env: { WEFT_TEST_STORE: store }, server: model })).agent;
    const loaded = await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });
    expect(values(loaded.configOptions)).toEqual({ mode: "code", model: "smart", effort: "low", concise: true });
    expect(loaded.modes?.currentModeId).toBe("code");
    await second.prompt(sessionId, "and now?");
    expect(model.requests.map((request) => request.model)).toEqual(["fast-model", "smart-model"]);
    expect(systemOf(model.requests[1])).toBe("Mode: code. Effort: low. Concise: true.");
    await second.stop();

    const third = (await start([], { env: { WEFT_TEST_STORE: store }, server: model, capabilities: {} })).agent;
    const resumed = await third.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: temp });
    expect(values(resumed.configOptions)).toEqual({ mode: "code", model: "smart", effort: "low" });
    expect(resumed.modes?.currentModeId).toBe("code");
  });
});

describe("an agent without config options", () => {
  it("answers session/new without them and has no set_config_option or set_mode", async () => {
    const model = await FakeModelServer.start([]);
    servers.push(model);
    const agent = AgentProcess.start({ fixture: "agent.ts", env: { FAKE_MODEL_URL: model.url } });
    agents.push(agent);
    await agent.initialize(READS_BOOLEANS);
    const created = await newSession(agent);
    expect(Object.keys(created)).toEqual(["sessionId"]);
    await expect(setOption(agent, created.sessionId, "model", "fast")).rejects.toMatchObject({ code: -32601 });
    await expect(setMode(agent, created.sessionId, "ask")).rejects.toMatchObject({ code: -32601 });
  });
});
