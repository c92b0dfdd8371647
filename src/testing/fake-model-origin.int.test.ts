// The conformance check's one model origin: each real AI SDK provider reaches its API at the same
// port, a query string does not matter, and a call to a path no fake serves is answered 404 and
// kept with a hint that names what to set.

import { afterEach, describe, expect, it } from "vitest";

import { createAgent } from "../agent/create-agent.js";
import { userMessage } from "../graph/messages.js";
import { resolveModel } from "../models/resolve-model.js";
import { ConformanceModel, MODEL_ID } from "./conformance/conformance-model.js";

const models: ConformanceModel[] = [];
afterEach(async () => {
  for (const model of models.splice(0)) {
    await model.close();
  }
});

async function started(): Promise<ConformanceModel> {
  const model = await ConformanceModel.start();
  models.push(model);
  model.plan("tok", () => ({ text: "Served." }));
  return model;
}

async function replyText(spec: string, baseURL: string): Promise<string> {
  const agent = createAgent({ model: await resolveModel(spec, { baseURL, apiKey: "test-key" }), tools: [] });
  const outcome = await agent.run({ messages: [userMessage("tok: say something")] }, { threadId: "t" }).outcome;
  expect(outcome.status).toBe("completed");
  const last = outcome.status === "completed" ? outcome.output.messages.at(-1) : undefined;
  return last?.role === "assistant" ? last.parts.map((part) => (part.type === "text" ? part.text : "")).join("") : "";
}

describe("the conformance check's model origin", () => {
  it.each([
    { api: "Chat Completions", spec: `openai-compatible:${MODEL_ID}` },
    { api: "Responses", spec: "openai:gpt-4.1-mini" },
    { api: "Anthropic Messages", spec: "anthropic:claude-sonnet-4-5" },
  ])("serves $api at <origin>/v1, where the provider finds it", async ({ spec }) => {
    const model = await started();
    expect(await replyText(spec, model.v1)).toBe("Served.");
    expect(model.unserved).toEqual([]);
  });

  it("routes on the path alone: a query string reaches the same fake", async () => {
    const model = await started();
    const response = await fetch(`${model.url}/v1/messages?beta=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", max_tokens: 1000, messages: [{ role: "user", content: "tok" }] }),
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain("Served.");
    const list = await fetch(`${model.url}/v1/models?limit=5`);
    expect((await list.json()) as unknown).toMatchObject({ data: [{ id: MODEL_ID }] });
    expect(model.unserved).toEqual([]);
  });

  it("reads the tools Codex offers in an additional_tools item, namespaces and all", async () => {
    const model = await started();
    const seen: string[][] = [];
    model.plan("tok", (call) => {
      seen.push(call.tools.map((tool) => tool.name));
      return { text: "Served." };
    });
    const exec = { type: "function", name: "exec", description: "Runs a command.", parameters: { type: "object" } };
    const body = {
      model: "m",
      stream: false,
      input: [
        { type: "additional_tools", role: "developer", tools: [{ type: "namespace", name: "functions", tools: [exec, { ...exec, name: "wait" }] }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "tok" }] },
      ],
      tools: [{ ...exec, name: "top" }],
    };
    const response = await fetch(`${model.v1}/responses`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    expect(seen).toEqual([["top", "exec", "wait"]]);
  });

  it("answers a reachability probe (HEAD) without counting it as a model call", async () => {
    const model = await started();
    expect((await fetch(`${model.url}/api/hello`, { method: "HEAD" })).status).toBe(200);
    expect(model.unserved).toEqual([]);
  });

  it("keeps a call it cannot serve, with the API it looks like and the variable to set", async () => {
    const model = await started();
    const doubled = await fetch(`${model.url}/v1/v1/messages?beta=true`, { method: "POST", body: "{}" });
    expect(doubled.status).toBe(404);
    const other = await fetch(`${model.url}/v2/generate`, { method: "POST", body: "{}" });
    expect(other.status).toBe(404);
    expect(model.unserved).toEqual([
      { method: "POST", url: "/v1/v1/messages?beta=true", api: "Anthropic Messages", hint: expect.stringContaining(`ANTHROPIC_BASE_URL should be the origin, ${model.url}`) },
      { method: "POST", url: "/v2/generate", api: undefined, hint: expect.stringContaining(`${model.v1}/chat/completions`) },
    ]);
    expect(JSON.stringify(await doubled.json())).toContain("ANTHROPIC_BASE_URL");
  });

  it("tells an agent its variables: OpenAI's at <origin>/v1, Anthropic's at the origin", async () => {
    const model = await started();
    expect(model.env()).toMatchObject({ WEFT_BASE_URL: model.v1, OPENAI_BASE_URL: model.v1, ANTHROPIC_BASE_URL: model.url });
  });
});
