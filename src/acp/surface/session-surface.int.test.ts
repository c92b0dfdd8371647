// What the editor shows about a session besides the turn: slash commands, usage and titles, and
// the session's other directories, driven by the official SDK client over a child process's stdio
// (test/fixtures/surface-agent.ts), every line checked against the SDK's schema and the order rules
// (test/support/acp-wire.ts): the commands only after the session/new answer, a /command run as a
// local reply, as a prompt and as the graph's input, usage with used ≤ size and a cost that adds up
// across turns and survives a restart, one title in the update and the list, and directories kept
// and listed.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, describe, expect, it } from "vitest";

import { AgentProcess } from "../../../test/support/agent-process.js";
import { startedAgents } from "../../../test/support/started-agents.js";
import { type ChatRequest, FakeModelServer, type FakeScript } from "../../testing/fake-model-server.js";

const temp = mkdtempSync(join(tmpdir(), "weft-surface-"));
const { agents, servers } = startedAgents();

afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

async function start(script: FakeScript = [], options: { env?: Record<string, string>; server?: FakeModelServer; fixture?: string } = {}) {
  const model = options.server ?? (await FakeModelServer.start(script));
  if (!options.server) {
    servers.push(model);
  }
  const agent = AgentProcess.start({ fixture: options.fixture ?? "surface-agent.ts", env: { FAKE_MODEL_URL: model.url, ...options.env } });
  agents.push(agent);
  await agent.initialize();
  return { agent, model };
}

const newSession = (agent: AgentProcess, extra: Partial<acp.NewSessionRequest> = {}) => agent.agent.request(acp.methods.agent.session.new, { cwd: temp, mcpServers: [], ...extra });
const list = async (agent: AgentProcess) => (await agent.agent.request(acp.methods.agent.session.list, {})).sessions;

/** The updates of one kind in a session, in arrival order. */
function updatesOf<Kind extends acp.SessionUpdate["sessionUpdate"]>(agent: AgentProcess, sessionId: string, kind: Kind): Array<Extract<acp.SessionUpdate, { sessionUpdate: Kind }>> {
  return agent.updatesOf(sessionId).filter((update): update is Extract<acp.SessionUpdate, { sessionUpdate: Kind }> => update.sessionUpdate === kind);
}

const commandNames = (agent: AgentProcess, sessionId: string) => updatesOf(agent, sessionId, "available_commands_update").map((update) => update.availableCommands.map((command) => command.name));
/** The text of the last user message a model request carried. */
const lastPrompt = (request: ChatRequest | undefined) => request?.messages.filter((message) => message.role === "user").at(-1)?.content;
/** Where in the agent's lines the first that passes `test` is. */
function lineOf(agent: AgentProcess, test: (message: Record<string, unknown>) => boolean): number {
  return agent.wire.fromAgent.findIndex(test);
}

/** The kinds of the session updates the agent wrote from line `from` on. */
function kindsFrom(agent: AgentProcess, from: number): string[] {
  return agent.wire.fromAgent.slice(from).flatMap((message) => (message.method === "session/update" ? [String((message.params as { update: { sessionUpdate: string } }).update.sessionUpdate)] : []));
}

