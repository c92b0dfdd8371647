// Crash windows of a turn, on SQLite, Postgres and Redis: the agent SIGKILLs itself at an exact
// point of a turn (see test/fixtures/session-agent.ts), and a new process's session/load must
// show the turn's reply (replayed from the thread, or carried on), and the next turn must see it.
// The window the issue found: after the graph wrote the run's final step, before the session's record.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { AgentProcess } from "../../test/support/agent-process.js";
import { restartHarness } from "../../test/support/restart-harness.js";
import { storesUnderTest } from "../../test/support/servers.js";
import { FakeModelServer, type ChatRequest, type FakeScript } from "../testing/fake-model-server.js";

const { temp, specs, agents, servers } = restartHarness("weft-crash-window-");

const conversation = (request: ChatRequest | undefined) => request?.messages.map((message) => `${message.role}:${typeof message.content === "string" ? message.content : ""}`);

/** The updates as an editor shows them: a tool call once, with the status its last update gave it. */
function shownAs(updates: acp.SessionUpdate[]): string[] {
  const statuses = new Map<string, string | null | undefined>();
  for (const update of updates) {
    if ((update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") && update.status) {
      statuses.set(update.toolCallId, update.status);
    }
  }
  return updates.filter((update) => update.sessionUpdate !== "tool_call_update").map((update) => (update.sessionUpdate === "tool_call" ? `tool_call:${statuses.get(update.toolCallId)}` : update.sessionUpdate));
}

/** Answers the last user message: "what is the answer?" gets the answer, anything else a short note. */
const answering: FakeScript = (request) => {
  const last = request.messages.at(-1);
  return { text: last?.role === "user" && last.content === "what is the answer?" ? ["The answer ", "is 42."] : "Noted." };
};

describe.each(storesUnderTest(() => temp))("crash windows on $name", ({ skip, spec }) => {
  /** An initialized agent on `store`, which kills itself at `killAt` when given. */
  const start = async (model: FakeModelServer, store: string, killAt?: string) => {
    const agent = AgentProcess.start({ fixture: "session-agent.ts", env: { FAKE_MODEL_URL: model.url, WEFT_TEST_STORE: store, ...(killAt ? { WEFT_TEST_KILL_AT: killAt } : {}) } });
    agents.push(agent);
    await agent.initialize();
    return agent;
  };
  /** Prompts an agent that kills itself in the turn: the prompt fails and the agent dies of SIGKILL. */
  const killedBy = async (agent: AgentProcess, sessionId: string, prompt: string) => {
    await expect(agent.prompt(sessionId, prompt)).rejects.toThrow();
    expect(await agent.exited).toMatchObject({ signal: "SIGKILL" });
  };
  const setUp = async (script: FakeScript) => {
    const store = spec();
    specs.push(store);
    const model = await FakeModelServer.start(script);
    servers.push(model);
    return { store, model };
  };
  const load = (agent: AgentProcess, sessionId: string) => agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });
  const reason = skip ? ` (skipped: ${skip})` : "";

  it.skipIf(skip !== undefined)(`replays a reply whose final step was checkpointed before the session was written${reason}`, async () => {
    const { store, model } = await setUp(answering);
    const first = await start(model, store, "final-checkpoint");
    const sessionId = await first.newSession(temp);
    await killedBy(first, sessionId, "what is the answer?");

    const second = await start(model, store);
    await load(second, sessionId);
    expect(second.updatesOf(sessionId)[0]).toMatchObject({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "what is the answer?" } });
    expect(second.textOf(sessionId)).toBe("The answer is 42.");
    // The reply came from the thread: the model was not asked again.
    expect(model.requests).toHaveLength(1);

    expect((await second.prompt(sessionId, "thanks")).stopReason).toBe("end_turn");
    expect(conversation(model.requests[1])).toEqual(["system:You are a test agent.", "user:what is the answer?", "assistant:The answer is 42.", "user:thanks"]);

    // And a third process sees the conversation whole, once.
    const third = await start(model, store);
    await load(third, sessionId);
    expect(third.textOf(sessionId)).toBe("The answer is 42.Noted.");
  });

  it.skipIf(skip !== undefined)(`replays every step of a turn whose tool ran, in order${reason}`, async () => {
    const { store, model } = await setUp((request, index) =>
      index === 0 ? { toolCalls: [{ name: "add", arguments: { a: 20, b: 22 }, id: "sum" }] } : { text: request.messages.at(-1)?.role === "tool" ? "It is 42." : "Noted." },
    );
    const first = await start(model, store, "final-checkpoint");
    const sessionId = await first.newSession(temp);
    await killedBy(first, sessionId, "add 20 and 22");

    const second = await start(model, store);
    await load(second, sessionId);
    // What the editor shows: each tool call once, as its last update left it. Whether the agent
    // died before or after it wrote the call to the session, the call shows once, completed.
    expect(shownAs(second.updatesOf(sessionId))).toEqual(["user_message_chunk", "tool_call:completed", "agent_message_chunk"]);
    expect(second.textOf(sessionId)).toBe("It is 42.");
    expect(model.requests).toHaveLength(2);

    expect((await second.prompt(sessionId, "thanks")).stopReason).toBe("end_turn");
    expect(model.requests[2]?.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
  });

  // Earlier points of a turn: the load carries the turn on, and its reply is not lost either.
  it.skipIf(skip !== undefined).each([
    ["after the run's final head, before that step's record", "final-head", false],
    ["after the first run claimed the thread, before its first step", "claim:1", false],
    ["after a later turn's run claimed the thread, before its first step", "claim:2", true],
  ] as const)(`carries on a turn killed %s${reason}`, async (_what, killAt, earlier) => {
    const { store, model } = await setUp(answering);
    const first = await start(model, store, killAt);
    const sessionId = await first.newSession(temp);
    if (earlier) {
      expect((await first.prompt(sessionId, "hello")).stopReason).toBe("end_turn");
    }
    await killedBy(first, sessionId, "what is the answer?");

    const second = await start(model, store);
    await load(second, sessionId);
    expect(second.textOf(sessionId)).toBe(`${earlier ? "Noted." : ""}The answer is 42.`);
    expect((await second.prompt(sessionId, "thanks")).stopReason).toBe("end_turn");
    expect(conversation(model.requests.at(-1))).toEqual([
      "system:You are a test agent.",
      ...(earlier ? ["user:hello", "assistant:Noted."] : []),
      "user:what is the answer?",
      "assistant:The answer is 42.",
      "user:thanks",
    ]);
  });
});
