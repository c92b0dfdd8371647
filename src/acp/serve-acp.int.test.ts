// serveAcp() driven by the official SDK client over a child process's stdio. Every line the agent
// writes is checked against the ACP JSON schema (test/support/acp-wire.ts).

import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { beforeEach, describe, expect, it } from "vitest";

import type { AgentProcess } from "../../test/support/agent-process.js";
import { startedAgents } from "../../test/support/started-agents.js";
import type { FakeModelServer, FakeScript } from "../testing/fake-model-server.js";

let notes: string;

beforeEach(async () => {
  notes = await mkdtemp(join(tmpdir(), "weft-notes-"));
});

const started = startedAgents(() => rm(notes, { recursive: true, force: true }));

async function start(script: FakeScript = [], fixture = "agent.ts"): Promise<{ agent: AgentProcess; model: FakeModelServer }> {
  const model = await started.fakeModel(script);
  const agent = await started.connect({ fixture, env: { FAKE_MODEL_URL: model.url, NOTES_DIR: notes } });
  return { agent, model };
}

/** What session/load replays of a session, without what the agent says about the session itself after the answer. */
async function replayOf(agent: AgentProcess, sessionId: string): Promise<acp.SessionUpdate[]> {
  const before = agent.updates.length;
  await agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: notes, mcpServers: [] });
  return agent.updates
    .slice(before)
    .map((notification) => notification.update)
    .filter((update) => !["session_info_update", "usage_update", "available_commands_update"].includes(update.sessionUpdate));
}

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};

const toolMessages = (request: { messages: Array<{ role: string; content?: unknown; tool_call_id?: string | undefined }> } | undefined) =>
  request?.messages.filter((message) => message.role === "tool") ?? [];

describe("initialize", () => {
  it("answers protocol version 1 when asked for 1, 0 or 99, and advertises what works", async () => {
    const { agent } = await start();
    for (const asked of [1, 0, 99]) {
      const response = await agent.initialize({}, asked);
      expect(response.protocolVersion).toBe(1);
      expect(response.agentCapabilities?.loadSession).toBe(true);
      expect(response.agentCapabilities?.promptCapabilities).toEqual({ image: true, audio: true, embeddedContext: true });
      expect(response.agentCapabilities?.sessionCapabilities).toEqual({ list: {}, delete: {}, resume: {}, close: {}, additionalDirectories: {} });
      expect(response.agentInfo).toEqual({ name: "fixture-agent", version: "1.0.0" });
      expect(response.authMethods).toEqual([]);
    }
  });
});

describe("sessions", () => {
  it("creates distinct sessions and refuses a relative cwd with -32602", async () => {
    const { agent } = await start();
    const first = await agent.newSession(notes);
    const second = await agent.newSession(notes);
    expect(first).not.toBe(second);
    await expect(agent.agent.request(acp.methods.agent.session.new, { cwd: "relative/dir", mcpServers: [] })).rejects.toMatchObject({ code: -32602 });
  });

  it("lists sessions with their cwd and title, and deletes them", async () => {
    const { agent } = await start([{ text: "hi" }]);
    const sessionId = await agent.newSession(notes);
    await agent.prompt(sessionId, "Plan the release");
    const listed = await agent.agent.request(acp.methods.agent.session.list, {});
    expect(listed.sessions).toEqual([expect.objectContaining({ sessionId, cwd: notes, title: "Plan the release" })]);
    expect(listed.nextCursor).toBeUndefined();
    await agent.agent.request(acp.methods.agent.session.delete, { sessionId });
    await agent.agent.request(acp.methods.agent.session.delete, { sessionId });
    expect((await agent.agent.request(acp.methods.agent.session.list, {})).sessions).toEqual([]);
  });
});