describe("slash commands over stdio", () => {
  it("sends the commands only after the session/new answer, with hints for those that take input", async () => {
    const { agent } = await start();
    const { sessionId } = await newSession(agent);
    await agent.waitFor(() => commandNames(agent, sessionId).length > 0, "available_commands_update");
    const answer = lineOf(agent, (message) => (message.result as { sessionId?: unknown } | undefined)?.sessionId === sessionId);
    const commands = lineOf(agent, (message) => message.method === "session/update" && (message.params as { update: { sessionUpdate: string } }).update.sessionUpdate === "available_commands_update");
    expect(answer).toBeGreaterThanOrEqual(0);
    expect(commands).toBeGreaterThan(answer);
    expect(updatesOf(agent, sessionId, "available_commands_update")).toEqual([
      {
        sessionUpdate: "available_commands_update",
        availableCommands: [
          { name: "help", description: "Lists the commands." },
          { name: "review", description: "Reviews a file.", input: { hint: "a file to review" } },
          { name: "plan", description: "Plans a goal, step by step.", input: { hint: "the goal" } },
          { name: "broken", description: "Always fails." },
        ],
      },
    ]);
  });

  it("answers /help by itself: the reply is the agent's message, no model is called, and the conversation does not keep it", async () => {
    const { agent, model } = await start([{ text: "a real answer" }]);
    const { sessionId } = await newSession(agent);
    expect((await agent.prompt(sessionId, "/help")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Commands: /help, /review <file>, /plan <goal>.");
    expect(model.requests).toHaveLength(0);
    await agent.prompt(sessionId, "hello");
    expect(model.requests[0]?.messages.filter((message) => message.role === "user").map((message) => message.content)).toEqual(["hello"]);
  });

  it("runs /review as the prompt it gives, and /plan with the graph input it gives, the prompt kept as typed", async () => {
    const { agent, model } = await start([{ text: "reviewed" }, { text: "planned" }]);
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, [
      { type: "text", text: "/review src/app.ts" },
      { type: "resource_link", uri: `file://${temp}/src/app.ts`, name: "app.ts" },
    ]);
    expect(lastPrompt(model.requests[0])).toEqual([
      { type: "text", text: "Review src/app.ts and say what you would change." },
      { type: "text", text: expect.stringContaining("app.ts") },
    ]);
    await agent.prompt(sessionId, "/plan ship the release");
    expect(lastPrompt(model.requests[1])).toBe("PLAN: ship the release");
    // A load replays the prompts as the session kept them: the review as run, the plan as typed.
    const before = agent.updates.length;
    await agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });
    const replayed = agent.updates.slice(before).flatMap((notification) => (notification.update.sessionUpdate === "user_message_chunk" && notification.update.content.type === "text" ? [notification.update.content.text] : []));
    expect(replayed).toEqual(["Review src/app.ts and say what you would change.", "/plan ship the release"]);
  });

  it("sends an unknown /word to the model as a prompt, and answers a failing command with an error naming it", async () => {
    const { agent, model } = await start([{ text: "no such command, but here is an answer" }]);
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, "/etc/hosts looks odd");
    expect(lastPrompt(model.requests[0])).toBe("/etc/hosts looks odd");
    await expect(agent.prompt(sessionId, "/broken")).rejects.toMatchObject({ code: -32603, message: "The command /broken failed: nothing to break", data: { code: "command_failed", command: "broken" } });
    expect(model.requests).toHaveLength(1);
  });

  it("sends the list again when the mode changes the commands, and when the agent sets its own", async () => {
    const { agent } = await start([{ toolCalls: [{ name: "add_command", arguments: { name: "deploy" } }] }, { text: "Added." }]);
    const { sessionId } = await newSession(agent);
    await agent.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "code" });
    await agent.waitFor(() => commandNames(agent, sessionId).length === 2, "the code mode's commands");
    expect(commandNames(agent, sessionId)[1]).toEqual(["help", "review", "plan", "broken", "commit"]);
    expect((await agent.prompt(sessionId, "/commit")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Committed.");
    await agent.prompt(sessionId, "add a deploy command");
    expect(commandNames(agent, sessionId)[2]).toEqual(["help", "review", "plan", "broken", "deploy"]);
    const from = agent.updatesOf(sessionId).length;
    await agent.prompt(sessionId, "/deploy");
    expect(agent.textOf(sessionId, from)).toBe("Ran deploy.");
  });

  it("sends the commands, usage and title again after resume and load, each after its answer is written", async () => {
    const { agent } = await start([{ text: "hi" }]);
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, "remember the milk");
    for (const method of ["session/resume", "session/load"]) {
      const id = `${method}-1`;
      const from = agent.wire.fromAgent.length;
      agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id, method, params: { sessionId, cwd: temp, mcpServers: [] } }));
      await agent.rawResponse(id);
      await agent.waitFor(() => kindsFrom(agent, from).includes("session_info_update") && kindsFrom(agent, from).includes("usage_update"), `the updates after ${method}`);
      const lines = agent.wire.fromAgent.slice(from);
      const answer = lines.findIndex((message) => message.id === id);
      const kinds = lines.map((message, index) => [index, (message.params as { update?: { sessionUpdate?: string } } | undefined)?.update?.sessionUpdate] as const);
      for (const kind of ["available_commands_update", "usage_update", "session_info_update"]) {
        const at = kinds.find(([, each]) => each === kind)?.[0] ?? -1;
        expect(at, `${kind} after the ${method} answer`).toBeGreaterThan(answer);
      }
    }
    expect(updatesOf(agent, sessionId, "session_info_update").at(-1)).toEqual({ sessionUpdate: "session_info_update", title: "remember the milk", updatedAt: expect.any(String) });
  });
});

