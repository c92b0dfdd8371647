// The crash window between a turn's final checkpoint and the session record, on SQLite, Postgres
// and Redis: the agent SIGKILLs itself right after the graph has written the run's final step and
// before the session's record is committed. A new process's session/load must replay the reply
// the thread has, and the next turn must see it.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";

import { AgentProcess, stopAndCheck } from "../../../test/support/agent-process.js";
import { cleanUpStores, storesUnderTest } from "../../../test/support/servers.js";
import { FakeModelServer, type ChatRequest } from "../../testing/fake-model-server.js";

const temp = mkdtempSync(join(tmpdir(), "weft-crash-window-"));
const specs: string[] = [];
const agents: AgentProcess[] = [];
const servers: FakeModelServer[] = [];

afterEach(async () => {
  expect(await stopAndCheck(agents, servers)).toEqual([]);
});

afterAll(async () => {
  await cleanUpStores(specs.filter((spec) => spec.includes("://")));
  rmSync(temp, { recursive: true, force: true });
});

const conversation = (request: ChatRequest | undefined) => request?.messages.map((message) => `${message.role}:${typeof message.content === "string" ? message.content : JSON.stringify(message.content)}`);

describe.each(storesUnderTest(() => temp))("the crash window on $name", ({ skip, spec }) => {
  it.skipIf(skip !== undefined)(`replays a reply whose final step was checkpointed when the agent died${skip ? ` (skipped: ${skip})` : ""}`, async () => {
    const store = spec();
    specs.push(store);
    const model = await FakeModelServer.start((request) => ({ text: request.messages.length > 2 ? "Noted." : ["The answer ", "is 42."] }));
    servers.push(model);
    const env = { FAKE_MODEL_URL: model.url, WEFT_TEST_STORE: store };

    const first = AgentProcess.start({ fixture: "session-agent.ts", env: { ...env, WEFT_TEST_KILL_IN_CRASH_WINDOW: "1" } });
    agents.push(first);
    await first.initialize();
    const sessionId = await first.newSession(temp);
    await expect(first.prompt(sessionId, "what is the answer?")).rejects.toThrow();
    expect(await first.exited).toMatchObject({ signal: "SIGKILL" });

    const second = AgentProcess.start({ fixture: "session-agent.ts", env });
    agents.push(second);
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });
    const replayed = second.updatesOf(sessionId);
    expect(replayed[0]).toMatchObject({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "what is the answer?" } });
    expect(second.textOf(sessionId)).toBe("The answer is 42.");
    // The reply came from the thread: the model was not asked again.
    expect(model.requests).toHaveLength(1);

    expect((await second.prompt(sessionId, "thanks")).stopReason).toBe("end_turn");
    expect(conversation(model.requests[1])).toEqual(["system:You are a test agent.", "user:what is the answer?", "assistant:The answer is 42.", "user:thanks"]);

    // And a third process sees the conversation whole, once.
    const third = AgentProcess.start({ fixture: "session-agent.ts", env });
    agents.push(third);
    await third.initialize();
    await third.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });
    expect(third.textOf(sessionId)).toBe("The answer is 42.Noted.");
  });

  it.skipIf(skip !== undefined)(`replays every step of a turn whose tool ran, in order${skip ? ` (skipped: ${skip})` : ""}`, async () => {
    const store = spec();
    specs.push(store);
    const model = await FakeModelServer.start((request, index) =>
      index === 0 ? { toolCalls: [{ name: "add", arguments: { a: 20, b: 22 }, id: "sum" }] } : { text: request.messages.at(-1)?.role === "tool" ? "It is 42." : "Noted." },
    );
    servers.push(model);
    const env = { FAKE_MODEL_URL: model.url, WEFT_TEST_STORE: store };

    const first = AgentProcess.start({ fixture: "session-agent.ts", env: { ...env, WEFT_TEST_KILL_IN_CRASH_WINDOW: "1" } });
    agents.push(first);
    await first.initialize();
    const sessionId = await first.newSession(temp);
    await expect(first.prompt(sessionId, "add 20 and 22")).rejects.toThrow();
    expect(await first.exited).toMatchObject({ signal: "SIGKILL" });

    const second = AgentProcess.start({ fixture: "session-agent.ts", env });
    agents.push(second);
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });
    const kinds = second.updatesOf(sessionId).map((update) => (update.sessionUpdate === "tool_call" ? `tool_call:${update.status}` : update.sessionUpdate));
    expect(kinds).toEqual(["user_message_chunk", "tool_call:completed", "agent_message_chunk"]);
    expect(second.textOf(sessionId)).toBe("It is 42.");
    expect(model.requests).toHaveLength(2);

    expect((await second.prompt(sessionId, "thanks")).stopReason).toBe("end_turn");
    expect(model.requests[2]?.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
  });
});
