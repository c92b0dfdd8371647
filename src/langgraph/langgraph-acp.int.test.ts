// A real LangGraph.js graph served through fromLangGraph() over a child's stdio, driven with the
// official SDK client, its model ChatOpenAI against the fake chat-completions server: text streams
// in chunks, tool calls go pending → in_progress → completed, a rejected write leaves no file,
// a typed interrupt is answered through a form, cancelling one session leaves another's turn to
// finish, and a loaded session replays its tool calls. Every line is checked against the SDK.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { AgentProcess, stopAndCheck } from "../../test/support/agent-process.js";
import { FakeModelServer, type FakeScript } from "../testing/fake-model-server.js";

const agents: AgentProcess[] = [];
const servers: FakeModelServer[] = [];
let project: string;

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), "weft-langgraph-"));
});

afterEach(async () => {
  expect(await stopAndCheck(agents, servers)).toEqual([]);
  await rm(project, { recursive: true, force: true });
});

async function start(script: FakeScript, options: { graph?: string; capabilities?: acp.ClientCapabilities } = {}): Promise<{ agent: AgentProcess; model: FakeModelServer }> {
  const model = await FakeModelServer.start(script);
  servers.push(model);
  const agent = AgentProcess.start({ fixture: "langgraph-agent.ts", env: { FAKE_MODEL_URL: model.url, LANGGRAPH_GRAPH: options.graph } });
  agents.push(agent);
  await agent.initialize(options.capabilities ?? {});
  return { agent, model };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const textChunks = (agent: AgentProcess, sessionId: string) => agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "agent_message_chunk");
const toolUpdates = (agent: AgentProcess, sessionId: string) =>
  agent.updatesOf(sessionId).filter((update): update is Extract<acp.SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }> => update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update");

describe("a createAgent() agent served through fromLangGraph()", () => {
  it("streams the reply in several chunks before the model has finished", async () => {
    const release = deferred();
    const { agent } = await start([{ text: ["Once ", "upon ", "a ", "time."], beforeChunk: (index) => (index === 4 ? release.promise : undefined) }]);
    const sessionId = await agent.newSession(project);
    const prompt = agent.prompt(sessionId, "tell me a story");
    // The model's last chunk is held back: three chunks reach the editor before it is sent.
    await agent.waitFor(() => textChunks(agent, sessionId).length >= 3, "three text chunks");
    expect(agent.textOf(sessionId)).toBe("Once upon a ");
    release.resolve();
    expect((await prompt).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Once upon a time.");
    const ids = new Set(textChunks(agent, sessionId).map((update) => (update as { messageId?: string }).messageId));
    expect(ids.size).toBe(1);
  });

  it("shows a tool call pending, then in progress, then completed, with the tool reading the session's directory", async () => {
    await writeFile(join(project, "notes.txt"), "the secret is 42");
    const { agent, model } = await start([{ toolCalls: [{ id: "call_read", name: "read_file", arguments: { path: "notes.txt" } }] }, { text: "It says 42." }]);
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "what do my notes say?")).stopReason).toBe("end_turn");
    const statuses = toolUpdates(agent, sessionId).map((update) => [update.sessionUpdate, update.status]);
    expect(statuses).toEqual([
      ["tool_call", "pending"],
      ["tool_call_update", "in_progress"],
      ["tool_call_update", "completed"],
    ]);
    expect(toolUpdates(agent, sessionId).at(-1)?.rawOutput).toBe("the secret is 42");
    expect(model.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe("the secret is 42");
    expect(agent.textOf(sessionId)).toBe("It says 42.");
  });
});