describe("usage over stdio", () => {
  it("sends usage after each model call, used ≤ size, the cost adding up across turns", async () => {
    const { agent } = await start([
      { toolCalls: [{ name: "add_command", arguments: { name: "x" } }], usage: { promptTokens: 100, completionTokens: 20 } },
      { text: "Added.", usage: { promptTokens: 150, completionTokens: 10 } },
      { text: "Again.", usage: { promptTokens: 200, completionTokens: 30 } },
    ]);
    const { sessionId } = await newSession(agent);
    await agent.waitFor(() => updatesOf(agent, sessionId, "usage_update").length === 1, "the usage after session/new");
    expect(updatesOf(agent, sessionId, "usage_update")).toEqual([{ sessionUpdate: "usage_update", used: 0, size: 1000 }]);
    await agent.prompt(sessionId, "add a command");
    await agent.prompt(sessionId, "and again");
    // fast-model costs 2 and 8 per million tokens: 100·2+20·8 = 360, 150·2+10·8 = 380, 200·2+30·8 = 640 millionths.
    expect(updatesOf(agent, sessionId, "usage_update").slice(1)).toEqual([
      { sessionUpdate: "usage_update", used: 120, size: 1000, cost: { amount: 0.00036, currency: "USD" } },
      { sessionUpdate: "usage_update", used: 160, size: 1000, cost: { amount: 0.00074, currency: "USD" } },
      { sessionUpdate: "usage_update", used: 230, size: 1000, cost: { amount: 0.00138, currency: "USD" } },
    ]);
    for (const update of updatesOf(agent, sessionId, "usage_update")) {
      expect(update.used).toBeLessThanOrEqual(update.size);
    }
  });

  it("shows a full window, never more, when the context outgrows the model's (after a switch to a smaller one)", async () => {
    const { agent } = await start([{ text: "long", usage: { promptTokens: 400, completionTokens: 100 } }, { text: "longer", usage: { promptTokens: 600, completionTokens: 100 } }]);
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, "first");
    await agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "smart" });
    await agent.prompt(sessionId, "second");
    const shown = updatesOf(agent, sessionId, "usage_update").map((update) => [update.used, update.size]);
    // After session/new, after the first call, after the switch (the smart model's 50 tokens), after the second call.
    expect(shown).toEqual([
      [0, 1000],
      [500, 1000],
      [50, 50],
      [50, 50],
    ]);
  });

  it("keeps the cost across a restart on SQLite: load and resume send it, and the next call adds to it", async () => {
    const store = join(temp, "usage.db");
    const model = await FakeModelServer.start([{ text: "before" }, { text: "after" }]);
    servers.push(model);
    const first = (await start([], { env: { WEFT_TEST_STORE: store }, server: model })).agent;
    const { sessionId } = await newSession(first);
    await first.prompt(sessionId, "remember this");
    await first.stop();

    const second = (await start([], { env: { WEFT_TEST_STORE: store }, server: model })).agent;
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });
    await second.waitFor(() => updatesOf(second, sessionId, "usage_update").length === 1, "the usage after load");
    // The default reply reports 12 input and 7 output tokens: 12·2+7·8 = 80 millionths.
    expect(updatesOf(second, sessionId, "usage_update")).toEqual([{ sessionUpdate: "usage_update", used: 19, size: 1000, cost: { amount: 0.00008, currency: "USD" } }]);
    await second.prompt(sessionId, "and now?");
    expect(updatesOf(second, sessionId, "usage_update").at(-1)).toEqual({ sessionUpdate: "usage_update", used: 19, size: 1000, cost: { amount: 0.00016, currency: "USD" } });
    await second.stop();

    const third = (await start([], { env: { WEFT_TEST_STORE: store }, server: model })).agent;
    await third.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: temp });
    await third.waitFor(() => updatesOf(third, sessionId, "usage_update").length === 1, "the usage after resume");
    expect(updatesOf(third, sessionId, "usage_update")).toEqual([{ sessionUpdate: "usage_update", used: 19, size: 1000, cost: { amount: 0.00016, currency: "USD" } }]);
  });

  it("sends no usage and no commands from an agent that offers neither", async () => {
    const { agent } = await start([{ text: "hi" }], { fixture: "agent.ts" });
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, "hello");
    await agent.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: temp });
    // The title comes at the first prompt, and again after the resume answer, as the last update.
    await agent.waitFor(() => updatesOf(agent, sessionId, "session_info_update").filter((update) => update.title !== undefined).length === 2, "the title after resume");
    const kinds = new Set(agent.updatesOf(sessionId).map((update) => update.sessionUpdate));
    expect(kinds.has("usage_update")).toBe(false);
    expect(kinds.has("available_commands_update")).toBe(false);
  });
});

