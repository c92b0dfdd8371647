// The coding agent `weft acp` serves, over in-memory stdio with the SDK client, its model a real
// AI SDK provider against the fake model server: what the person sees when the model misbehaves,
// and /model with one model and no catalog.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { connectInProcess, type InProcessAgent } from "../../test/support/in-process.js";
import { resolveModel } from "../models/resolve-model.js";
import { MemoryStore } from "../store-core/memory-store.js";
import { FakeModelServer, type FakeScript } from "../testing/fake-model-server.js";
import { FIXED_MODEL_REPLY } from "./commands/model-command.js";
import { serveCodingAgent, type CodingAgentOptions } from "./serve-coding-agent.js";

let project: string;
let model: FakeModelServer | undefined;
let agent: InProcessAgent | undefined;

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "weft-coding-"));
});

afterEach(async () => {
  agent?.end();
  await agent?.server.closed;
  await model?.close();
  agent = undefined;
  model = undefined;
  rmSync(project, { recursive: true, force: true });
});

async function codingAgent(script: FakeScript, options: Partial<CodingAgentOptions> = {}): Promise<InProcessAgent> {
  model = await FakeModelServer.start(script);
  const languageModel = await resolveModel("openai-compatible:fake-model", { baseURL: model.url });
  agent = await connectInProcess((streams) => serveCodingAgent(streams, { model: languageModel, store: new MemoryStore(), ...options }));
  return agent;
}

describe("the coding agent when its model misbehaves", () => {
  it("tells the person a model that never answers sent nothing, ends the turn, and answers the next prompt", async () => {
    const session = await codingAgent([{ neverAnswer: true }, { text: "Back again." }], { modelIdleTimeoutMs: 500 });
    const sessionId = await session.newSession(project);
    expect((await session.prompt(sessionId, "hello?")).stopReason).toBe("end_turn");
    expect(session.textOf(sessionId)).toMatch(/The model openai-compatible.*\/fake-model sent nothing for 0\.5 s; weft stopped waiting\./);
    const seen = session.updatesOf(sessionId).length;
    expect((await session.prompt(sessionId, "and now?")).stopReason).toBe("end_turn");
    expect(session.textOf(sessionId, seen)).toBe("Back again.");
    expect(session.wire.problems).toEqual([]);
  });
});

describe("the coding agent with one model and no catalog", () => {
  it("/model says the model is fixed, as there is no model picker, without calling the model", async () => {
    const session = await codingAgent([]);
    const sessionId = await session.newSession(project);
    expect((await session.prompt(sessionId, "/model smart")).stopReason).toBe("end_turn");
    expect(session.textOf(sessionId)).toBe(FIXED_MODEL_REPLY);
    expect(model?.requests).toEqual([]);
    expect(session.wire.problems).toEqual([]);
  });
});
