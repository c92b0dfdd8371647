// The conformance kit's example agent (test/fixtures/conformance-agent.ts) does what it claims
// when no bug is switched on: driven over stdio by the SDK client, with its model a fake
// chat-completions server, and every line it writes checked against the ACP schema.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { FakeModelServer, type FakeScript } from "../src/testing/index.js";
import { AgentProcess, stopAndCheck } from "./support/agent-process.js";

const agents: AgentProcess[] = [];
const servers: FakeModelServer[] = [];
const folders: string[] = [];

afterEach(async () => {
  expect(await stopAndCheck(agents, servers)).toEqual([]);
  for (const folder of folders.splice(0)) {
    rmSync(folder, { recursive: true, force: true });
  }
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), "conformance-agent-"));
  folders.push(made);
  return made;
}

async function start(script: FakeScript, state = folder(), bugs = ""): Promise<{ agent: AgentProcess; server: FakeModelServer; state: string }> {
  const server = await FakeModelServer.start(script);
  servers.push(server);
  const agent = AgentProcess.start({
    fixture: "conformance-agent.ts",
    env: { WEFT_BASE_URL: server.url, WEFT_API_KEY: "test-key", WEFT_MODEL: "openai-compatible:fake", XDG_STATE_HOME: state, CONFORMANCE_AGENT_BUGS: bugs },
  });
  agents.push(agent);
  await agent.initialize();
  return { agent, server, state };
}

/** The tool call updates of a session as `id status` strings, in order. */
function toolStatuses(agent: AgentProcess, sessionId: string): string[] {
  return agent.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update" ? [`${update.sessionUpdate} ${update.status ?? "-"}`] : []));
}

