// serveAcp() in one process: the SDK client and the agent joined by in-memory byte streams, with a
// scripted model. The stdio tests (serve-acp.int.test.ts) cover the same wire with a real process.

import { PassThrough } from "node:stream";

import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { serveInProcess, type InProcessAgent } from "../../test/support/in-process.js";
import { createAgent } from "../agent/create-agent.js";
import { defineTool } from "../agent/tool.js";
import { listChannel } from "../graph/channels.js";
import { START, StateGraph } from "../graph/state-graph.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { Principal } from "../types/principal.js";
import type { AcpConfigOption } from "./surface/config-options.js";
import { serveAcp } from "./serve-acp.js";
import { MemoryAcpSessionStore, type AcpSessionRecord } from "./record/session-store.js";

const opened: InProcessAgent[] = [];
afterEach(() => {
  for (const agent of opened.splice(0)) {
    expect(agent.wire.problems).toEqual([]);
    agent.server.close();
  }
});

async function serve(...args: Parameters<typeof serveInProcess>): Promise<InProcessAgent> {
  const agent = await serveInProcess(...args);
  opened.push(agent);
  return agent;
}

const lastUserText = (model: ScriptedModel, call: number) =>
  model.calls[call]?.prompt.filter((message) => message.role === "user").map((message) => JSON.stringify(message.content));

