// The examples run as real agents: each is started with tsx (or served by `weft acp --graph`) and
// driven by the SDK client.

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { afterEach, describe, expect, it } from "vitest";

import { AgentProcess, repoRoot } from "../test/support/agent-process.js";
import { textClient } from "../test/support/text-client.js";
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

// By URL, so an example run from an empty directory still finds tsx in this checkout.
const tsx = import.meta.resolve("tsx");

const temporary: string[] = [];
afterEach(() => {
  for (const directory of temporary.splice(0)) {
    rmSync(directory, { recursive: true, force: true });
  }
});

function emptyDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "weft-example-"));
  temporary.push(directory);
  return directory;
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function example(file: string, env: Record<string, string | undefined> = {}, cwd?: string): AgentProcess {
  const agent = AgentProcess.start({ command: process.execPath, args: ["--import", tsx, `${repoRoot}examples/${file}`], env, ...(cwd ? { cwd } : {}) });
  running.push(agent);
  return agent;
}

/** `weft acp --graph examples/<file>`, the built command serving an example's graph, with sessions in memory. */
function servedGraph(file: string, env: Record<string, string | undefined> = {}, cwd?: string): AgentProcess {
  const agent = AgentProcess.start({ command: process.execPath, args: [`${repoRoot}bin/weft.js`, "acp", "--graph", `${repoRoot}examples/${file}`], env: { WEFT_SESSIONS: "memory", WEFT_MODELS: undefined, ...env }, ...(cwd ? { cwd } : {}) });
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

  it("notes-graph.ts keeps notes across prompts, and clears them only when the person says yes", async () => {
    const agent = example("notes-graph.ts");
    await agent.initialize();
    const sessionId = await agent.newSession(repoRoot);
    const reply = async (prompt: string) => {
      const mark = agent.updatesOf(sessionId).length;
      expect((await agent.prompt(sessionId, prompt)).stopReason).toBe("end_turn");
      return agent.textOf(sessionId, mark);
    };
    expect(await reply("buy milk")).toBe("Noted. Notes so far: buy milk.");
    expect(await reply("call Ana")).toBe("Noted. Notes so far: buy milk; call Ana.");
    expect(await reply("clear")).toBe("Clear all 2 notes? Answer yes or no.");
    expect(await reply("no")).toBe("Kept them.");
    expect(await reply("water the plants")).toBe("Noted. Notes so far: buy milk; call Ana; water the plants.");
    expect(await reply("clear")).toBe("Clear all 3 notes? Answer yes or no.");
    expect(await reply("yes")).toBe("Cleared.");
    expect(await reply("start again")).toBe("Noted. Notes so far: start again.");
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

  it("configured-agent.ts offers a model picker, two modes and a command, and answers a pick with the full list", async () => {
    const agent = example("configured-agent.ts");
    await agent.initialize();
    const created = await agent.agent.request(acp.methods.agent.session.new, { cwd: repoRoot, mcpServers: [] });
    expect(created.configOptions?.map((option) => [option.id, option.currentValue])).toEqual([
      ["mode", "ask"],
      ["model", "fast"],
    ]);
    expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual(["ask", "auto"]);
    const picked = await agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: "smart" });
    expect(picked.configOptions.map((option) => [option.id, option.currentValue])).toEqual([
      ["mode", "ask"],
      ["model", "smart"],
    ]);
    // The /note command: offered once the session is known, and answered at once without a note.
    await agent.waitFor(() => agent.updatesOf(created.sessionId).some((update) => update.sessionUpdate === "available_commands_update"), "the commands");
    expect(agent.updatesOf(created.sessionId).find((update) => update.sessionUpdate === "available_commands_update")).toEqual({
      sessionUpdate: "available_commands_update",
      availableCommands: [{ name: "note", description: "Saves a note, word for word", input: { hint: "the note" } }],
    });
    expect((await agent.prompt(created.sessionId, "/note")).stopReason).toBe("end_turn");
    expect(agent.textOf(created.sessionId)).toBe("Type the note after /note.");
  });

  it("durable-agent.ts uses WEFT_BASE_URL and keeps sessions in ./sessions.db", async () => {
    model = await FakeModelServer.start([{ text: "Kept." }]);
    const cwd = emptyDirectory();
    const agent = example("durable-agent.ts", { WEFT_MODEL: "openai-compatible:fake", WEFT_BASE_URL: model.url }, cwd);
    await agent.initialize();
    const sessionId = await agent.newSession(cwd);
    expect((await agent.prompt(sessionId, "remember this")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Kept.");
    expect(existsSync(join(cwd, "sessions.db"))).toBe(true);
  });

  it("durable-agent.ts says why a model cannot be used, with no stack trace and no sessions file", () => {
    const cwd = emptyDirectory();
    const result = spawnSync(process.execPath, ["--import", tsx, `${repoRoot}examples/durable-agent.ts`], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, WEFT_MODEL: "openai-compatible:fake", WEFT_BASE_URL: undefined },
      input: "",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Cannot use model "openai-compatible:fake"');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(cwd, "sessions.db"))).toBe(false);
  });

  it("remote-agent.ts serves a turn over HTTP to the holder of a token, and 401 to anyone else", async () => {
    model = await FakeModelServer.start(() => ({ text: "from afar" }));
    const cwd = emptyDirectory();
    const server = spawn(process.execPath, ["--import", tsx, `${repoRoot}examples/remote-agent.ts`], {
      cwd,
      env: { ...process.env, WEFT_MODEL: "openai-compatible:fake", WEFT_BASE_URL: model.url, WEFT_TOKENS: "sesame:ann", PORT: String(await closedPort()) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = "";
        server.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          const found = /Serving on (\S+)/.exec(stderr);
          if (found?.[1]) {
            resolve(found[1]);
          }
        });
        server.once("exit", () => reject(new Error(stderr)));
      });
      const refused = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(refused.status).toBe(401);
      const { connection, replies } = textClient("example-test", createHttpStream(url, { headers: { authorization: "Bearer sesame" } }));
      await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      const end = await connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] });
      expect(end.stopReason).toBe("end_turn");
      expect(replies.join("")).toBe("from afar");
      connection.close();
    } finally {
      server.kill();
    }
  });

  it("langgraph-react-agent.ts reads a file of the session's directory, and writes one only once allowed", async () => {
    const cwd = emptyDirectory();
    writeFileSync(join(cwd, "todo.txt"), "- buy bread\n");
    model = await FakeModelServer.start([
      { toolCalls: [{ name: "read_file", arguments: { path: "todo.txt" }, id: "r" }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "todo.txt", content: "- buy bread\n- buy milk\n" }, id: "w" }] },
      { text: "Added milk." },
    ]);
    const agent = servedGraph("langgraph-react-agent.ts", { WEFT_MODEL: "openai-compatible:fake", WEFT_BASE_URL: model.url }, cwd);
    await agent.initialize();
    let fileWhenAsked = "";
    agent.answerPermission = (request) => {
      fileWhenAsked = readFileSync(join(cwd, "todo.txt"), "utf8");
      expect(request.toolCall).toMatchObject({ toolCallId: "w" });
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    };
    const sessionId = await agent.newSession(cwd);
    expect((await agent.prompt(sessionId, "add milk to my list")).stopReason).toBe("end_turn");
    expect(model.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe("- buy bread\n");
    expect(agent.permissions).toHaveLength(1);
    expect(fileWhenAsked).toBe("- buy bread\n");
    expect(readFileSync(join(cwd, "todo.txt"), "utf8")).toBe("- buy bread\n- buy milk\n");
    expect(agent.textOf(sessionId)).toBe("Added milk.");
  });

  it("langgraph-typed-interrupt.ts asks its typed question as a form, and plans with the answer", async () => {
    model = await FakeModelServer.start([{ text: "Three nights in Lisbon: the castle, then Belém." }]);
    const agent = servedGraph("langgraph-typed-interrupt.ts", { WEFT_MODEL: "openai-compatible:fake", WEFT_BASE_URL: model.url });
    await agent.initialize({ elicitation: { form: {} } });
    agent.answerForm = () => ({ action: "accept", content: { city: "Lisbon", nights: 3 } });
    const sessionId = await agent.newSession(repoRoot);
    expect((await agent.prompt(sessionId, "plan me a trip")).stopReason).toBe("end_turn");
    expect(agent.forms).toHaveLength(1);
    expect(agent.forms[0]).toMatchObject({ mode: "form", message: "Where to, and for how long?", requestedSchema: { properties: { city: { type: "string" }, nights: { type: "integer" } } } });
    expect(model.requests[0]?.messages[0]).toMatchObject({ role: "system", content: "Plan a trip to Lisbon for 3 nights. Be brief." });
    expect(agent.textOf(sessionId)).toBe("Three nights in Lisbon: the castle, then Belém.");
  });

  it("quickstart.ts prints why a run failed", async () => {
    const result = spawnSync(process.execPath, ["--import", tsx, `${repoRoot}examples/quickstart.ts`], {
      cwd: emptyDirectory(),
      encoding: "utf8",
      env: { ...process.env, OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/failed: The model openai\.\S+\/gpt-4\.1-mini failed: the model server could not be reached/);
  });

  it("test-with-fakes.ts runs an agent's tool call against the fake Responses server, with no key", () => {
    const result = spawnSync(process.execPath, ["--import", tsx, `${repoRoot}examples/test-with-fakes.ts`], {
      cwd: emptyDirectory(),
      encoding: "utf8",
      env: { ...process.env, OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined },
    });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("2 + 3 is 5.\n{ role: 'tool', toolCallId: 'call_1', content: '5' }\n");
  });
});
