// The fake Responses and Messages servers through the real AI SDK providers (`openai:` and
// `anthropic:` as resolveModel makes them) and createAgent: a turn with a tool call, what each
// server was sent, usage, reasoning, errors in each API's own JSON, a stall and a mid-stream error
// (which the chat-completions fake can send too).

import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { ModelCallError } from "../agent/agent-errors.js";
import { createAgent } from "../agent/create-agent.js";
import { defineTool } from "../agent/tool.js";
import type { RunEvent } from "../graph/events.js";
import { userMessage } from "../graph/messages.js";
import type { GraphRun } from "../graph/run-outcome.js";
import { resolveModel } from "../models/resolve-model.js";
import type { FakeModelRequest } from "./fake-model-request.js";
import { FakeMessagesServer } from "./fake-messages-server.js";
import { FakeModelServer } from "./fake-model-server.js";
import type { FakeScriptFor } from "./fake-reply.js";
import { FakeResponsesServer } from "./fake-responses-server.js";

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.close();
  }
});

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const input = (text: string) => ({ messages: [userMessage(text)] });

async function collect(run: GraphRun): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run) {
    events.push(event);
  }
  return events;
}

const providers = [
  { provider: "openai", spec: "openai:gpt-4.1-mini", start: (script: FakeScriptFor<FakeModelRequest>) => FakeResponsesServer.start(script) },
  { provider: "anthropic", spec: "anthropic:claude-sonnet-4-5", start: (script: FakeScriptFor<FakeModelRequest>) => FakeMessagesServer.start(script) },
] as const;

describe.each(providers)("the fake $provider server through the real provider", ({ spec, start }) => {
  async function agentOn(script: FakeScriptFor<FakeModelRequest>, options: { modelIdleTimeoutMs?: number } = {}) {
    const server = await start(script);
    servers.push(server);
    const model = await resolveModel(spec, { baseURL: server.url, apiKey: "test-key" });
    return { server, agent: createAgent({ model, tools: [add], instructions: "Be brief.", ...options }) };
  }

  it("completes a turn with a tool call, sends the tool's result back and reports usage", async () => {
    const { agent, server } = await agentOn([
      { text: "Adding.", toolCalls: [{ name: "add", arguments: { a: 2, b: 3 }, id: "call_add" }], usage: { promptTokens: 40, completionTokens: 9 } },
      { text: ["It ", "is 5."], usage: { promptTokens: 55, completionTokens: 4 } },
    ]);
    const run = agent.run(input("2+3?"), { threadId: "t" });
    const events = await collect(run);
    const outcome = await run.outcome;
    expect(outcome.status).toBe("completed");
    const last = outcome.status === "completed" ? outcome.output.messages.at(-1) : undefined;
    expect(last?.parts).toMatchObject([{ type: "text", text: "It is 5." }]);
    expect(events.filter((event) => event.type === "tool-end")).toHaveLength(1);
    expect(events.filter((event) => event.type === "message-end").map((event) => (event as { usage?: unknown }).usage)).toEqual([
      expect.objectContaining({ inputTokens: 40, outputTokens: 9 }),
      expect.objectContaining({ inputTokens: 55, outputTokens: 4 }),
    ]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({ system: "Be brief.", stream: true, messages: [{ role: "user", text: "2+3?" }] });
    expect(server.requests[0]?.tools.map((tool) => tool.name)).toEqual(["add"]);
    expect(server.requests[1]?.messages).toEqual([
      { role: "user", text: "2+3?" },
      { role: "assistant", text: "Adding.", toolCalls: [{ id: "call_add", name: "add", arguments: { a: 2, b: 3 } }] },
      { role: "tool", toolCallId: "call_add", content: "5" },
    ]);
  });

  it("streams reasoning as reasoning deltas", async () => {
    const { agent } = await agentOn([{ reasoning: ["Think", "ing"], text: "Done." }]);
    const events = await collect(agent.run(input("hi"), { threadId: "t" }));
    expect(events.filter((event) => event.type === "reasoning-delta").map((event) => (event as { delta: string }).delta)).toEqual(["Think", "ing"]);
  });

  it("fails the turn with the API's own error message when every try is answered 429", async () => {
    const { agent, server } = await agentOn(() => ({ status: 429, error: "Rate limit reached for requests", headers: { "retry-after": "0" } }));
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("failed");
    const error = outcome.status === "failed" ? outcome.error : undefined;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error?.message).toContain("Rate limit reached for requests");
    expect(server.requests).toHaveLength(3);
  });

  it("says the key was refused when the server answers 401", async () => {
    const { agent } = await agentOn([{ status: 401, error: "invalid x-api-key" }]);
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status === "failed" && outcome.error.message).toContain("refused the API key (HTTP 401)");
  });

  it("retries a 500 before any output, once the server recovers", async () => {
    const { agent, server } = await agentOn([{ status: 500, error: "The server had an error" }, { text: "fine now" }]);
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("completed");
    expect(server.requests).toHaveLength(2);
  });

  it("retries a busy error the stream sends before any output, once the server recovers", async () => {
    // After the first event (response.created, message_start): the API has answered 200.
    const { agent, server } = await agentOn([{ text: "too soon", errorAfter: 1, error: "Overloaded" }, { text: "fine now" }]);
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("completed");
    expect(server.requests).toHaveLength(2);
  });

  it("fails with the stream's error event after output has begun", async () => {
    const { agent } = await agentOn([{ text: ["a", "b", "c", "d"], errorAfter: 8, error: "The model is overloaded mid-reply" }]);
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("failed");
    expect(outcome.status === "failed" && outcome.error.message).toContain("The model is overloaded mid-reply");
  });

  it("stops a reply that stalls part-way after the idle timeout", async () => {
    const { agent, server } = await agentOn([{ text: ["one", "two", "three"], stallAfter: 5 }], { modelIdleTimeoutMs: 500 });
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("failed");
    expect(outcome.status === "failed" && outcome.error.message).toMatch(/sent nothing for/);
    await expect.poll(() => server.aborted).toBe(1);
  });
});