describe("the conformance agent", () => {
  it("answers initialize with version 1 whatever was asked and advertises loadSession", async () => {
    const { agent } = await start([]);
    const answer = await agent.initialize({}, 99);
    expect(answer.protocolVersion).toBe(1);
    expect(answer.agentCapabilities?.loadSession).toBe(true);
  });

  it("streams the reply in chunks, and the second prompt's model request carries the first turn", async () => {
    const { agent, server } = await start([{ text: ["Hel", "lo ", "there"] }, { text: "again" }]);
    const sessionId = await agent.newSession(folder());
    expect(await agent.prompt(sessionId, "first question")).toEqual({ stopReason: "end_turn" });
    const chunks = agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "agent_message_chunk");
    expect(chunks).toHaveLength(3);
    expect(agent.textOf(sessionId)).toBe("Hello there");
    await agent.prompt(sessionId, "second question");
    const history = JSON.stringify(server.requests[1]?.messages);
    expect(history).toContain("first question");
    expect(history).toContain("Hello there");
  });

  it("reports a read as pending, in progress, completed, with the absolute path", async () => {
    const cwd = folder();
    writeFileSync(join(cwd, "notes.txt"), "the notes");
    const { agent, server } = await start([{ toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] }, { text: "read it" }]);
    const sessionId = await agent.newSession(cwd);
    expect(await agent.prompt(sessionId, "read notes")).toEqual({ stopReason: "end_turn" });
    expect(toolStatuses(agent, sessionId)).toEqual(["tool_call pending", "tool_call_update in_progress", "tool_call_update completed"]);
    const call = agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "tool_call");
    expect(call?.sessionUpdate === "tool_call" && call.locations).toEqual([{ path: join(cwd, "notes.txt") }]);
    expect(JSON.stringify(server.requests[1]?.messages)).toContain("the notes");
    expect(server.requests[0]?.tools?.map((entry) => entry.function.name)).toEqual(["read_file", "write_file", "update_plan"]);
  });

  it("writes only when the user allows it", async () => {
    const cwd = folder();
    const write = (content: string) => ({ toolCalls: [{ name: "write_file", arguments: { path: "out.txt", content } }] });
    const { agent } = await start([write("allowed"), { text: "done" }, write("rejected"), { text: "not done" }]);
    const sessionId = await agent.newSession(cwd);
    await agent.prompt(sessionId, "write");
    expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("allowed");
    expect(agent.permissions[0]?.options.map((option) => option.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    agent.answerPermission = () => ({ outcome: { outcome: "selected", optionId: "reject_once" } });
    const before = agent.updatesOf(sessionId).length;
    await agent.prompt(sessionId, "write again");
    expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("allowed");
    const rejected = agent.updatesOf(sessionId).slice(before).flatMap((update) => (update.sessionUpdate === "tool_call_update" ? [update.status] : []));
    expect(rejected).toEqual(["failed"]);
  });

  it("does not write when the permission request fails", async () => {
    const cwd = folder();
    const { agent } = await start([{ toolCalls: [{ name: "write_file", arguments: { path: "out.txt", content: "x" } }] }, { text: "done" }]);
    agent.answerPermission = () => {
      throw new Error("the editor broke");
    };
    const sessionId = await agent.newSession(cwd);
    expect(await agent.prompt(sessionId, "write")).toEqual({ stopReason: "end_turn" });
    expect(agent.permissions).toHaveLength(1);
    expect(() => readFileSync(join(cwd, "out.txt"))).toThrow();
    expect(toolStatuses(agent, sessionId)).toEqual(["tool_call pending", "tool_call_update failed"]);
  });

  it("answers cancelled when cancelled mid-stream, and during a permission request without writing", async () => {
    const cwd = folder();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { agent, server } = await start([
      { text: ["one ", "two ", "three"], beforeChunk: (index) => (index === 2 ? held : undefined) },
      { toolCalls: [{ name: "write_file", arguments: { path: "out.txt", content: "x" } }] },
    ]);
    const sessionId = await agent.newSession(cwd);
    const streaming = agent.prompt(sessionId, "talk");
    await agent.waitFor(() => agent.textOf(sessionId) === "one ", "the first chunk");
    await agent.cancel(sessionId);
    expect(await streaming).toEqual({ stopReason: "cancelled" });
    release();
    await agent.waitFor(() => server.aborted === 1, "the model call to be aborted");

    let answer: (value: { outcome: { outcome: "cancelled" } }) => void = () => {};
    agent.answerPermission = () => new Promise((resolve) => (answer = resolve));
    const asking = agent.prompt(sessionId, "write");
    await agent.waitFor(() => agent.permissions.length === 1, "the permission request");
    await agent.cancel(sessionId);
    expect(await asking).toEqual({ stopReason: "cancelled" });
    answer({ outcome: { outcome: "cancelled" } });
    expect(() => readFileSync(join(cwd, "out.txt"))).toThrow();
    expect(toolStatuses(agent, sessionId)).toEqual(["tool_call pending", "tool_call_update failed"]);
  });

  it("keeps concurrent sessions apart", async () => {
    const { agent } = await start((request) => ({ text: ["re: ", JSON.stringify(request.messages.at(-1)?.content)], chunkDelayMs: 20 }));
    const [first, second] = [await agent.newSession(folder()), await agent.newSession(folder())];
    await Promise.all([agent.prompt(first, "alpha"), agent.prompt(second, "beta")]);
    expect(agent.textOf(first)).toBe('re: "alpha"');
    expect(agent.textOf(second)).toBe('re: "beta"');
  });

  it("after a restart, session/load replays the text and every tool call with its final status", async () => {
    const cwd = folder();
    writeFileSync(join(cwd, "notes.txt"), "the notes");
    const { agent, state } = await start([{ text: "let me look" , toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] }, { text: "read it" }, { text: "still here" }]);
    const sessionId = await agent.newSession(cwd);
    await agent.prompt(sessionId, "read notes");
    const live = agent.updatesOf(sessionId);
    await agent.stop();

    const server = servers[0] as FakeModelServer;
    const again = AgentProcess.start({ fixture: "conformance-agent.ts", env: { WEFT_BASE_URL: server.url, WEFT_MODEL: "openai-compatible:fake", XDG_STATE_HOME: state } });
    agents.push(again);
    await again.initialize();
    await again.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    const replayed = again.updatesOf(sessionId);
    expect(replayed.map((update) => update.sessionUpdate)).toEqual(["user_message_chunk", "agent_message_chunk", "tool_call", "agent_message_chunk"]);
    expect(again.textOf(sessionId)).toBe(agent.textOf(sessionId));
    const finalCall = live.filter((update) => update.sessionUpdate === "tool_call_update").at(-1);
    const replayedCall = replayed.find((update) => update.sessionUpdate === "tool_call");
    expect(replayedCall?.sessionUpdate === "tool_call" && [replayedCall.toolCallId, replayedCall.status]).toEqual(
      finalCall?.sessionUpdate === "tool_call_update" && [finalCall.toolCallId, "completed"],
    );
    expect(await again.prompt(sessionId, "and now?")).toEqual({ stopReason: "end_turn" });
    expect(JSON.stringify(server.requests[2]?.messages)).toContain("read it");
  });

  it("refuses a misspelt bug name instead of running clean", async () => {
    const agent = AgentProcess.start({ fixture: "conformance-agent.ts", env: { CONFORMANCE_AGENT_BUGS: "late-update" } });
    agents.push(agent);
    expect(await agent.exited).toEqual({ code: 2, signal: null });
    expect(agent.stderr).toContain("unknown bug");
  });
});
