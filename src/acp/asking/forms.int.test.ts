// Questions as forms, over a child's stdio with the official SDK client: a question with an answer
// schema becomes `elicitation/create` (form mode, tied to the tool call that asks) for an editor
// that advertises `elicitation.form`, and the run goes on in the same turn with the answer; every
// other editor gets today's question as a message. Every line is checked against the SDK's schema,
// and the wire checker fails any form sent to an editor that did not advertise forms.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type * as acp from "@agentclientprotocol/sdk";
import { beforeEach, describe, expect, it } from "vitest";

import type { AgentProcess } from "../../../test/support/agent-process.js";
import { startedAgents } from "../../../test/support/started-agents.js";
import type { FakeModelServer, ChatRequest, FakeScript } from "../../testing/fake-model-server.js";

let notes: string;

beforeEach(async () => {
  notes = await mkdtemp(join(tmpdir(), "weft-forms-"));
});

const started = startedAgents(() => rm(notes, { recursive: true, force: true }));

const forms: acp.ClientCapabilities = { elicitation: { form: {} } };

async function start(capabilities: acp.ClientCapabilities, script: FakeScript = [], fixture = "agent.ts"): Promise<{ agent: AgentProcess; model: FakeModelServer }> {
  const model = await started.fakeModel(script);
  const agent = await started.connect({ fixture, env: { FAKE_MODEL_URL: model.url, NOTES_DIR: notes } }, capabilities);
  return { agent, model };
}

const pickColour: FakeScript = [{ toolCalls: [{ name: "pick_colour", arguments: {}, id: "q" }] }, { text: "Noted." }];
const toolResult = (request: ChatRequest | undefined) => request?.messages.find((message) => message.role === "tool")?.content;
const formRequests = (agent: AgentProcess) => agent.wire.fromAgent.filter((message) => message.method === "elicitation/create");

describe("a question with an answer schema, for an editor that shows forms", () => {
  it("asks with elicitation/create tied to the tool call, and accept carries the run on in the same turn with the content", async () => {
    const { agent, model } = await start(forms, pickColour);
    agent.answerForm = () => ({ action: "accept", content: { colour: "red", shade: 3 } });
    const sessionId = await agent.newSession(notes);
    expect((await agent.prompt(sessionId, "paint the shed")).stopReason).toBe("end_turn");
    expect(agent.forms).toEqual([
      {
        sessionId,
        toolCallId: "q",
        mode: "form",
        message: "Which colour?",
        requestedSchema: {
          type: "object",
          properties: { colour: { type: "string", enum: ["red", "green", "blue"], title: "Colour" }, shade: { type: "integer", minimum: 1, maximum: 9 } },
          required: ["colour"],
        },
      },
    ]);
    // One prompt: the model heard the answer and replied within the same turn.
    expect(model.requests).toHaveLength(2);
    expect(toolResult(model.requests[1])).toBe('answer: {"action":"accept","content":{"colour":"red","shade":3}}');
    expect(agent.textOf(sessionId)).toBe("Noted.");
    const completed = agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "tool_call_update" && update.toolCallId === "q" && update.status === "completed");
    expect(completed).toHaveLength(1);
  });

  it.each(["decline", "cancel"] as const)("gives the run { action: %j } when the person answers so, and the turn goes on", async (action) => {
    const { agent, model } = await start(forms, pickColour);
    agent.answerForm = () => ({ action });
    const sessionId = await agent.newSession(notes);
    expect((await agent.prompt(sessionId, "paint the shed")).stopReason).toBe("end_turn");
    expect(agent.forms).toHaveLength(1);
    expect(toolResult(model.requests[1])).toBe(`answer: {"action":"${action}"}`);
    expect(agent.textOf(sessionId)).toBe("Noted.");
  });

  it("withdraws the form when the turn is cancelled, and ends the turn as cancelled", async () => {
    const { agent, model } = await start(forms, pickColour);
    agent.answerForm = () => new Promise(() => undefined);
    const sessionId = await agent.newSession(notes);
    const turn = agent.prompt(sessionId, "paint the shed");
    await agent.waitFor(() => agent.forms.length === 1, "the form");
    await agent.cancel(sessionId);
    expect((await turn).stopReason).toBe("cancelled");
    const formId = formRequests(agent)[0]?.id;
    const withdrawn = agent.wire.fromAgent.filter((message) => message.method === "$/cancel_request");
    expect(withdrawn).toEqual([expect.objectContaining({ params: { requestId: formId } })]);
    expect(model.requests).toHaveLength(1);
  });

  it("asks a plain graph's interrupt with a schema as a form too", async () => {
    const { agent } = await start(forms, [], "graph-agent.ts");
    agent.answerForm = () => ({ action: "accept", content: { colour: "green" } });
    const sessionId = await agent.newSession(notes);
    expect((await agent.prompt(sessionId, "form please")).stopReason).toBe("end_turn");
    expect(agent.forms[0]).toEqual({ sessionId, mode: "form", message: "Which colour?", requestedSchema: expect.objectContaining({ required: ["colour"] }) });
    expect(agent.textOf(sessionId)).toBe("You chose green.");
  });

  it("never asks for a secret: the turn fails, saying why, and nothing is asked", async () => {
    const { agent, model } = await start(forms, [{ toolCalls: [{ name: "ask_key", arguments: {}, id: "k" }] }, { text: "unreachable" }]);
    const sessionId = await agent.newSession(notes);
    await expect(agent.prompt(sessionId, "connect")).rejects.toMatchObject({ code: -32603, data: { code: "secret_in_form" }, message: expect.stringContaining("asks for a secret") });
    expect(agent.forms).toEqual([]);
    expect(agent.textOf(sessionId)).not.toContain("API key");
    expect(model.requests).toHaveLength(1);
  });
});

describe("the same question, for an editor without forms", () => {
  it.each<[string, acp.ClientCapabilities]>([
    ["no elicitation", {}],
    ["elicitation without form", { elicitation: {} }],
    ["URL mode only", { elicitation: { url: {} } }],
  ])("asks in words and ends the turn (%s); the next prompt answers with a reply", async (_what, capabilities) => {
    const { agent, model } = await start(capabilities, pickColour);
    const sessionId = await agent.newSession(notes);
    expect((await agent.prompt(sessionId, "paint the shed")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Which colour?");
    expect(formRequests(agent)).toEqual([]);
    const mark = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "blue, please")).stopReason).toBe("end_turn");
    expect(toolResult(model.requests[1])).toBe('answer: {"action":"reply","text":"blue, please"}');
    expect(agent.textOf(sessionId, mark)).toBe("Noted.");
  });
});
