// The packed package installed into a LangGraph project pinned at the oldest LangChain versions
// weft's peer ranges admit (the oldest the adapter's tests pass on): npm installs it without an
// ERESOLVE and without moving the project's pins, and `weft acp --graph` serves the project's graph
// with the project's own LangGraph, driven by the SDK client.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { AgentProcess, stopAndCheck } from "../support/agent-process.js";
import { type PackedInstall, installPacked } from "../support/packed-package.js";

/** The oldest versions of the LangChain peers, as package.json's peerDependencies name them (`^` each). */
const FLOOR = { "@langchain/langgraph": "1.4.16", "@langchain/core": "1.1.48", "@langchain/langgraph-checkpoint": "1.2.1" };

let install: PackedInstall;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  // A project with its pins already in package.json; installing weftjs is `npm install <tarball>`.
  install = await installPacked({ ignoreScripts: true, manifest: { dependencies: FLOOR } });
}, 900_000);

afterAll(() => install?.remove());

afterEach(async () => {
  expect(await stopAndCheck(agents)).toEqual([]);
});

const installedVersion = (name: string) => (JSON.parse(readFileSync(join(install.dir, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;

describe("the packed package in a project pinned at the oldest LangGraph it supports", () => {
  it("names those versions as its peer floors", () => {
    const manifest = JSON.parse(readFileSync(join(install.dir, "node_modules", "weftjs", "package.json"), "utf8")) as { peerDependencies: Record<string, string> };
    for (const [name, version] of Object.entries(FLOOR)) {
      expect(manifest.peerDependencies[name]).toBe(`^${version}`);
    }
  });

  it("installs without moving the pins, and npm finds nothing wrong with the tree", async () => {
    for (const [name, version] of Object.entries(FLOOR)) {
      expect(installedVersion(name)).toBe(version);
    }
    const listed = await install.run("npm", ["ls", "--all", "--omit=dev"], { timeoutMs: 120_000 });
    expect(listed.stderr).not.toMatch(/invalid|ERESOLVE|missing/);
    expect(listed.code).toBe(0);
    // One LangGraph in the tree, the project's: weftjs brought no copy of its own.
    const copies = await install.run("npm", ["ls", "@langchain/langgraph", "--all", "--parseable"], { timeoutMs: 120_000 });
    expect(copies.stdout.trim().split("\n")).toEqual([join(install.dir, "node_modules", "@langchain", "langgraph")]);
  }, 180_000);

  it("serves the project's LangGraph graph with `weft acp --graph`: a breakpoint asks, and the answer carries the run on", async () => {
    writeFileSync(
      join(install.dir, "graph.mjs"),
      [
        'import { AIMessage } from "@langchain/core/messages";',
        'import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";',
        "export default new StateGraph(MessagesAnnotation)",
        '  .addNode("draft", () => ({ messages: [new AIMessage({ id: "draft-1", content: "Draft ready." })] }))',
        '  .addNode("review", () => ({ messages: [new AIMessage({ id: "review-1", content: "Reviewed." })] }))',
        '  .addEdge("__start__", "draft")',
        '  .addEdge("draft", "review")',
        '  .compile({ name: "floor-graph", interruptBefore: ["review"] });',
        "",
      ].join("\n"),
    );
    const agent = AgentProcess.start({
      command: process.execPath,
      args: [join(install.dir, "node_modules", "weftjs", "bin", "weft.js"), "acp", "--graph", "graph.mjs", "--sessions", "memory"],
      cwd: install.dir,
      env: { ...install.env, WEFT_SESSIONS: undefined },
    });
    agents.push(agent);
    expect((await agent.initialize()).agentInfo).toMatchObject({ name: "floor-graph" });
    const sessionId = await agent.newSession(install.dir);
    expect((await agent.prompt(sessionId, "draft it")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe('Draft ready.The graph paused before its step "review" (a breakpoint). Go on?');
    const mark = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "yes")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId, mark)).toBe("Reviewed.");
  }, 180_000);
});
