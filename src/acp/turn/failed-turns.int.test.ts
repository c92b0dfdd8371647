// Turns whose run fails, over real stdio with durable sessions (SQLite) and the default
// `failures: "error"`: a prompt answered with an error is taken back, so the editor can send it
// again without a duplicate, unless a tool ran; then the turn stays, closed by a note, and the
// conversation every later turn sends still alternates.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, describe, expect, it } from "vitest";

import { AgentProcess } from "../../../test/support/agent-process.js";
import { startedAgents } from "../../../test/support/started-agents.js";
import { FakeModelServer, type ChatRequest, type FakeScript } from "../../testing/fake-model-server.js";

const temp = mkdtempSync(join(tmpdir(), "weft-failed-turns-"));
const { agents, servers } = startedAgents();
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function setUp(script: FakeScript): Promise<{ model: FakeModelServer; start: () => Promise<AgentProcess> }> {
  const model = await FakeModelServer.start(script);
  servers.push(model);
  const store = join(temp, `sessions-${servers.length}.db`);
  const start = async () => {
    const agent = AgentProcess.start({ fixture: "session-agent.ts", env: { FAKE_MODEL_URL: model.url, WEFT_TEST_STORE: store } });
    agents.push(agent);
    await agent.initialize();
    return agent;
  };
  return { model, start };
}

const shape = (request: ChatRequest | undefined) =>
  request?.messages.map((message) => `${message.role}${typeof message.content === "string" && message.role !== "system" ? `:${message.content}` : ""}`);

describe("a turn that fails", () => {
  it("is taken back when it got an error and nothing was kept, so sending it again makes no duplicate", async () => {
    const { model, start } = await setUp([{ status: 400, error: "This request is not valid" }, { text: "Here it is." }]);
    const agent = await start();
    const sessionId = await agent.newSession(temp);
    await expect(agent.prompt(sessionId, "tell me")).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("The agent failed: The model openai-compatible.chat/fake-model failed: HTTP 400"),
      data: { code: "model_call_failed" },
    });
    expect((await agent.prompt(sessionId, "tell me")).stopReason).toBe("end_turn");
    expect(shape(model.requests[1])).toEqual(["system", "user:tell me"]);

    const reader = await start();
    await reader.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });
    const users = reader.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "user_message_chunk" && update.content.type === "text" ? [update.content.text] : []));
    expect(users).toEqual(["tell me"]);
    expect(reader.textOf(sessionId)).toBe("Here it is.");
  });

  it("stays, closed by a note, when a tool ran before it failed; the next turn's conversation alternates", async () => {
    const { model, start } = await setUp([
      { toolCalls: [{ name: "add", arguments: { a: 1, b: 2 }, id: "sum" }] },
      { status: 422, error: "Cannot process this conversation" },
      { text: "Three." },
    ]);
    const agent = await start();
    const sessionId = await agent.newSession(temp);
    await expect(agent.prompt(sessionId, "add 1 and 2")).rejects.toMatchObject({ code: -32603, data: { code: "model_call_failed" } });
    expect((await agent.prompt(sessionId, "so?")).stopReason).toBe("end_turn");
    expect(shape(model.requests[2])).toEqual(["system", "user:add 1 and 2", "assistant", "tool:3", expect.stringMatching(/^assistant:\[This turn ended with an error: .*HTTP 422/), "user:so?"]);
  });
});