describe("prompt turns", () => {
  it("streams text as several chunks and ends with end_turn", async () => {
    const { agent } = await start([{ text: ["The ", "answer ", "is ", "42."] }]);
    const sessionId = await agent.newSession(notes);
    const response = await agent.prompt(sessionId, "What is it?");
    expect(response.stopReason).toBe("end_turn");
    const chunks = agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "agent_message_chunk");
    expect(chunks.length).toBe(4);
    expect(agent.textOf(sessionId)).toBe("The answer is 42.");
  });

  it("reports a tool call pending, then in_progress, then completed with its content and raw output", async () => {
    const { agent, model } = await start([{ toolCalls: [{ name: "add", arguments: { a: 20, b: 22 } }] }, { text: "42" }]);
    const sessionId = await agent.newSession(notes);
    expect((await agent.prompt(sessionId, "add them")).stopReason).toBe("end_turn");
    const calls = agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update");
    expect(calls).toEqual([
      expect.objectContaining({ sessionUpdate: "tool_call", toolCallId: "call_1", status: "pending", title: "add", kind: "other", rawInput: { a: 20, b: 22 } }),
      expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "in_progress" }),
      expect.objectContaining({
        sessionUpdate: "tool_call_update",
        toolCallId: "call_1",
        status: "completed",
        rawOutput: 42,
        content: [{ type: "content", content: { type: "text", text: "42" } }],
      }),
    ]);
    expect(toolMessages(model.requests[1])).toEqual([expect.objectContaining({ tool_call_id: "call_1", content: "42" })]);
  });

  it("turns prompt blocks into the user's message: text, image, embedded file, link", async () => {
    const { agent, model } = await start([{ text: "seen" }]);
    const sessionId = await agent.newSession(notes);
    await agent.prompt(sessionId, [
      { type: "text", text: "Look:" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "resource", resource: { uri: "file:///src/main.py", text: "print(1)", mimeType: "text/x-python" } },
      { type: "resource_link", uri: "file:///docs/guide.md", name: "guide.md" },
    ]);
    const user = model.requests[0]?.messages.find((message) => message.role === "user");
    const parts = user?.content as Array<Record<string, unknown>>;
    expect(parts[0]).toEqual({ type: "text", text: "Look:" });
    expect(parts[1]).toMatchObject({ type: "image_url" });
    expect(parts[2]).toEqual({ type: "text", text: '<file uri="file:///src/main.py">\nprint(1)\n</file>' });
    expect(parts[3]).toEqual({ type: "text", text: "[guide.md](file:///docs/guide.md)" });
  });

  it("queues a prompt sent while a turn runs and answers both in order", async () => {
    const release = deferred<void>();
    const { agent } = await start([{ text: ["first"], beforeChunk: (index) => (index === 1 ? release.promise : undefined) }, { text: "second" }]);
    const sessionId = await agent.newSession(notes);
    const order: string[] = [];
    const first = agent.prompt(sessionId, "one").then((response) => order.push(`one:${response.stopReason}`));
    const second = agent.prompt(sessionId, "two").then((response) => order.push(`two:${response.stopReason}`));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual([]);
    release.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(["one:end_turn", "two:end_turn"]);
    expect(agent.textOf(sessionId)).toBe("firstsecond");
  });

  it("streams a plain graph's plan, tool events and text, and keeps them for replay", async () => {
    const { agent } = await start([], "graph-agent.ts");
    const sessionId = await agent.newSession(notes);
    expect((await agent.prompt(sessionId, "hello")).stopReason).toBe("end_turn");
    // The session's title comes first, once the prompt is kept; then the turn.
    const [titled, ...live] = agent.updatesOf(sessionId);
    expect(titled).toEqual({ sessionUpdate: "session_info_update", title: "hello", updatedAt: expect.any(String) });
    expect(live[0]).toEqual({ sessionUpdate: "plan", entries: [{ content: "Think", priority: "high", status: "completed" }, { content: "Answer", priority: "medium", status: "in_progress" }] });
    expect(live.filter((update) => update.sessionUpdate === "tool_call")).toEqual([expect.objectContaining({ toolCallId: "look", kind: "search", status: "in_progress", locations: [{ path: join(notes, "README.md") }] })]);
    expect(agent.textOf(sessionId)).toBe("Hello from a graph.");
    const replayed = await replayOf(agent, sessionId);
    // The same order the turn streamed in: the tool ran, then the text came.
    expect(replayed.map((update) => update.sessionUpdate)).toEqual(["user_message_chunk", "tool_call", "agent_message_chunk"]);
    expect(replayed[1]).toMatchObject({ toolCallId: "look", status: "completed", rawOutput: "nothing much" });
    expect(replayed[2]).toMatchObject({ content: { type: "text", text: "Hello from a graph." } });
  });
});

