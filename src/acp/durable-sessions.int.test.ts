// Sessions that outlive their agent process, on SQLite, Postgres and Redis: a turn killed in the
// middle of a streamed reply is carried on by the next process's session/load; questions, forms and
// approvals pending at a restart are asked again; two processes share one store without losing an
// update or running two turns of one session at once.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { AgentProcess } from "../../test/support/agent-process.js";
import { killedMidStory, killHard, restartHarness, stallingStory } from "../../test/support/restart-harness.js";
import { storesUnderTest } from "../../test/support/servers.js";
import { FakeModelServer, type ChatRequest, type FakeScript } from "../testing/fake-model-server.js";

const { temp, specs, agents, servers } = restartHarness("weft-durable-");

const lastUserText = (request: ChatRequest) => {
  const user = [...request.messages].reverse().find((message) => message.role === "user");
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content);
};

async function model(script: FakeScript): Promise<FakeModelServer> {
  const server = await FakeModelServer.start(script);
  servers.push(server);
  return server;
}

async function agentOn(store: string, server: FakeModelServer, capabilities: acp.ClientCapabilities = {}): Promise<AgentProcess> {
  const agent = AgentProcess.start({ fixture: "agent.ts", env: { FAKE_MODEL_URL: server.url, NOTES_DIR: temp, WEFT_TEST_STORE: store } });
  agents.push(agent);
  await agent.initialize(capabilities);
  return agent;
}

const load = (agent: AgentProcess, sessionId: string) => agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });

