// streamModel() on its own, through a real AI SDK provider against the fake model server: what a
// cancel does while the call waits. (The graph ends a cancelled run without waiting for its node,
// so these check that the call itself lets go at once, leaving no wait or connection behind.)

import { afterEach, describe, expect, it } from "vitest";

import { resolveModel } from "../models/resolve-model.js";
import { FakeModelServer, type FakeScript } from "../testing/fake-model-server.js";
import { streamModel } from "./stream-model.js";

const servers: FakeModelServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.close();
  }
});

async function modelOn(script: FakeScript) {
  const server = await FakeModelServer.start(script);
  servers.push(server);
  return { server, model: await resolveModel("openai-compatible:fake-model", { baseURL: server.url }) };
}

const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }];

/** Streams from a model with `script`, cancels once the server has the first request, and expects the call to reject with the cancel's reason; resolves with the server. */
async function cancelledAfterFirstRequest(script: FakeScript) {
  const { server, model } = await modelOn(script);
  const controller = new AbortController();
  const call = streamModel(model, { prompt, abortSignal: controller.signal }, "m1", () => undefined);
  await expect.poll(() => server.requests.length).toBe(1);
  const reason = new Error("cancelled by the test");
  controller.abort(reason);
  await expect(call).rejects.toBe(reason);
  return server;
}

describe("streamModel", () => {
  it("rejects with the cancel's reason at once while waiting out a provider's Retry-After, and calls no more", { timeout: 10_000 }, async () => {
    const server = await cancelledAfterFirstRequest([{ status: 429, error: "slow down", headers: { "retry-after": "25" } }, { text: "too late" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("rejects with the cancel's reason at once while waiting for a server that never answers, and closes the request", { timeout: 10_000 }, async () => {
    const server = await cancelledAfterFirstRequest([{ neverAnswer: true }]);
    await expect.poll(() => server.aborted).toBe(1);
  });
});
