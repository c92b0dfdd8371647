// `weft acp` as an editor runs it: the built command as a child process, driven by the SDK client,
// with its model pointed at the fake OpenAI-compatible server.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import type { AgentProcess } from "../../test/support/agent-process.js";
import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import { noModelMessage } from "../models/unconfigured-model.js";
import type { FakeModelServer, FakeScript } from "../testing/fake-model-server.js";

const harness = weftAcpHarness();
let model: FakeModelServer | undefined;

function weftAcp(env: Record<string, string | undefined>, args: string[] = []): AgentProcess {
  return harness.start(env, args);
}

async function fakeModel(script: FakeScript): Promise<Record<string, string>> {
  const fake = await harness.fakeModel(script);
  model = fake.model;
  return fake.env;
}

describe("weft acp", () => {
  it("reads a file and, only after permission, edits another on disk", async () => {
    writeFileSync(join(harness.project, "notes.md"), "Remember the milk.\n");
    writeFileSync(join(harness.project, "todo.txt"), "- buy bread\n");
    const env = await fakeModel([
      { toolCalls: [{ name: "read_file", arguments: { path: "notes.md" }, id: "r" }] },
      { toolCalls: [{ name: "edit_file", arguments: { path: "todo.txt", old_text: "- buy bread", new_text: "- buy bread\n- buy milk" }, id: "e" }] },
      { text: "Added milk to your list." },
    ]);
    const agent = weftAcp(env);
    const init = await agent.initialize();
    expect(init.agentInfo).toMatchObject({ name: "weft", title: "weft" });
    let fileWhenAsked = "";
    agent.answerPermission = (request) => {
      fileWhenAsked = readFileSync(join(harness.project, "todo.txt"), "utf8");
      // What the person approves: the tool's own title and the diff, before anything is written.
      expect(request.toolCall).toMatchObject({
        title: "Edit todo.txt",
        kind: "edit",
        locations: [{ path: join(harness.project, "todo.txt"), line: 1 }],
        content: [{ type: "diff", path: join(harness.project, "todo.txt"), oldText: "- buy bread\n", newText: "- buy bread\n- buy milk\n" }],
      });
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    };
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "add milk to my todo list")).stopReason).toBe("end_turn");
    expect(agent.permissions).toHaveLength(1);
    expect(fileWhenAsked).toBe("- buy bread\n");
    expect(readFileSync(join(harness.project, "todo.txt"), "utf8")).toBe("- buy bread\n- buy milk\n");
    expect(model?.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe("Remember the milk.\n");
    expect(agent.textOf(sessionId)).toBe("Added milk to your list.");
    // The default store is SQLite under $XDG_STATE_HOME.
    expect(existsSync(join(harness.home, "weft", "sessions.db"))).toBe(true);
  });

  it("reloads a session after a restart with the same --sessions file", async () => {
    const sessions = join(harness.home, "mine.db");
    const env = await fakeModel([{ text: "First answer." }, { text: "Second answer." }]);
    const first = weftAcp(env, ["--sessions", sessions]);
    await first.initialize();
    const sessionId = await first.newSession(harness.project);
    await first.prompt(sessionId, "first question");
    await first.stop();

    const second = weftAcp(env, ["--sessions", sessions]);
    const init = await second.initialize();
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ list: {}, resume: {}, close: {} });
    const listed = await second.agent.request(acp.methods.agent.session.list, { cwd: harness.project });
    expect(listed.sessions.map((session) => session.sessionId)).toEqual([sessionId]);
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: harness.project, mcpServers: [] });
    expect(second.textOf(sessionId)).toBe("First answer.");
    await second.prompt(sessionId, "second question");
    expect(model?.requests[1]?.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
  });

  it("starts without a model and answers every prompt with how to configure one", async () => {
    const agent = weftAcp({});
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "hello?")).stopReason).toBe("end_turn");
    // The config file named is the one this agent reads, under its XDG_CONFIG_HOME.
    const configFile = join(harness.configHome, "weft", "config.json");
    expect(agent.textOf(sessionId)).toBe(noModelMessage(configFile));
    expect(agent.textOf(sessionId)).toContain(`list models in ${configFile}`);
    expect(agent.stderr).toContain(`No model is configured (run weft setup, write ${configFile}`);
  });

  it("tells the person, in the turn, when the model cannot be reached or refuses the key", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const unreachable = weftAcp({ WEFT_MODEL: "openai-compatible:gone", WEFT_BASE_URL: `http://127.0.0.1:${closedPort}/v1` });
    await unreachable.initialize();
    const sessionId = await unreachable.newSession(harness.project);
    expect((await unreachable.prompt(sessionId, "hello?")).stopReason).toBe("end_turn");
    expect(unreachable.textOf(sessionId)).toMatch(/The model openai-compatible.*\/gone failed: the model server could not be reached/);
    expect(unreachable.textOf(sessionId)).not.toMatch(/\n\s+at /);

    const env = await fakeModel([{ status: 401, error: "Incorrect API key provided" }]);
    const refused = weftAcp({ ...env, WEFT_API_KEY: "sk-wrong" });
    await refused.initialize();
    const other = await refused.newSession(harness.project);
    expect((await refused.prompt(other, "hello?")).stopReason).toBe("end_turn");
    expect(refused.textOf(other)).toContain("the provider refused the API key (HTTP 401)");
  });

  it("writes a wire log to stderr with WEFT_LOG=debug, and nothing but ACP to stdout", async () => {
    const env = await fakeModel([{ text: "hi" }]);
    const agent = weftAcp({ ...env, WEFT_LOG: "debug" });
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    await agent.prompt(sessionId, "hello");
    expect(agent.stderr).toContain('editor → {"jsonrpc":"2.0","id":0,"method":"initialize"');
    expect(agent.stderr).toContain("← agent");
    expect(agent.wire.problems).toEqual([]);
  });

  it("stops waiting for a silent model after --model-timeout and the next prompt works", async () => {
    const env = await fakeModel([{ neverAnswer: true }, { text: "Back again." }]);
    // Long enough that the second, prompt reply never trips it on a loaded machine.
    const agent = weftAcp(env, ["--model-timeout", "3"]);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "hello?")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toMatch(/sent nothing for 3 s; weft stopped waiting/);
    const before = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "again?")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId, before)).toBe("Back again.");
  });
});
