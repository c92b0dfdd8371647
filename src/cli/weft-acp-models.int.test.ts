// The models `weft acp` offers, as an editor sees them: the config file, WEFT_MODELS, a server's own
// list, switching models mid-session and after a restart, the thought level, usage and compaction
// from the picked model's window (known-models table, config file, WEFT_CONTEXT_WINDOW), titles from
// the picked model, `weft setup` driven through stdin, and its offer as a terminal sign-in.

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import type { AgentProcess } from "../../test/support/agent-process.js";
import { repoRoot } from "../../test/support/agent-process.js";
import { PtyProcess } from "../../test/support/pty.js";
import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import type { ChatRequest, FakeModelServer } from "../testing/fake-model-server.js";

const harness = weftAcpHarness();

function writeConfig(config: unknown): string {
  const directory = join(harness.configHome, "weft");
  mkdirSync(directory, { recursive: true });
  const path = join(directory, "config.json");
  writeFileSync(path, typeof config === "string" ? config : JSON.stringify(config));
  return path;
}

/** A fake server that answers every request with the model it was asked for. */
async function echoServer(models?: readonly string[]): Promise<FakeModelServer> {
  const { model } = await harness.fakeModel((request) => ({ text: `I am ${request.model}.` }), models ? { models } : {});
  return model;
}

async function newSession(agent: AgentProcess): Promise<acp.NewSessionResponse> {
  return agent.agent.request(acp.methods.agent.session.new, { cwd: harness.project, mcpServers: [] });
}

function option(options: acp.SessionConfigOption[] | null | undefined, id: string): Extract<acp.SessionConfigOption, { type: "select" }> | undefined {
  return options?.find((entry): entry is Extract<acp.SessionConfigOption, { type: "select" }> => entry.id === id && entry.type === "select");
}

function values(select: Extract<acp.SessionConfigOption, { type: "select" }> | undefined): string[] {
  return (select?.options ?? []).flatMap((entry) => ("group" in entry ? entry.options : [entry])).map((choice) => choice.value);
}

function setModel(agent: AgentProcess, sessionId: string, value: string, configId = "model"): Promise<acp.SetSessionConfigOptionResponse> {
  return agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId, value });
}

function weft(args: string[], env: Record<string, string | undefined>, input = "") {
  return spawnSync(process.execPath, [join(repoRoot, "bin/weft.js"), ...args], {
    encoding: "utf8",
    env: { ...process.env, WEFT_MODEL: undefined, WEFT_MODELS: undefined, WEFT_BASE_URL: undefined, WEFT_API_KEY: undefined, XDG_STATE_HOME: harness.home, XDG_CONFIG_HOME: harness.configHome, ...env },
    input,
  });
}

