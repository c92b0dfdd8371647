// `weft acp --graph <module>`: the built command serving a graph a module exports, driven by the
// SDK client over stdio; and the modules it refuses, with exit code 2, a reason on stderr and
// nothing on stdout.

import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";

import { fixturesDir, repoRoot } from "../../test/support/agent-process.js";
import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import { openStore } from "../stores/open-store.js";

const harness = weftAcpHarness();
const graphs = join(fixturesDir, "graphs");
const cleanup: string[] = [];
afterEach(() => {
  for (const directory of cleanup.splice(0)) {
    rmSync(directory, { recursive: true, force: true });
  }
});

/** Runs `weft <args>` to its end, with empty stdin, in `cwd`. */
function weftRun(args: string[], cwd = harness.project): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [join(repoRoot, "bin/weft.js"), ...args], {
    cwd,
    encoding: "utf8",
    input: "",
    env: { ...process.env, XDG_STATE_HOME: harness.home, XDG_CONFIG_HOME: harness.configHome, WEFT_SESSIONS: undefined, WEFT_LOG: undefined },
  });
}

describe("weft acp --graph", () => {
  it("serves a weft graph from a .mjs module, with its sessions in the command's store across a restart", async () => {
    const args = ["--graph", join(graphs, "echo-graph.mjs")];
    const first = harness.start({}, args);
    const init = await first.initialize();
    expect(init.agentInfo).toMatchObject({ name: "echo", title: "echo" });
    const sessionId = await first.newSession(harness.project);
    expect((await first.prompt(sessionId, "hello there")).stopReason).toBe("end_turn");
    expect(first.textOf(sessionId)).toBe("You said: hello there");
    await first.stop();
    // What the module logged went to stderr (the harness checks every stdout line was ACP).
    expect(first.stderr).toContain("echo graph loaded");

    // The default SQLite file under $XDG_STATE_HOME kept the session: a new process replays it.
    const second = harness.start({}, args);
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: harness.project, mcpServers: [] });
    expect(second.updatesOf(sessionId).map((update) => update.sessionUpdate)).toEqual(expect.arrayContaining(["user_message_chunk", "agent_message_chunk"]));
    expect(second.textOf(sessionId)).toBe("You said: hello there");
  });

  it("sends everything the module writes to stdout (console.log, console.dir, process.stdout.write) to stderr: stdout is only ACP", async () => {
    const agent = harness.start({}, ["--graph", join(graphs, "noisy-graph.mjs"), "--sessions", "memory"]);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "hello")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Quiet reply.");
    await agent.stop();
    // The harness checks that every stdout line was ACP; here, that none of it was lost either.
    for (const written of ["load: console.log", "load: console.info", "load: console.dir", "load: process.stdout.write", "node: console.log", "node: console.dir", "node: console.table", "node: process.stdout.write"]) {
      expect(agent.stderr).toContain(`noisy ${written}`);
    }
    expect(agent.wire.problems).toEqual([]);
  });

  it("serves a createAgent() factory from a .ts module (tsx on this Node), its checkpoints in the --sessions store", async () => {
    const sessions = join(harness.home, "graph-sessions.db");
    const { model, env } = await harness.fakeModel([{ toolCalls: [{ name: "count_words", arguments: { text: "one two three" }, id: "c" }] }, { text: "Three words." }]);
    const agent = harness.start(env, ["--graph", join(graphs, "counting-agent.ts"), "--sessions", sessions]);
    expect((await agent.initialize()).agentInfo).toMatchObject({ name: "counter" });
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "how many words in: one two three")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Three words.");
    const calls = agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update");
    expect(calls.at(-1)).toMatchObject({ toolCallId: "c", status: "completed" });
    expect(model.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe("3");
    await agent.stop();

    // The factory was given the command's store: the graph's thread is in the same file as the session.
    const store = await openStore(sessions);
    try {
      const namespaces = await store.listNamespaces();
      expect(namespaces.some((namespace) => namespace.join("/").startsWith("weft/graphs/counter"))).toBe(true);
      expect(namespaces.some((namespace) => namespace.join("/").includes("sessions"))).toBe(true);
    } finally {
      await store.close?.();
    }
  });

  it("gives a factory the editor bridge: the README's agent reads a file of the session through it", async () => {
    writeFileSync(join(harness.project, "notes.md"), "Buy milk.\n");
    const { model, env } = await harness.fakeModel([{ toolCalls: [{ name: "read_file", arguments: { path: "notes.md" }, id: "r" }] }, { text: "It says to buy milk." }]);
    const agent = harness.start(env, ["--graph", join(graphs, "editor-agent.ts")]);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "what do my notes say?")).stopReason).toBe("end_turn");
    expect(model.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe("Buy milk.\n");
    expect(agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "tool_call")).toMatchObject({ kind: "read", locations: [{ path: join(harness.project, "notes.md") }] });
    expect(agent.textOf(sessionId)).toBe("It says to buy milk.");
  });

  it("serves a compiled LangGraph graph (its only graph export), its checkpoints and sessions in the --sessions store", async () => {
    const sessions = join(harness.home, "langgraph-sessions.db");
    const { env } = await harness.fakeModel([{ text: ["Hello", " from", " LangGraph."] }, { text: "Again." }]);
    const args = ["--graph", join(graphs, "langgraph-chat.mjs"), "--sessions", sessions];
    const first = harness.start(env, args);
    expect((await first.initialize()).agentInfo).toMatchObject({ name: "langgraph-chat" });
    const sessionId = await first.newSession(harness.project);
    expect((await first.prompt(sessionId, "hi")).stopReason).toBe("end_turn");
    const chunks = first.updatesOf(sessionId).filter((update) => update.sessionUpdate === "agent_message_chunk");
    expect(chunks.length).toBeGreaterThan(1);
    expect(first.textOf(sessionId)).toBe("Hello from LangGraph.");
    await first.stop();

    // A new process carries the thread on from the store: the model is sent the first turn too.
    const second = harness.start(env, args);
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: harness.project, mcpServers: [] });
    expect(second.textOf(sessionId)).toBe("Hello from LangGraph.");
    const from = second.updatesOf(sessionId).length;
    expect((await second.prompt(sessionId, "and again")).stopReason).toBe("end_turn");
    expect(second.textOf(sessionId, from)).toBe("Again.");
    await second.stop();
    const store = await openStore(sessions);
    try {
      expect((await store.listNamespaces()).some((namespace) => namespace.join("/").startsWith("weft/langgraph/langgraph-chat"))).toBe(true);
    } finally {
      await store.close?.();
    }
  });

  it("shows the final state of a LangGraph graph with no messages channel, and says the prompt did not reach it", async () => {
    const agent = harness.start({}, ["--graph", join(graphs, "summary-graph.mjs"), "--sessions", "memory"]);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "tides")).stopReason).toBe("end_turn");
    const shown = agent.textOf(sessionId);
    expect(shown).toContain('"summary": "A note about nothing."');
    expect(shown).toContain("no `messages` channel");
    expect(shown).toContain("toInput");
  });

  it("maps prompts and final states with the module's toInput and fromOutput exports", async () => {
    const agent = harness.start({ SUMMARY_MAPPING: "1" }, ["--graph", join(graphs, "summary-graph.mjs"), "--sessions", "memory"]);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "tides")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("A note about tides.");
    const from = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "the moon")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId, from)).toBe("A note about the moon.");
  });

  it("gives fromLangGraph() the module's own copy of LangGraph, in a project with its own node_modules", async () => {
    // A project of its own inside this checkout: its LangChain packages are copies (other files, so
    // other module instances) of weft's; anything else it resolves from this checkout.
    mkdirSync(join(repoRoot, "scratch"), { recursive: true });
    const project = mkdtempSync(join(repoRoot, "scratch", "graph-project-"));
    cleanup.push(project);
    mkdirSync(join(project, "node_modules"));
    for (const name of ["@langchain", "langchain"]) {
      expect(spawnSync("cp", ["-al", join(repoRoot, "node_modules", name), join(project, "node_modules", name)]).status).toBe(0);
    }
    copyFileSync(join(repoRoot, "examples/langgraph-react-agent.ts"), join(project, "agent.ts"));
    // An approved write goes back to the graph as a Command, and on to its tool as a Send: both
    // only work when weft's LangGraph is the graph's.
    const { env } = await harness.fakeModel([{ toolCalls: [{ name: "write_file", arguments: { path: "note.txt", content: "kept\n" }, id: "w" }] }, { text: "Written." }]);
    const agent = harness.start(env, ["--graph", join(project, "agent.ts"), "--sessions", "memory"]);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "write a note")).stopReason).toBe("end_turn");
    expect(agent.permissions).toHaveLength(1);
    expect(readFileSync(join(harness.project, "note.txt"), "utf8")).toBe("kept\n");
    expect(agent.textOf(sessionId)).toBe("Written.");
  });

  const refusals: Array<[string, string[], RegExp]> = [
    ["a file that is not there", ["--graph", "missing.mjs"], /--graph "missing\.mjs": there is no such file/],
    ["a module with no graph", ["--graph", join(graphs, "no-graph.mjs")], /exports no graph \(it exports answer, helper\); export one as default or as graph/],
    ["a factory that fails", ["--graph", join(graphs, "failing-factory.mjs")], /its default export, called to make the graph, failed: no model configured for this graph/],
    ["a TypeScript module that throws as it loads", ["--graph", join(graphs, "broken.ts")], /broken\.ts" could not be loaded: broken module: it needs a model/],
    ["a toInput export that is not a function", ["--graph", join(graphs, "bad-mapping.mjs")], /its toInput export is an object, not a function \(toInput\(\{ text, history \}\) answers the graph's input for a prompt\)/],
    ["a coding agent flag", ["--graph", join(graphs, "echo-graph.mjs"), "--context-window", "1000"], /--context-window is for weft's coding agent; it does nothing with --graph/],
  ];
  it.each(refusals)("refuses %s: exit 2, the reason on stderr, nothing on stdout", (_what, args, reason) => {
    const run = weftRun(["acp", ...args]);
    expect(run.stderr).toMatch(reason);
    expect(run.stderr).toMatch(/^weft: /);
    expect(run.stdout).toBe("");
    expect(run.status).toBe(2);
  });
});

describe("weft chat --graph", () => {
  it("runs a one-shot turn with the module's graph, the module named from where chat runs", () => {
    const run = weftRun(["chat", "--graph", "echo-graph.mjs", "--cwd", harness.project, "-p", "hi"], graphs);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("weft › You said: hi\n");
    expect(run.status).toBe(0);
  });

  it("says when the module is not there, before starting any agent", () => {
    const run = weftRun(["chat", "--graph", "missing.mjs", "-p", "hi"]);
    expect(run.stderr).toMatch(/^weft: --graph "missing\.mjs": there is no such file/);
    expect(run.stdout).toBe("");
    expect(run.status).toBe(2);
  });
});
