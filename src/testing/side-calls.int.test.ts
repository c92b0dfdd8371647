// Side calls on every fake model server, through the real providers: a request with the side-call
// header is answered from its own script and recorded apart, so the turns' script is untouched.

import { afterEach, describe, expect, it } from "vitest";

import { resolveModel } from "../models/resolve-model.js";
import { SIDE_CALL_HEADER } from "../models/side-call-header.js";
import type { FakeModelOptions } from "./fake-http-server.js";
import { FakeMessagesServer } from "./fake-messages-server.js";
import { FakeModelServer } from "./fake-model-server.js";
import type { FakeReply } from "./fake-reply.js";
import { FakeResponsesServer } from "./fake-responses-server.js";

const servers: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.close();
  }
});

type Start = (script: readonly FakeReply[], options?: FakeModelOptions) => Promise<FakeModelServer | FakeResponsesServer | FakeMessagesServer>;

const fakes: Array<{ spec: string; start: Start }> = [
  { spec: "openai-compatible:fake-model", start: (script, options) => FakeModelServer.start(script, options) },
  { spec: "openai:gpt-4.1-mini", start: (script, options) => FakeResponsesServer.start(script, options) },
  { spec: "anthropic:claude-sonnet-4-5", start: (script, options) => FakeMessagesServer.start(script, options) },
];

const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }];
const textOf = (content: ReadonlyArray<{ type: string; text?: string }>) => content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");

describe.each(fakes)("side calls to the fake for $spec", ({ spec, start }) => {
  it("answers a side call from its own script and leaves the turns' script and requests alone", async () => {
    const server = await start([{ text: "turn reply" }], { sideCalls: [{ text: "side reply" }] });
    servers.push(server);
    const model = await resolveModel(spec, { baseURL: server.url, apiKey: "test-key" });
    const side = await model.doGenerate({ prompt, headers: { [SIDE_CALL_HEADER]: "title" } });
    expect(textOf(side.content)).toBe("side reply");
    const turn = await model.doGenerate({ prompt });
    expect(textOf(turn.content)).toBe("turn reply");
    expect(server.requests).toHaveLength(1);
    expect(server.sideRequests).toHaveLength(1);
  });

  it("fails a side call with a 500 when the test scripted none", async () => {
    const server = await start([{ text: "turn reply" }]);
    servers.push(server);
    const model = await resolveModel(spec, { baseURL: server.url, apiKey: "test-key" });
    await expect(model.doGenerate({ prompt, headers: { [SIDE_CALL_HEADER]: "title" } })).rejects.toThrow();
    expect(server.requests).toEqual([]);
  });
});