describe("permissions", () => {
  const writeScript: FakeScript = (request) =>
    request.messages.at(-1)?.role === "tool" ? { text: "done" } : { toolCalls: [{ name: "write_note", arguments: { path: "a.txt", text: "hello" } }] };

  it("offers allow once, allow always, reject once and reject always; reject leaves the tool unrun", async () => {
    const { agent, model } = await start(writeScript);
    agent.answerPermission = () => ({ outcome: { outcome: "selected", optionId: "reject_once" } });
    const sessionId = await agent.newSession(notes);
    expect((await agent.prompt(sessionId, "write it")).stopReason).toBe("end_turn");
    expect(agent.permissions).toHaveLength(1);
    expect(agent.permissions[0]?.options.map((option) => option.kind)).toEqual(["allow_once", "allow_always", "reject_once", "reject_always"]);
    expect(agent.permissions[0]?.toolCall).toMatchObject({ toolCallId: "call_1", title: "write_note a.txt", kind: "edit", rawInput: { path: "a.txt", text: "hello" } });
    expect(existsSync(join(notes, "a.txt"))).toBe(false);
    expect(String(toolMessages(model.requests[1])[0]?.content)).toContain("declined");
    expect(agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "tool_call_update" && update.status === "failed")).toBeDefined();
  });

  it("runs the tool on allow once", async () => {
    const { agent } = await start(writeScript);
    const sessionId = await agent.newSession(notes);
    await agent.prompt(sessionId, "write it");
    expect(existsSync(join(notes, "a.txt"))).toBe(true);
  });

  it("does not ask again after allow always, and never runs a tool after reject always", async () => {
    const { agent } = await start(writeScript);
    agent.answerPermission = () => ({ outcome: { outcome: "selected", optionId: "allow_always" } });
    const sessionId = await agent.newSession(notes);
    await agent.prompt(sessionId, "write it");
    await rm(join(notes, "a.txt"));
    await agent.prompt(sessionId, "write it again");
    expect(agent.permissions).toHaveLength(1);
    expect(existsSync(join(notes, "a.txt"))).toBe(true);

    // An "always" answer holds for the project's directory: a session in another one is asked.
    const elsewhere = await mkdtemp(join(tmpdir(), "weft-notes-"));
    try {
      agent.answerPermission = () => ({ outcome: { outcome: "selected", optionId: "reject_always" } });
      const other = await agent.newSession(elsewhere);
      await agent.prompt(other, "write it");
      await agent.prompt(other, "write it again");
      expect(agent.permissions).toHaveLength(2);
      expect(existsSync(join(elsewhere, "a.txt"))).toBe(false);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it("treats a permission request the editor fails as a rejection", async () => {
    const { agent } = await start(writeScript);
    agent.answerPermission = () => {
      throw new Error("the editor could not show the prompt");
    };
    const sessionId = await agent.newSession(notes);
    expect((await agent.prompt(sessionId, "write it")).stopReason).toBe("end_turn");
    expect(existsSync(join(notes, "a.txt"))).toBe(false);
  });
});

describe("questions", () => {
  it("asks a question as the agent's message, ends the turn, and the next prompt answers it", async () => {
    const { agent, model } = await start([{ toolCalls: [{ name: "ask_user", arguments: { question: "Which colour?" }, id: "q" }] }, { text: "Blue it is." }]);
    const sessionId = await agent.newSession(notes);
    expect((await agent.prompt(sessionId, "paint the shed")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Which colour?");
    const mark = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "blue")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId, mark)).toBe("Blue it is.");
    expect(toolMessages(model.requests[1])).toEqual([expect.objectContaining({ tool_call_id: "q", content: "answer: blue" })]);
    const completed = agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "tool_call_update" && update.status === "completed");
    expect(completed).toHaveLength(1);
  });

  it("works for a plain graph's interrupt too", async () => {
    const { agent } = await start([], "graph-agent.ts");
    const sessionId = await agent.newSession(notes);
    await agent.prompt(sessionId, "ask me");
    expect(agent.textOf(sessionId)).toBe("Which colour?");
    const mark = agent.updatesOf(sessionId).length;
    await agent.prompt(sessionId, "green");
    expect(agent.textOf(sessionId, mark)).toBe("You chose green.");
  });
});

describe("cancel", () => {
  it("cancels a streaming turn with exactly one cancelled answer, and leaves another session's turn alone", async () => {
    const release = deferred<void>();
    const script: FakeScript = (request) => {
      const text = JSON.stringify(request.messages.at(-1)?.content);
      return text.includes("slow")
        ? { text: ["a", "b", "c"], stallAfter: 3 }
        : { text: ["other ", "turn ", "finished"], beforeChunk: (index) => (index === 2 ? release.promise : undefined) };
    };
    const { agent } = await start(script);
    const slow = await agent.newSession(notes);
    const other = await agent.newSession(notes);
    const slowTurn = agent.prompt(slow, "slow please");
    const otherTurn = agent.prompt(other, "normal");
    await agent.waitFor(() => agent.textOf(slow).length >= 2 && agent.textOf(other).length > 0, "both turns to stream");
    await agent.cancel(slow);
    expect((await slowTurn).stopReason).toBe("cancelled");
    const afterCancel = agent.updatesOf(slow).length;
    release.resolve();
    expect((await otherTurn).stopReason).toBe("end_turn");
    expect(agent.textOf(other)).toBe("other turn finished");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(agent.updatesOf(slow).length).toBe(afterCancel);
    const answers = agent.wire.fromAgent.filter((message) => (message.result as { stopReason?: string } | undefined)?.stopReason === "cancelled");
    expect(answers).toHaveLength(1);
  });

  it("cancels while a permission request is pending without waiting on it", async () => {
    const { agent } = await start([{ toolCalls: [{ name: "write_note", arguments: { path: "b.txt", text: "x" } }] }]);
    const asked = deferred<void>();
    agent.answerPermission = () => {
      asked.resolve();
      return new Promise(() => undefined);
    };
    const sessionId = await agent.newSession(notes);
    const turn = agent.prompt(sessionId, "write");
    await asked.promise;
    await agent.cancel(sessionId);
    expect((await turn).stopReason).toBe("cancelled");
    expect(existsSync(join(notes, "b.txt"))).toBe(false);
    const withdrawn = agent.wire.fromAgent.filter((message) => message.method === "$/cancel_request");
    expect(withdrawn).toHaveLength(1);
  });

  it("keeps the session usable after a cancel", async () => {
    const { agent } = await start([{ text: ["a", "b"], stallAfter: 2 }, { text: "after" }]);
    const sessionId = await agent.newSession(notes);
    const turn = agent.prompt(sessionId, "go");
    await agent.waitFor(() => agent.textOf(sessionId).length > 0, "the first chunk");
    await agent.cancel(sessionId);
    expect((await turn).stopReason).toBe("cancelled");
    const mark = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "again")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId, mark)).toBe("after");
  });
});