/** `weft` without blocking this process, for a run that talks to a fake server of this test's. */
describe("weft acp's models", () => {
  it("offers the config file's models, switches between them mid-session, and keeps the choice across a restart", async () => {
    const server = await echoServer();
    writeConfig({
      models: [
        { model: "openai-compatible:small", name: "Small", baseURL: server.url, listServerModels: false },
        { model: "openai-compatible:large", name: "Large", baseURL: server.url, listServerModels: false },
      ],
      default: "openai-compatible:small",
    });
    const first = harness.start();
    await first.initialize();
    const created = await newSession(first);
    const picker = option(created.configOptions, "model");
    expect(picker).toMatchObject({ category: "model", currentValue: "openai-compatible:small" });
    expect(picker?.options).toEqual([
      { value: "openai-compatible:small", name: "Small" },
      { value: "openai-compatible:large", name: "Large" },
    ]);
    await first.prompt(created.sessionId, "who are you?");
    expect(server.requests.at(-1)?.model).toBe("small");

    const answer = await setModel(first, created.sessionId, "openai-compatible:large");
    expect(option(answer.configOptions, "model")?.currentValue).toBe("openai-compatible:large");
    await first.prompt(created.sessionId, "and now?");
    expect(server.requests.at(-1)?.model).toBe("large");
    await first.stop();

    const second = harness.start();
    await second.initialize();
    const loaded = await second.agent.request(acp.methods.agent.session.load, { sessionId: created.sessionId, cwd: harness.project, mcpServers: [] });
    expect(option(loaded.configOptions, "model")?.currentValue).toBe("openai-compatible:large");
    await second.prompt(created.sessionId, "still you?");
    expect(server.requests.map((request) => request.model)).toEqual(["small", "large", "large"]);
  });

  it("offers WEFT_MODELS, with WEFT_MODEL first and the default", async () => {
    const server = await echoServer();
    const agent = harness.start({ WEFT_MODELS: "openai-compatible:one, openai-compatible:two", WEFT_MODEL: "openai-compatible:two", WEFT_BASE_URL: server.url });
    await agent.initialize();
    const created = await newSession(agent);
    const picker = option(created.configOptions, "model");
    expect(values(picker)).toEqual(["openai-compatible:two", "openai-compatible:one"]);
    expect(picker?.currentValue).toBe("openai-compatible:two");
    await setModel(agent, created.sessionId, "openai-compatible:one");
    await agent.prompt(created.sessionId, "hello");
    expect(server.requests.at(-1)?.model).toBe("one");
  });

  it("offers the models in the models field of new, load and resume answers too, and takes session/set_model as the picker does", async () => {
    const server = await echoServer();
    const env = { WEFT_MODELS: "openai-compatible:one, openai-compatible:two", WEFT_MODEL: "openai-compatible:two", WEFT_BASE_URL: server.url };
    const agent = harness.start(env);
    await agent.initialize();
    // Raw answers: the SDK's client drops a field its schema no longer has.
    agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "new", method: "session/new", params: { cwd: harness.project, mcpServers: [] } }));
    const created = (await agent.rawResponse("new")).result as { sessionId: string; models?: unknown };
    const available = [
      { modelId: "openai-compatible:two", name: "openai-compatible:two" },
      { modelId: "openai-compatible:one", name: "openai-compatible:one" },
    ];
    expect(created.models).toEqual({ currentModelId: "openai-compatible:two", availableModels: available });

    const mark = agent.updatesOf(created.sessionId).length;
    agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "pick", method: "session/set_model", params: { sessionId: created.sessionId, modelId: "openai-compatible:one" } }));
    expect(await agent.rawResponse("pick")).toMatchObject({ result: {} });
    // The picker follows: the editor is told the full option list.
    await agent.waitFor(() => agent.updatesOf(created.sessionId).slice(mark).some((update) => update.sessionUpdate === "config_option_update"), "config_option_update");
    const update = agent.updatesOf(created.sessionId).slice(mark).find((entry) => entry.sessionUpdate === "config_option_update");
    expect(update?.sessionUpdate === "config_option_update" && option(update.configOptions, "model")?.currentValue).toBe("openai-compatible:one");
    await agent.prompt(created.sessionId, "hello");
    expect(server.requests.at(-1)?.model).toBe("one");

    agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "wrong", method: "session/set_model", params: { sessionId: created.sessionId, modelId: "openai-compatible:three" } }));
    expect(await agent.rawResponse("wrong")).toMatchObject({ error: { code: -32602 } });
    await agent.stop();

    const again = harness.start(env);
    await again.initialize();
    again.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "load", method: "session/load", params: { sessionId: created.sessionId, cwd: harness.project, mcpServers: [] } }));
    expect(((await again.rawResponse("load")).result as { models?: unknown }).models).toEqual({ currentModelId: "openai-compatible:one", availableModels: available });
    again.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "close", method: "session/close", params: { sessionId: created.sessionId } }));
    await again.rawResponse("close");
    again.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "resume", method: "session/resume", params: { sessionId: created.sessionId, cwd: harness.project } }));
    expect(((await again.rawResponse("resume")).result as { models?: unknown }).models).toEqual({ currentModelId: "openai-compatible:one", availableModels: available });
  });

  it("adds the models an OpenAI-compatible server lists, and uses one picked from them", async () => {
    const server = await echoServer(["served-a", "served-b"]);
    writeConfig({ models: [{ model: "openai-compatible:configured", baseURL: server.url }] });
    const agent = harness.start();
    await agent.initialize();
    const created = await newSession(agent);
    expect(values(option(created.configOptions, "model"))).toEqual(["openai-compatible:configured", "openai-compatible:served-a", "openai-compatible:served-b"]);
    expect(server.modelListRequests).toBe(1);
    await setModel(agent, created.sessionId, "openai-compatible:served-b");
    await agent.prompt(created.sessionId, "hello");
    expect(server.requests.at(-1)?.model).toBe("served-b");
  });

  it("starts and offers the configured models when the server's list cannot be had", async () => {
    // The fake server has no /models route: it answers 404.
    const server = await echoServer();
    writeConfig({ models: [{ model: "openai-compatible:configured", baseURL: server.url }] });
    const agent = harness.start({ WEFT_LOG: "warn" });
    await agent.initialize();
    const created = await newSession(agent);
    expect(values(option(created.configOptions, "model"))).toEqual(["openai-compatible:configured"]);
    expect(agent.stderr).toContain("list of models is left out");
    await agent.prompt(created.sessionId, "hello");
    expect(server.requests.at(-1)?.model).toBe("configured");
  });

  it("sends usage_update with the context window from the table of known models, or the config file's", async () => {
    const server = await echoServer();
    writeConfig({
      models: [
        { model: "openai-compatible:llama3.1:8b", baseURL: server.url, listServerModels: false },
        { model: "openai-compatible:custom", baseURL: server.url, listServerModels: false, contextWindow: 5000, prices: { inputPerMillion: 1000, outputPerMillion: 2000 } },
      ],
    });
    const agent = harness.start();
    await agent.initialize();
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, "hello");
    const sizes = () => agent.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "usage_update" ? [update] : []));
    expect(sizes().at(-1)).toMatchObject({ size: 131_072, used: 19 });
    await setModel(agent, sessionId, "openai-compatible:custom");
    await agent.prompt(sessionId, "again");
    // 12 input and 7 output tokens at 1000 and 2000 USD per million.
    expect(sizes().at(-1)).toMatchObject({ size: 5000, used: 19, cost: { amount: 0.026, currency: "USD" } });
  });

  it("sends usage_update for a model it does not know with the window its server tells: vLLM's max_model_len, Ollama's /api/show", async () => {
    const vllm = (
      await harness.fakeModel(() => ({ text: "hi" }), {
        routes: { "GET /v1/models": { object: "list", data: [{ id: "house-model", object: "model", created: 1, owned_by: "vllm", root: "house-model", max_model_len: 8192, permission: [] }] } },
      })
    ).model;
    const usages = (agent: AgentProcess, sessionId: string) => agent.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "usage_update" ? [update] : []));
    const first = harness.start({ WEFT_MODEL: "openai-compatible:house-model", WEFT_BASE_URL: vllm.url });
    await first.initialize();
    const { sessionId } = await newSession(first);
    await first.waitFor(() => usages(first, sessionId).length > 0, "usage_update after session/new");
    expect(usages(first, sessionId)[0]).toMatchObject({ size: 8192, used: 0 });
    await first.prompt(sessionId, "hello");
    expect(usages(first, sessionId).at(-1)).toMatchObject({ size: 8192, used: 19 });

    const ollama = (
      await harness.fakeModel(() => ({ text: "hi" }), {
        routes: {
          "GET /v1/models": { object: "list", data: [{ id: "mystery:7b", object: "model", created: 1, owned_by: "library" }] },
          "POST /api/show": (body: { model?: string }) =>
            body.model === "mystery:7b" ? { parameters: "num_ctx 12288", details: { family: "mystery" }, model_info: { "general.architecture": "mystery", "mystery.context_length": 65536 } } : undefined,
        },
      })
    ).model;
    const second = harness.start({ WEFT_MODEL: "ollama:mystery:7b", WEFT_BASE_URL: ollama.url });
    await second.initialize();
    const other = await newSession(second);
    await second.prompt(other.sessionId, "hello");
    expect(usages(second, other.sessionId).at(-1)).toMatchObject({ size: 12288, used: 19 });
  });

  it("keeps each call within the window of the model the session picked, and WEFT_CONTEXT_WINDOW overrides it", async () => {
    const words = (count: number, word: string) => Array.from({ length: count }, () => word).join(" ");
    // A token for every 4 characters of the request body, as the compaction tests count them.
    const bodyTokens = (request: ChatRequest) => Math.ceil(JSON.stringify(request).length / 4);
    const isSummary = (request: ChatRequest) => typeof request.messages[0]?.content === "string" && request.messages[0].content.startsWith("You condense");
    const { model: server } = await harness.fakeModel((request) => ({
      text: isSummary(request) ? "Summary: the person asked about the lexer." : `Here is what I found: ${words(200, "parser")}.`,
      usage: { promptTokens: bodyTokens(request), completionTokens: 100 },
    }));
    writeConfig({
      models: [
        { model: "openai-compatible:roomy", baseURL: server.url, listServerModels: false },
        { model: "openai-compatible:tight", baseURL: server.url, listServerModels: false, contextWindow: 6000 },
      ],
    });
    const agent = harness.start();
    await agent.initialize();
    const { sessionId } = await newSession(agent);
    const question = (turn: number) => `Question ${turn}: ${words(300, "lexer")}`;
    // A model whose window weft does not know: the whole conversation goes each time, and no usage is sent.
    for (let turn = 0; turn < 4; turn++) {
      expect((await agent.prompt(sessionId, question(turn))).stopReason).toBe("end_turn");
    }
    expect(server.requests.some(isSummary)).toBe(false);
    expect(agent.updatesOf(sessionId).some((update) => update.sessionUpdate === "usage_update")).toBe(false);
    const before = server.requests.length;
    await setModel(agent, sessionId, "openai-compatible:tight");
    for (let turn = 4; turn < 12; turn++) {
      expect((await agent.prompt(sessionId, question(turn))).stopReason).toBe("end_turn");
    }
    const after = server.requests.slice(before);
    expect(after.some(isSummary)).toBe(true);
    for (const request of after) {
      expect(bodyTokens(request)).toBeLessThanOrEqual(6000);
    }
    expect(after.filter((request) => !isSummary(request)).every((request) => request.model === "tight")).toBe(true);
    const usage = () => agent.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "usage_update" ? [update] : []));
    expect(usage().at(-1)).toMatchObject({ size: 6000 });

    const overridden = harness.start({ WEFT_CONTEXT_WINDOW: "7000" });
    await overridden.initialize();
    const second = await newSession(overridden);
    await setModel(overridden, second.sessionId, "openai-compatible:tight");
    await overridden.prompt(second.sessionId, "hello");
    const sizes = overridden.updatesOf(second.sessionId).flatMap((update) => (update.sessionUpdate === "usage_update" ? [update.size] : []));
    expect(sizes.at(-1)).toBe(7000);
  });

  it("/model lists the configured models and those the server lists, and switches to one as the picker does", async () => {
    const server = await echoServer(["served"]);
    writeConfig({ models: [{ model: "openai-compatible:configured", name: "Configured", baseURL: server.url }] });
    const agent = harness.start();
    await agent.initialize();
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, "/model");
    expect(agent.textOf(sessionId)).toBe(`The model is Configured. The models:\n- openai-compatible:configured (Configured), current\n- openai-compatible:served (served): Listed by ${server.url}\n\nSwitch with /model <model>.`);
    const seen = agent.updatesOf(sessionId).length;
    await agent.prompt(sessionId, "/model served");
    expect(agent.textOf(sessionId, seen)).toBe("Switched to served; the next model call uses it.");
    const shown = agent.updatesOf(sessionId).slice(seen).flatMap((update) => (update.sessionUpdate === "config_option_update" ? [update.configOptions] : []));
    expect(option(shown.at(-1), "model")?.currentValue).toBe("openai-compatible:served");
    await agent.prompt(sessionId, "hello");
    expect(server.requests.map((request) => request.model)).toEqual(["served"]);
  });

  it("asks the title of the model the session picked", async () => {
    const { model: server } = await harness.fakeModel((request) => ({ text: `I am ${request.model}.` }), { sideCalls: [{ text: "Greeting the large model" }] });
    writeConfig({
      models: [
        { model: "openai-compatible:small", baseURL: server.url, listServerModels: false },
        { model: "openai-compatible:large", baseURL: server.url, listServerModels: false },
      ],
    });
    const agent = harness.start();
    await agent.initialize();
    const { sessionId } = await newSession(agent);
    await setModel(agent, sessionId, "openai-compatible:large");
    await agent.prompt(sessionId, "hello there");
    await agent.waitFor(() => server.sideRequests.length > 0, "the title side call");
    expect((server.sideRequests[0] as ChatRequest).model).toBe("large");
    expect(server.requests.map((request) => request.model)).toEqual(["large"]);
  });

  it("offers a thought level only while a model that reasons is picked, and sends it with the request", async () => {
    const server = await echoServer();
    writeConfig({
      models: [
        { model: "openai-compatible:plain", baseURL: server.url, listServerModels: false },
        { model: "openai-compatible:thinker", baseURL: server.url, listServerModels: false, reasoning: true },
      ],
    });
    const agent = harness.start();
    await agent.initialize();
    const created = await newSession(agent);
    expect(option(created.configOptions, "thought_level")).toBeUndefined();
    await expect(setModel(agent, created.sessionId, "high", "thought_level")).rejects.toThrow();

    const switched = await setModel(agent, created.sessionId, "openai-compatible:thinker");
    expect(option(switched.configOptions, "thought_level")).toMatchObject({ category: "thought_level", currentValue: "medium" });
    expect(values(option(switched.configOptions, "thought_level"))).toEqual(["low", "medium", "high"]);
    await setModel(agent, created.sessionId, "high", "thought_level");
    await agent.prompt(created.sessionId, "think hard");
    expect(server.requests.at(-1)).toMatchObject({ model: "thinker", reasoning_effort: "high" });

    const back = await setModel(agent, created.sessionId, "openai-compatible:plain");
    expect(option(back.configOptions, "thought_level")).toBeUndefined();
    await agent.prompt(created.sessionId, "just answer");
    expect(server.requests.at(-1)?.model).toBe("plain");
    expect(server.requests.at(-1)).not.toHaveProperty("reasoning_effort");
  });

  it("refuses a config file it cannot use with exit code 2, naming the file and the field", () => {
    const path = writeConfig({ models: [{ model: "openai:gpt-4.1", contextWindow: "big" }] });
    const result = weft(["acp"], {});
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(path);
    expect(result.stderr).toContain("models[0].contextWindow must be a whole number of tokens above 0");

    writeConfig({ models: [{ model: "openai:gpt-4.1", nmae: "typo" }] });
    expect(weft(["acp"], {}).stderr).toContain("models[0].nmae is not a field weft knows");
    writeConfig("{ not json");
    const broken = weft(["acp"], {});
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain(`The config file ${path} is not valid JSON`);
  });

  it("weft setup, fed through stdin, writes the config and a key only its owner can read, and weft acp uses them", async () => {
    const server = await echoServer(["served-model"]);
    // Provider 4 (OpenAI-compatible), its base URL, the key, then the model (the server's listed one).
    const result = await harness.run(["setup"], {}, `4\n${server.url}\nsk-secret-123\n\n`);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain("sk-secret-123");
    expect(result.stdout).toContain("The server lists: served-model");
    const directory = join(harness.configHome, "weft");
    const config = JSON.parse(readFileSync(join(directory, "config.json"), "utf8")) as unknown;
    // The key file is the server's own, named after its host, port and path.
    const serverKey = `keys/openai-compatible-127.0.0.1-${new URL(server.url).port}-v1.key`;
    expect(config).toEqual({ models: [{ model: "openai-compatible:served-model", baseURL: server.url, apiKeyFile: serverKey }], default: "openai-compatible:served-model" });
    const keyFile = join(directory, serverKey);
    expect(readFileSync(keyFile, "utf8").trim()).toBe("sk-secret-123");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(statSync(join(directory, "keys")).mode & 0o777).toBe(0o700);

    const agent = harness.start();
    await agent.initialize();
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, "hello");
    expect(server.requests.at(-1)?.model).toBe("served-model");
    expect(server.requestHeaders.at(-1)?.authorization).toBe("Bearer sk-secret-123");
  });

  it("weft setup on a terminal does not show the key as it is typed", async () => {
    const setup = new PtyProcess(`${process.execPath} ${join(repoRoot, "bin/weft.js")} setup`, { env: { XDG_CONFIG_HOME: harness.configHome } });
    try {
      await setup.waitFor(/Provider \[1\]: $/);
      setup.type("1\r");
      await setup.waitFor(/API key \(not shown\): $/);
      setup.type("sk-typed-secret\r");
      await setup.waitFor(/Model \[gpt-4\.1\]: $/);
      setup.type("\r");
      expect(await setup.exited).toBe(0);
      expect(setup.text).toContain("weft acp now starts with openai:gpt-4.1");
      expect(setup.text).not.toContain("sk-typed-secret");
      expect(readFileSync(join(harness.configHome, "weft", "keys", "openai.key"), "utf8")).toBe("sk-typed-secret\n");
    } finally {
      setup.kill();
    }
  });

  it("weft acp --setup runs setup, stops without writing when the answers run out, and adds to what an earlier run wrote", () => {
    const stopped = weft(["acp", "--setup"], {}, "2\n");
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toContain("nothing was written");
    const done = weft(["acp", "--setup"], {}, "anthropic\nkey-abc\nclaude-sonnet-4-5\n");
    expect(done.status).toBe(0);
    const config = JSON.parse(readFileSync(join(harness.configHome, "weft", "config.json"), "utf8")) as unknown;
    expect(config).toEqual({ models: [{ model: "anthropic:claude-sonnet-4-5", apiKeyFile: "keys/anthropic.key" }], default: "anthropic:claude-sonnet-4-5" });
    // A second run adds its model first, as the default, and keeps the others.
    expect(weft(["setup"], {}, "1\nkey-openai\ngpt-5\n").status).toBe(0);
    const both = JSON.parse(readFileSync(join(harness.configHome, "weft", "config.json"), "utf8")) as unknown;
    expect(both).toEqual({
      models: [
        { model: "openai:gpt-5", apiKeyFile: "keys/openai.key" },
        { model: "anthropic:claude-sonnet-4-5", apiKeyFile: "keys/anthropic.key" },
      ],
      default: "openai:gpt-5",
    });
  });

  it("offers weft setup as a terminal sign-in only to editors that advertise auth.terminal", async () => {
    const plain = harness.start();
    expect((await plain.initialize()).authMethods).toEqual([]);
    const terminal = harness.start();
    const init = await terminal.initialize({ auth: { terminal: true } });
    expect(init.authMethods).toEqual([{ type: "terminal", id: "weft-setup", name: "Set up a model", description: expect.any(String), args: ["--setup"] }]);
    await expect(terminal.agent.request(acp.methods.agent.authenticate, { methodId: "weft-setup" })).rejects.toThrow(/terminal method/);
    // With no model set up, that editor is asked to sign in before a session; the other is not.
    await expect(newSession(terminal)).rejects.toMatchObject({ code: -32000 });
    expect((await newSession(plain)).sessionId).toMatch(/^sess_/);
  });

  it("starts sessions for an editor with auth.terminal once a model is set up", async () => {
    const server = await echoServer();
    const agent = harness.start({ WEFT_MODEL: "openai-compatible:ready", WEFT_BASE_URL: server.url });
    expect((await agent.initialize({ auth: { terminal: true } })).authMethods).toHaveLength(1);
    const { sessionId } = await newSession(agent);
    await agent.prompt(sessionId, "hello");
    expect(server.requests.at(-1)?.model).toBe("ready");
  });
});
