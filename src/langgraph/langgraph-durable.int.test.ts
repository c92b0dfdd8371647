// A LangGraph.js graph whose sessions and checkpoints share one weft store (WeftCheckpointSaver)
// outlives its agent process: SIGKILLed mid-turn, the next process's session/load carries the turn
// on, on SQLite, Postgres and Redis. Killed in the first model reply, the turn is run again from
// its input checkpoint; killed in the reply after a tool ran, it carries on from the checkpoint
// after the tool, so neither the first model call nor the tool runs again.

import { writeFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { AgentProcess } from "../../test/support/agent-process.js";
import { killedMidStory, killHard, restartHarness, stallingStory } from "../../test/support/restart-harness.js";
import { storesUnderTest } from "../../test/support/servers.js";
import { type ChatRequest, FakeModelServer, type FakeScript } from "../testing/fake-model-server.js";

const { temp, specs, agents, servers } = restartHarness("weft-langgraph-durable-");

async function model(script: FakeScript): Promise<FakeModelServer> {
  const server = await FakeModelServer.start(script);
  servers.push(server);
  return server;
}

async function agentOn(store: string, server: FakeModelServer): Promise<AgentProcess> {
  const agent = AgentProcess.start({ fixture: "langgraph-agent.ts", env: { FAKE_MODEL_URL: server.url, WEFT_TEST_STORE: store } });
  agents.push(agent);
  await agent.initialize({});
  return agent;
}

const load = (agent: AgentProcess, sessionId: string) => agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });
const hang = new Promise<void>(() => undefined);
const userTexts = (request: ChatRequest | undefined) => (request?.messages ?? []).filter((message) => message.role === "user").map((message) => message.content);

describe.each(storesUnderTest(() => temp))("a LangGraph graph's turn killed mid-way, on $name", ({ skip, spec }) => {
  const fresh = () => {
    const created = spec();
    specs.push(created);
    return created;
  };
  const title = (words: string) => `${words}${skip ? ` (skipped: ${skip})` : ""}`;

  it.skipIf(skip !== undefined)(title("carries on a turn killed in the middle of the streamed reply after session/load"), async () => {
    const store = fresh();
    const server = await model(stallingStory((request) => userTexts(request).includes("another")));
    const sessionId = await killedMidStory(await agentOn(store, server), temp);

    const second = await agentOn(store, server);
    await load(second, sessionId);
    expect(second.updatesOf(sessionId)[0]).toMatchObject({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "tell a story" } });
    await second.waitFor(() => second.textOf(sessionId) === "Once upon a time, the end.", "the carried-on reply");
    expect(server.requests).toHaveLength(2);
    expect(userTexts(server.requests[1])).toEqual(["tell a story"]);

    // The conversation goes on with the carried-on turn in it, once.
    expect((await second.prompt(sessionId, "another one")).stopReason).toBe("end_turn");
    const roles = server.requests[2]?.messages.map((message) => `${message.role}:${typeof message.content === "string" ? message.content : ""}`);
    expect(roles).toEqual(["user:tell a story", "assistant:Once upon a time, the end.", "user:another one"]);
  });

  it.skipIf(skip !== undefined)(title("carries on from the checkpoint after a tool ran: the first model call and the tool are not run again"), async () => {
    const store = fresh();
    writeFileSync(join(temp, "notes.txt"), "remember the milk");
    const server = await model((_request, index) =>
      index === 0
        ? { toolCalls: [{ id: "call_read", name: "read_file", arguments: { path: "notes.txt" } }] }
        : index === 1
          ? { text: ["It ", "says ", "remember"], beforeChunk: (chunk) => (chunk === 3 ? hang : undefined) }
          : { text: ["It ", "says: remember the milk."] },
    );
    const first = await agentOn(store, server);
    const sessionId = await first.newSession(temp);
    first.prompt(sessionId, "what do my notes say?").catch(() => undefined);
    await first.waitFor(() => first.textOf(sessionId) === "It says ", "the reply after the tool to start streaming");
    const before = first.updatesOf(sessionId).filter((update) => update.sessionUpdate === "tool_call_update" && update.status === "completed");
    expect(before).toHaveLength(1);
    await killHard(first);

    const second = await agentOn(store, server);
    await load(second, sessionId);
    await second.waitFor(() => second.textOf(sessionId).endsWith("It says: remember the milk."), "the carried-on reply");
    // Three model calls in all: the tool call, the cut reply, and that reply again. A turn started
    // over would have asked for the tool call a second time.
    expect(server.requests).toHaveLength(3);
    const resent = server.requests[2]?.messages.find((message) => message.role === "tool");
    expect(resent?.content).toBe("remember the milk");
    // The editor is shown the tool call that finished before the kill as completed: in the replay,
    // or (when the agent died before the session recorded it) in what the carried-on turn recovers.
    const call = second.updatesOf(sessionId).filter((update) => (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") && update.toolCallId === "call_read");
    expect(call.length).toBeGreaterThan(0);
    expect(call.at(-1)).toMatchObject({ status: "completed" });
  });
});