describe("titles over stdio", () => {
  it("titles a new session by its first prompt, the same in session_info_update and session/list", async () => {
    const { agent } = await start([{ text: "one" }, { text: "two" }]);
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, "Refactor   the parser\nso it streams");
    await agent.prompt(sessionId, "and add tests");
    const [update] = updatesOf(agent, sessionId, "session_info_update");
    expect(update).toEqual({ sessionUpdate: "session_info_update", title: "Refactor the parser so it streams", updatedAt: expect.any(String) });
    const listed = (await list(agent)).find((session) => session.sessionId === sessionId);
    expect(listed?.title).toBe("Refactor the parser so it streams");
    // updatedAt is kept current: the list and the last update give the time of the last write.
    const last = updatesOf(agent, sessionId, "session_info_update").at(-1);
    expect(listed?.updatedAt).toBe(last?.updatedAt);
    expect(Date.parse(String(last?.updatedAt))).toBeGreaterThanOrEqual(Date.parse(String(update?.updatedAt)));
  });

  it("takes the integrator's title(), and keeps the default when it fails", async () => {
    const made = (await start([{ text: "ok" }], { env: { WEFT_TEST_TITLE: "made" } })).agent;
    const { sessionId } = await newSession(made);
    await made.prompt(sessionId, "please speed up the build");
    await made.waitFor(() => updatesOf(made, sessionId, "session_info_update").some((update) => update.title === "Made: please speed up"), "the made title");
    expect((await list(made)).find((session) => session.sessionId === sessionId)?.title).toBe("Made: please speed up");

    const failing = (await start([{ text: "ok" }], { env: { WEFT_TEST_TITLE: "fail" } })).agent;
    const other = (await newSession(failing)).sessionId;
    await failing.prompt(other, "please speed up the build");
    await failing.waitFor(() => updatesOf(failing, other, "session_info_update").some((update) => update.title !== undefined), "the default title");
    expect(updatesOf(failing, other, "session_info_update").find((update) => update.title !== undefined)?.title).toBe("please speed up the build");
    expect((await list(failing)).find((session) => session.sessionId === other)?.title).toBe("please speed up the build");
    expect(failing.stderr).toContain("title() failed");
  });
});

describe("additional directories over stdio", () => {
  it("advertises them, keeps them in the record and lists them; a load or resume gives the session its new list", async () => {
    const { agent } = await start();
    const capabilities = await agent.initialize();
    expect(capabilities.agentCapabilities?.sessionCapabilities?.additionalDirectories).toEqual({});
    const lib = join(temp, "lib");
    const docs = join(temp, "docs");
    const { sessionId } = await newSession(agent, { additionalDirectories: [lib, docs, lib] });
    const entry = async () => (await list(agent)).find((session) => session.sessionId === sessionId);
    expect((await entry())?.additionalDirectories).toEqual([lib, docs]);
    await agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [], additionalDirectories: [docs] });
    expect((await entry())?.additionalDirectories).toEqual([docs]);
    await agent.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: temp });
    const resumed = await entry();
    expect(resumed && "additionalDirectories" in resumed).toBe(false);
  });

  it("refuses a directory that is not absolute with invalid params, on new, load and resume", async () => {
    const { agent } = await start();
    const { sessionId } = await newSession(agent);
    const refused = { code: -32602, message: 'Invalid params: additionalDirectories must be absolute paths, not "lib".', data: { additionalDirectories: "lib" } };
    await expect(newSession(agent, { additionalDirectories: ["lib"] })).rejects.toMatchObject(refused);
    await expect(agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [], additionalDirectories: [temp, "lib"] })).rejects.toMatchObject(refused);
    await expect(agent.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: temp, additionalDirectories: ["lib"] })).rejects.toMatchObject(refused);
    expect((await list(agent)).map((session) => session.sessionId)).toEqual([sessionId]);
  });
});