describe("serveAcp in process", () => {
  it("close() stops every running turn, and closed resolves when the editor ends its side", async () => {
    const started: string[] = [];
    const aborted: string[] = [];
    const graph = new StateGraph({ name: "waiter", channels: { log: listChannel<string>(), messages: listChannel<unknown>() } })
      .addNode("wait", (_state, context) => {
        started.push(context.threadId);
        return new Promise((resolve) =>
          context.signal.addEventListener("abort", () => {
            aborted.push(context.threadId);
            resolve({ log: "aborted" });
          }),
        );
      })
      .addEdge(START, "wait")
      .compile();
    const agent = await serve(graph);
    const first = await agent.newSession();
    const second = await agent.newSession();
    void agent.prompt(first, "wait").catch(() => undefined);
    void agent.prompt(second, "wait").catch(() => undefined);
    await expect.poll(() => started.length).toBe(2);
    agent.server.close();
    await expect.poll(() => aborted.sort()).toEqual([first, second].sort());

    const other = await serve(graph);
    let closed = false;
    void other.server.closed.then(() => {
      closed = true;
    });
    other.end();
    await expect.poll(() => closed).toBe(true);
  });

  it("hands the principal to every tool and uses the integrator's tool kinds", async () => {
    const seen: Array<Principal | undefined> = [];
    const whoami = defineTool({ name: "whoami", description: "Who?", input: z.object({}), execute: (_input, context) => seen.push(context.principal) });
    const model = new ScriptedModel([{ toolCalls: [{ toolName: "whoami", input: {} }] }, { text: "ok" }]);
    const agent = await serve(createAgent({ model, tools: [whoami] }), { principal: { id: "ann", name: "Ann" }, kind: () => "think" });
    const sessionId = await agent.newSession();
    await agent.prompt(sessionId, "who am i");
    expect(seen).toEqual([{ id: "ann", name: "Ann" }]);
    expect(agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "tool_call")).toMatchObject({ kind: "think" });
  });

  it("ends with refusal and leaves the refused prompt out of later turns", async () => {
    const model = new ScriptedModel([{ text: "", finishReason: "content-filter" }, { text: "sure" }]);
    const agent = await serve(createAgent({ model }));
    const sessionId = await agent.newSession();
    expect((await agent.prompt(sessionId, "something forbidden")).stopReason).toBe("refusal");
    expect((await agent.prompt(sessionId, "something fine")).stopReason).toBe("end_turn");
    expect(lastUserText(model, 1)).toEqual([JSON.stringify([{ type: "text", text: "something fine" }])]);
  });

  it("maps a cut-off reply to max_tokens and too many model calls to max_turn_requests", async () => {
    const cut = await serve(createAgent({ model: new ScriptedModel([{ text: "cut", finishReason: "length" }]) }));
    expect((await cut.prompt(await cut.newSession(), "long")).stopReason).toBe("max_tokens");
    const add = defineTool({ name: "add", description: "Adds.", input: z.object({}), execute: () => 1 });
    const loop = await serve(createAgent({ model: new ScriptedModel(() => ({ toolCalls: [{ toolName: "add", input: {} }] })), tools: [add], maxSteps: 2 }));
    expect((await loop.prompt(await loop.newSession(), "loop")).stopReason).toBe("max_turn_requests");
  });

  it("gives the model audio for its turn and keeps only a note of it", async () => {
    const model = new ScriptedModel([{ text: "heard" }]);
    const agent = await serve(createAgent({ model }));
    const sessionId = await agent.newSession();
    await agent.prompt(sessionId, [{ type: "audio", data: "UklGRgAAAABXQVZF", mimeType: "audio/wav" }]);
    expect(model.calls[0]?.prompt.at(-1)).toEqual({ role: "user", content: [{ type: "file", data: "UklGRgAAAABXQVZF", mediaType: "audio/wav" }] });
    const before = agent.updates.length;
    await agent.client.request(acp.methods.agent.session.load, { sessionId, cwd: "/tmp", mcpServers: [] });
    const replayed = agent.updates.slice(before)[0]?.update;
    expect(replayed).toMatchObject({ sessionUpdate: "user_message_chunk", content: { type: "text" } });
    expect(JSON.stringify(replayed)).toContain("Audio clip (audio/wav");
  });

  it("answers a clear error when the session store is down at the start of a turn, and loses nothing", async () => {
    const store = new MemoryAcpSessionStore();
    let down = false;
    const put = store.put.bind(store);
    store.put = (record: AcpSessionRecord) => {
      if (down) {
        throw new Error("connection refused");
      }
      put(record);
    };
    const model = new ScriptedModel([{ text: "one" }, { text: "two" }]);
    const agent = await serve(createAgent({ model }), { sessions: store });
    const sessionId = await agent.newSession();
    await agent.prompt(sessionId, "first");
    down = true;
    await expect(agent.prompt(sessionId, "lost?")).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("The session store is unavailable: connection refused") });
    expect(model.calls).toHaveLength(1);
    down = false;
    expect((await agent.prompt(sessionId, "second")).stopReason).toBe("end_turn");
    expect(store.get(sessionId)?.history.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("resumes a session without replaying it, and refuses prompts to a closed session", async () => {
    const agent = await serve(createAgent({ model: new ScriptedModel([{ text: "a" }, { text: "b" }]) }));
    const sessionId = await agent.newSession();
    await agent.prompt(sessionId, "one");
    const before = agent.updates.length;
    await agent.client.request(acp.methods.agent.session.resume, { sessionId, cwd: "/tmp" });
    expect(agent.updates.length).toBe(before);
    expect((await agent.prompt(sessionId, "two")).stopReason).toBe("end_turn");
    await agent.client.request(acp.methods.agent.session.close, { sessionId });
    await expect(agent.prompt(sessionId, "three")).rejects.toMatchObject({ code: -32002 });
  });

  it("forgets the graph's thread when a session is deleted", async () => {
    const agent = createAgent({ model: new ScriptedModel([{ text: "a" }]) });
    const served = await serve(agent);
    const sessionId = await served.newSession();
    await served.prompt(sessionId, "one");
    expect((await agent.thread(sessionId))?.status).toBe("completed");
    await served.client.request(acp.methods.agent.session.delete, { sessionId });
    expect(await agent.thread(sessionId)).toBeUndefined();
  });

  it("keeps tool call ids unique in a session when the model reuses them", async () => {
    const add = defineTool({ name: "add", description: "Adds.", input: z.object({}), execute: () => 1 });
    const model = new ScriptedModel([
      { toolCalls: [{ toolName: "add", input: {}, toolCallId: "call_1" }] },
      { text: "one" },
      { toolCalls: [{ toolName: "add", input: {}, toolCallId: "call_1" }] },
      { text: "two" },
    ]);
    const agent = await serve(createAgent({ model, tools: [add] }));
    const sessionId = await agent.newSession();
    await agent.prompt(sessionId, "first");
    await agent.prompt(sessionId, "second");
    // createAgent() gives the reused id one of its own (call_1_2), so the session never sees it twice.
    const announced = agent.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "tool_call" ? [update.toolCallId] : []));
    expect(announced).toEqual(["call_1", "call_1_2"]);
    const before = agent.updates.length;
    await agent.client.request(acp.methods.agent.session.load, { sessionId, cwd: "/tmp", mcpServers: [] });
    const replayed = agent.updates.slice(before).flatMap((notification) => (notification.update.sessionUpdate === "tool_call" ? [notification.update.toolCallId] : []));
    expect(replayed).toEqual(["call_1", "call_1_2"]);
  });

  it("holds the editor's lines to lineLimits and reads on after a line over them", async () => {
    const agent = await serve(createAgent({ model: new ScriptedModel([{ text: "short" }]) }), { lineLimits: { maxBytes: 2048 } });
    const sessionId = await agent.newSession();
    await expect(agent.prompt(sessionId, "x".repeat(4096))).rejects.toMatchObject({ code: -32600, message: "Invalid request: the request is longer than 2048 bytes" });
    expect((await agent.prompt(sessionId, "hi")).stopReason).toBe("end_turn");
  });

  it("lists terminal sign-in methods only to editors that advertise auth.terminal, and answers authenticate for the others", async () => {
    const asked: string[] = [];
    const authMethods: acp.AuthMethod[] = [
      { id: "key", name: "Paste a key" },
      { type: "terminal", id: "setup", name: "Set up", args: ["--setup"] },
    ];
    const agent = await serve(createAgent({ model: new ScriptedModel([]) }), { authMethods, authenticate: (methodId) => void asked.push(methodId) });
    const initialize = (capabilities: acp.ClientCapabilities) => agent.client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: capabilities });
    expect((await initialize({})).authMethods).toEqual([{ id: "key", name: "Paste a key" }]);
    expect((await initialize({ auth: { terminal: false } })).authMethods).toEqual([{ id: "key", name: "Paste a key" }]);
    expect((await initialize({ auth: { terminal: true } })).authMethods).toEqual(authMethods);
    expect(await agent.client.request(acp.methods.agent.authenticate, { methodId: "key" })).toEqual({});
    expect(asked).toEqual(["key"]);
    await expect(agent.client.request(acp.methods.agent.authenticate, { methodId: "setup" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("terminal method") });
    await expect(agent.client.request(acp.methods.agent.authenticate, { methodId: "other" })).rejects.toMatchObject({ code: -32602 });
    expect(asked).toEqual(["key"]);
  });

  it("refuses session/new with auth_required while authRequired holds, only to editors listed a way to sign in", async () => {
    let required = true;
    const authMethods: acp.AuthMethod[] = [{ type: "terminal", id: "setup", name: "Set up", args: ["--setup"] }];
    const agent = await serve(createAgent({ model: new ScriptedModel([]) }), { authMethods, authRequired: () => required });
    // initialize (in serve) listed no method: the editor cannot sign in, so its session starts.
    expect(await agent.newSession()).toMatch(/^sess_/);
    await agent.client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: { auth: { terminal: true } } });
    await expect(agent.newSession()).rejects.toMatchObject({ code: -32000 });
    required = false;
    expect(await agent.newSession()).toMatch(/^sess_/);
  });

  it("asks a configOptions function as each session opens, so a list that grows reaches the next session", async () => {
    const choices = [{ value: "a", name: "A" }];
    let declared: AcpConfigOption[] = [{ type: "select", id: "model", name: "Model", default: "a", options: choices }];
    const agent = await serve(createAgent({ model: new ScriptedModel([]) }), { configOptions: async () => declared });
    const first = await agent.client.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
    declared = [{ type: "select", id: "model", name: "Model", default: "a", options: [...choices, { value: "b", name: "B" }] }];
    const second = await agent.client.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
    expect(first.configOptions?.[0]).toMatchObject({ options: [{ value: "a" }] });
    expect(second.configOptions?.[0]).toMatchObject({ options: [{ value: "a" }, { value: "b" }] });
    const changed = await agent.client.request(acp.methods.agent.session.setConfigOption, { sessionId: second.sessionId, configId: "model", value: "b" });
    expect(changed.configOptions[0]).toMatchObject({ currentValue: "b" });
    await expect(agent.client.request(acp.methods.agent.session.setConfigOption, { sessionId: first.sessionId, configId: "model", value: "b" })).rejects.toMatchObject({ code: -32602 });
  });

  it("resolves closed with nothing after close(), and with the reason when the editor's stream fails", async () => {
    const graph = createAgent({ model: new ScriptedModel([]) });
    const closing = serveAcp(graph, { input: new PassThrough(), output: new PassThrough() });
    closing.close();
    expect(await closing.closed).toBeUndefined();
    const failing: AsyncIterable<string> = { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error("read EIO")) }) };
    const broken = serveAcp(graph, { input: failing, output: new PassThrough() });
    expect(await broken.closed).toMatchObject({ name: "AcpConnectionError", code: "input_failed", message: "Reading from the editor failed: read EIO" });
  });
});