describe("session/load", () => {
  it("replays a conversation with its tool calls, and the next model request carries that history", async () => {
    const { agent, model } = await start([{ toolCalls: [{ name: "add", arguments: { a: 1, b: 2 } }] }, { text: "It is 3." }, { text: "Still 3." }]);
    const sessionId = await agent.newSession(notes);
    await agent.prompt(sessionId, "1+2?");
    const replayed = await replayOf(agent, sessionId);
    expect(replayed).toEqual([
      expect.objectContaining({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "1+2?" } }),
      expect.objectContaining({ sessionUpdate: "tool_call", toolCallId: "call_1", status: "completed", rawInput: { a: 1, b: 2 }, rawOutput: 3 }),
      expect.objectContaining({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "It is 3." } }),
    ]);
    await agent.prompt(sessionId, "and now?");
    const roles = model.requests[2]?.messages.map((message) => message.role);
    expect(roles).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
  });

  it("answers -32002 for a session it does not have", async () => {
    const { agent } = await start();
    await expect(agent.agent.request(acp.methods.agent.session.load, { sessionId: "nope", cwd: notes, mcpServers: [] })).rejects.toMatchObject({ code: -32002 });
  });
});

describe("bad input", () => {
  it("answers each bad request clearly and keeps serving", async () => {
    const { agent } = await start([{ text: "big ok" }, { text: "still here" }]);
    agent.writeRaw("this is not json");
    expect((await agent.rawResponse(null)).error).toMatchObject({ code: -32700 });
    agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "u1", method: "no/such_method", params: {} }));
    expect((await agent.rawResponse("u1")).error).toMatchObject({ code: -32601 });
    agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "b1", method: "session/new", params: { mcpServers: [] } }));
    expect((await agent.rawResponse("b1")).error).toMatchObject({ code: -32602 });
    agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "b2", method: "session/prompt", params: { sessionId: "x", prompt: "not an array" } }));
    expect((await agent.rawResponse("b2")).error).toMatchObject({ code: -32602 });
    agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "s1", method: "session/prompt", params: { sessionId: "missing", prompt: [{ type: "text", text: "hi" }] } }));
    expect((await agent.rawResponse("s1")).error).toMatchObject({ code: -32002 });

    const sessionId = await agent.newSession(notes);
    const big = "x".repeat(4 * 1024 * 1024);
    expect((await agent.prompt(sessionId, big)).stopReason).toBe("end_turn");
    expect((await agent.prompt(sessionId, "small")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("big okstill here");
  });

  it("ends the turn with a clear JSON-RPC error when the graph fails, and the session stays usable", async () => {
    const { agent } = await start([{ status: 400, error: "model exploded" }, { text: "recovered" }]);
    const sessionId = await agent.newSession(notes);
    const failed = agent.prompt(sessionId, "go");
    await expect(failed).rejects.toMatchObject({ code: -32603 });
    await expect(failed).rejects.toThrow(/The agent failed: The model .*fake-model failed/);
    expect((await agent.prompt(sessionId, "again")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("recovered");
  });

  it("writes nothing but ACP messages to stdout", async () => {
    const { agent } = await start([{ text: "hello" }]);
    const sessionId = await agent.newSession(notes);
    await agent.prompt(sessionId, "hi");
    expect(agent.wire.fromAgent.every((message) => message.jsonrpc === "2.0")).toBe(true);
    expect(agent.wire.problems).toEqual([]);
  });
});

describe("closing", () => {
  it("exits when the editor closes its end", async () => {
    const { agent } = await start();
    agent.child.stdin?.end();
    expect(await agent.exited).toEqual({ code: 0, signal: null });
  });
});