describe.each(storesUnderTest(() => temp))("durable sessions on $name", ({ name, skip, spec }) => {
  const fresh = () => {
    const created = spec();
    specs.push(created);
    return created;
  };

  it.skipIf(skip !== undefined)(`carries on a turn killed mid-stream (SIGKILL) after session/load${skip ? ` (skipped: ${skip})` : ""}`, async () => {
    const store = fresh();
    const server = await model(stallingStory((request) => lastUserText(request).includes("another")));
    const sessionId = await killedMidStory(await agentOn(store, server), temp);

    const second = await agentOn(store, server);
    await load(second, sessionId);
    const updates = second.updatesOf(sessionId);
    expect(updates[0]).toMatchObject({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "tell a story" } });
    expect(second.textOf(sessionId)).toBe("Once upon a time, the end.");
    expect(server.requests).toHaveLength(2);
    expect(lastUserText(server.requests[1] as ChatRequest)).toContain("tell a story");

    expect((await second.prompt(sessionId, "another one")).stopReason).toBe("end_turn");
    const roles = server.requests[2]?.messages.map((message) => `${message.role}:${typeof message.content === "string" ? message.content : ""}`);
    expect(roles).toEqual(["system:You are a test agent.", "user:tell a story", "assistant:Once upon a time, the end.", "user:another one"]);
    void name;
  });

  it.skipIf(skip !== undefined)("asks a pending question's answer after a restart", async () => {
    const store = fresh();
    const server = await model([{ toolCalls: [{ name: "ask_user", arguments: { question: "Which colour?" }, id: "q1" }] }, { text: "Blue it is." }]);
    const first = await agentOn(store, server);
    const sessionId = await first.newSession(temp);
    expect((await first.prompt(sessionId, "paint the shed")).stopReason).toBe("end_turn");
    expect(first.textOf(sessionId)).toBe("Which colour?");
    await killHard(first);

    const second = await agentOn(store, server);
    await load(second, sessionId);
    expect(second.textOf(sessionId)).toBe("Which colour?");
    const mark = second.updatesOf(sessionId).length;
    expect((await second.prompt(sessionId, "blue")).stopReason).toBe("end_turn");
    expect(second.textOf(sessionId, mark)).toBe("Blue it is.");
    const result = server.requests[1]?.messages.find((message) => message.role === "tool");
    expect(result).toMatchObject({ tool_call_id: "q1", content: "answer: blue" });
  });

  it.skipIf(skip !== undefined)("asks again for an approval that was pending when the agent died, during the load", async () => {
    const store = fresh();
    const note = `note-${name}.txt`;
    const server = await model([{ toolCalls: [{ name: "write_note", arguments: { path: note, text: "kept" }, id: "w1" }] }, { text: "Written." }]);
    const first = await agentOn(store, server);
    first.answerPermission = () => new Promise(() => undefined);
    const sessionId = await first.newSession(temp);
    first.prompt(sessionId, "write a note").catch(() => undefined);
    await first.waitFor(() => first.permissions.length === 1, "the first permission request");
    await killHard(first);
    expect(existsSync(join(temp, note))).toBe(false);

    const second = await agentOn(store, server);
    await load(second, sessionId);
    expect(second.permissions).toHaveLength(1);
    expect(second.permissions[0]?.toolCall).toMatchObject({ toolCallId: "w1", rawInput: { path: note, text: "kept" } });
    expect(readFileSync(join(temp, note), "utf8")).toBe("kept");
    expect(second.textOf(sessionId)).toBe("Written.");
    expect(server.requests).toHaveLength(2);
  });

  it.skipIf(skip !== undefined)("asks again for a form that was open when the agent died, during the load, and carries the turn on with its answer", async () => {
    const store = fresh();
    const forms: acp.ClientCapabilities = { elicitation: { form: {} } };
    const server = await model([{ toolCalls: [{ name: "pick_colour", arguments: {}, id: "q1" }] }, { text: "Green it is." }]);
    const first = await agentOn(store, server, forms);
    first.answerForm = () => new Promise(() => undefined);
    const sessionId = await first.newSession(temp);
    first.prompt(sessionId, "paint the shed").catch(() => undefined);
    await first.waitFor(() => first.forms.length === 1, "the first form");
    await killHard(first);

    const second = await agentOn(store, server, forms);
    second.answerForm = () => ({ action: "accept", content: { colour: "green" } });
    await load(second, sessionId);
    // The same form as before the restart: the schema was kept with the pending question.
    expect(second.forms).toEqual([expect.objectContaining({ sessionId, toolCallId: "q1", mode: "form", message: "Which colour?" })]);
    expect(second.forms).toEqual(first.forms);
    expect(second.textOf(sessionId)).toBe("Green it is.");
    expect(server.requests).toHaveLength(2);
    const result = server.requests[1]?.messages.find((message) => message.role === "tool");
    expect(result).toMatchObject({ tool_call_id: "q1", content: 'answer: {"action":"accept","content":{"colour":"green"}}' });
  });

  it.skipIf(skip !== undefined)("shares one store between two processes without a lost update or a double turn", async () => {
    const store = fresh();
    let releaseSlow!: () => void;
    const slow = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    const server = await model((request) => {
      const text = lastUserText(request);
      return text.includes("slow") ? { text: ["slow ", "reply"], beforeChunk: (chunk) => (chunk === 2 ? slow : undefined) } : { text: `reply to ${text.replace(/[^a-z ]/g, "")}` };
    });
    const a = await agentOn(store, server);
    const b = await agentOn(store, server);
    const sessionId = await a.newSession(temp);
    await a.prompt(sessionId, "one");
    await load(b, sessionId);
    await b.prompt(sessionId, "two");
    await a.prompt(sessionId, "three");
    const seen = server.requests[2]?.messages.filter((message) => message.role === "user").map((message) => message.content);
    expect(seen).toEqual(["one", "two", "three"]);

    const running = a.prompt(sessionId, "slow one");
    await a.waitFor(() => a.textOf(sessionId).endsWith("slow "), "the slow turn to start");
    const requestsBefore = server.requests.length;
    await expect(b.prompt(sessionId, "in parallel")).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("turn running in another agent process") });
    expect(server.requests.length).toBe(requestsBefore);
    releaseSlow();
    expect((await running).stopReason).toBe("end_turn");
    expect((await b.prompt(sessionId, "after")).stopReason).toBe("end_turn");

    const c = await agentOn(store, server);
    await load(c, sessionId);
    const users = c.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "user_message_chunk" && update.content.type === "text" ? [update.content.text] : []));
    expect(users).toEqual(["one", "two", "three", "slow one", "after"]);
  });
});
