// The thought level as the real OpenAI and Anthropic providers send it: each request's body, caught
// by a server on 127.0.0.1 that records it and answers with an error.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ModelCatalog } from "./model-options.js";

let server: Server;
let baseURL = "";
const bodies: Array<{ path: string | undefined; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => {
      bodies.push({ path: request.url, body: JSON.parse(text) as Record<string, unknown> });
      response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "recorded", type: "invalid_request_error" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("the thought level on the wire", () => {
  it("is OpenAI's reasoning effort and Anthropic's thinking budget, and nothing for a model that does not reason", async () => {
    const catalog = new ModelCatalog(["openai:o4-mini", "anthropic:claude-sonnet-4-5", "openai:gpt-4.1"].map((model) => ({ model, baseURL, apiKey: "k" })));
    const send = async (config: Record<string, string>) => {
      const model = catalog.modelFor({ config });
      const providerOptions = catalog.providerOptionsFor({ config });
      const call = { prompt: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }], ...(providerOptions ? { providerOptions } : {}) };
      await expect(model.doStream(call)).rejects.toThrow();
      return bodies.at(-1);
    };
    expect(await send({ model: "openai:o4-mini", thought_level: "high" })).toMatchObject({ path: "/v1/responses", body: { model: "o4-mini", reasoning: { effort: "high" } } });
    expect(await send({ model: "anthropic:claude-sonnet-4-5", thought_level: "low" })).toMatchObject({ path: "/v1/messages", body: { thinking: { type: "enabled", budget_tokens: 2048 } } });
    const plain = await send({ model: "openai:gpt-4.1", thought_level: "high" });
    expect(plain?.body.model).toBe("gpt-4.1");
    expect(plain?.body).not.toHaveProperty("reasoning");
  });
});