describe("what each provider sends back in its own format", () => {
  async function twoSteps(spec: string, server: FakeResponsesServer | FakeMessagesServer) {
    servers.push(server);
    const model = await resolveModel(spec, { baseURL: server.url, apiKey: "test-key" });
    const outcome = await createAgent({ model, tools: [add] }).run(input("2+3?"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("completed");
    return server.requests[1]?.body;
  }
  const script = [{ reasoning: ["Add ", "them."], text: "Adding.", toolCalls: [{ name: "add", arguments: { a: 2, b: 3 }, id: "call_add" }] }, { text: "5" }];

  it("openai: the tool result as a function_call_output, the reasoning and text by the item ids the server gave", async () => {
    const body = await twoSteps("openai:gpt-4.1-mini", await FakeResponsesServer.start(script));
    expect(body?.input).toEqual(
      expect.arrayContaining([
        { type: "item_reference", id: "rs_fake_1" },
        expect.objectContaining({ type: "function_call", call_id: "call_add", name: "add", arguments: '{"a":2,"b":3}' }),
        { type: "function_call_output", call_id: "call_add", output: "5" },
      ]),
    );
  });

  it("anthropic: the tool result as a tool_result block, after the thinking block with its signature", async () => {
    const body = await twoSteps("anthropic:claude-sonnet-4-5", await FakeMessagesServer.start(script));
    expect(body?.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "2+3?" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Add them.", signature: "fake-signature-1" },
          { type: "text", text: "Adding." },
          { type: "tool_use", id: "call_add", name: "add", input: { a: 2, b: 3 } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_add", content: "5" }] },
    ]);
  });
});

describe("the fakes on the wire", () => {
  it("answer errors in each API's own error JSON, and an unknown item_reference with 400", async () => {
    const responses = await FakeResponsesServer.start([{ status: 429, error: "Slow down" }]);
    const messages = await FakeMessagesServer.start([{ status: 529, error: "Overloaded" }]);
    servers.push(responses, messages);
    const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    const limited = await post(`${responses.url}/responses`, { model: "m", input: "hi", stream: true });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: { message: "Slow down", type: "requests", code: "rate_limit_exceeded", param: null } });
    const unknown = await post(`${responses.url}/responses`, { model: "m", input: [{ type: "item_reference", id: "msg_nowhere" }] });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { message: "Item with id 'msg_nowhere' not found." } });

    const overloaded = await post(`${messages.url}/messages`, { model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toEqual({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    expect(messages.requests[0]).toMatchObject({ model: "m", system: "", messages: [{ role: "user", text: "hi" }], stream: true });
  });

  it("the chat-completions fake sends an in-stream error after output has begun", async () => {
    const server = await FakeModelServer.start([{ text: ["a", "b", "c"], errorAfter: 3, error: "The model is overloaded mid-reply" }]);
    servers.push(server);
    const model = await resolveModel("openai-compatible:fake-model", { baseURL: server.url });
    const outcome = await createAgent({ model }).run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("failed");
    expect(outcome.status === "failed" && outcome.error.message).toContain("The model is overloaded mid-reply");
  });
});

describe.each(providers)("the fake $provider server without streaming", ({ spec, start }) => {
  it("answers a whole reply with its text, tool call and usage", async () => {
    const server = await start([{ text: "Adding.", toolCalls: [{ name: "add", arguments: { a: 2, b: 3 }, id: "call_add" }], usage: { promptTokens: 40, completionTokens: 9 } }]);
    servers.push(server);
    const model = await resolveModel(spec, { baseURL: server.url, apiKey: "test-key" });
    const result = await model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "2+3?" }] }] });
    expect(result.content).toEqual([
      expect.objectContaining({ type: "text", text: "Adding." }),
      expect.objectContaining({ type: "tool-call", toolCallId: "call_add", toolName: "add", input: '{"a":2,"b":3}' }),
    ]);
    expect(result.finishReason.unified).toBe("tool-calls");
    expect(result.usage).toMatchObject({ inputTokens: { total: 40 }, outputTokens: { total: 9 } });
    expect(server.requests[0]?.stream).toBe(false);
  });
});
