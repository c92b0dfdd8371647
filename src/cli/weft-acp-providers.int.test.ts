// `weft acp` with each provider string an editor can set in WEFT_MODEL, through the real AI SDK
// provider against the fake server of that provider's own API: `openai:` (Responses API),
// `anthropic:` (Messages API), `ollama:` and `openai-compatible:` (chat completions). Each turn
// reads a file with a tool, and the fake shows the tool's result went back in the API's format.

import { writeFileSync } from "node:fs";
import { join } from "node:path";

import type * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import type { FakeModelRequest } from "../testing/fake-model-request.js";
import { FakeMessagesServer } from "../testing/fake-messages-server.js";
import { type ChatRequest, FakeModelServer } from "../testing/fake-model-server.js";
import type { FakeReply } from "../testing/fake-reply.js";
import { FakeResponsesServer } from "../testing/fake-responses-server.js";

const harness = weftAcpHarness();

const script: FakeReply[] = [
  { text: "Let me read it. ", toolCalls: [{ name: "read_file", arguments: { path: "notes.md" }, id: "call_read" }] },
  { text: ["It says: ", "remember the milk."] },
];

/** The tool result of the second request, read from the request body in the API's own format. */
type ToolResultOf = (request: unknown) => unknown;

interface ProviderCase {
  spec: string;
  start(): Promise<{ url: string; requests: unknown[]; close(): Promise<void> }>;
  toolResult: ToolResultOf;
}

const cases: ProviderCase[] = [
  {
    spec: "openai:gpt-4.1-mini",
    start: () => FakeResponsesServer.start(script),
    toolResult: (request) => ((request as FakeModelRequest).body.input as Array<{ type?: string }>).find((item) => item.type === "function_call_output"),
  },
  {
    spec: "anthropic:claude-sonnet-4-5",
    start: () => FakeMessagesServer.start(script),
    toolResult: (request) =>
      ((request as FakeModelRequest).body.messages as Array<{ role: string; content: Array<{ type: string }> }>)
        .flatMap((message) => message.content)
        .find((block) => block.type === "tool_result"),
  },
  {
    spec: "ollama:qwen3",
    start: () => FakeModelServer.start(script),
    toolResult: (request) => (request as ChatRequest).messages.find((message) => message.role === "tool"),
  },
  {
    spec: "openai-compatible:llama-3.1-8b",
    start: () => FakeModelServer.start(script),
    toolResult: (request) => (request as ChatRequest).messages.find((message) => message.role === "tool"),
  },
];

const toolResults: Record<string, unknown> = {
  openai: { type: "function_call_output", call_id: "call_read", output: "Remember the milk.\n" },
  anthropic: { type: "tool_result", tool_use_id: "call_read", content: "Remember the milk.\n" },
  ollama: { role: "tool", tool_call_id: "call_read", content: "Remember the milk.\n" },
  "openai-compatible": { role: "tool", tool_call_id: "call_read", content: "Remember the milk.\n" },
};

describe.each(cases)("weft acp with WEFT_MODEL=$spec", ({ spec, start, toolResult }) => {
  it("completes a turn that reads a file with a tool, sending the result back in the provider's own format", async () => {
    writeFileSync(join(harness.project, "notes.md"), "Remember the milk.\n");
    const model = harness.closeAfter(await start());
    const agent = harness.start({ WEFT_MODEL: spec, WEFT_BASE_URL: model.url, WEFT_API_KEY: "test-key" });
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "what do my notes say?")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Let me read it. It says: remember the milk.");

    const updates = agent.updatesOf(sessionId);
    const call = updates.find((update): update is Extract<acp.SessionUpdate, { sessionUpdate: "tool_call" }> => update.sessionUpdate === "tool_call");
    expect(call).toMatchObject({ toolCallId: "call_read", kind: "read" });
    const ended = updates.filter((update) => update.sessionUpdate === "tool_call_update" && update.toolCallId === "call_read").at(-1);
    expect(ended).toMatchObject({ status: "completed" });

    expect(model.requests).toHaveLength(2);
    const provider = spec.slice(0, spec.indexOf(":"));
    expect(toolResult(model.requests[1])).toMatchObject(toolResults[provider] as object);
  });
});

const failing = [
  { spec: "openai:gpt-4.1-mini", start: (replies: FakeReply[]) => FakeResponsesServer.start(replies) },
  { spec: "anthropic:claude-sonnet-4-5", start: (replies: FakeReply[]) => FakeMessagesServer.start(replies) },
];

describe.each(failing)("weft acp with WEFT_MODEL=$spec when the model fails", ({ spec, start }) => {
  it("ends the turn with the API's error message after a 429 on every try, and with a timeout when a reply stalls", async () => {
    const rateLimited: FakeReply = { status: 429, error: "Rate limit reached; slow down", headers: { "retry-after": "0" } };
    const model = harness.closeAfter(await start([rateLimited, rateLimited, rateLimited, { text: ["Half an ", "answer"], stallAfter: 4 }, { text: "Back again." }]));
    const agent = harness.start({ WEFT_MODEL: spec, WEFT_BASE_URL: model.url, WEFT_API_KEY: "test-key" }, ["--model-timeout", "3"]);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "hello?")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toContain(`The model ${spec.replace(":", "/")} failed: HTTP 429`);
    expect(agent.textOf(sessionId)).toContain("Rate limit reached; slow down");
    expect(model.requests).toHaveLength(3);

    let before = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "again?")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId, before)).toMatch(/sent nothing for 3 s, part-way through its reply; weft stopped waiting/);
    await expect.poll(() => model.aborted).toBe(1);

    before = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "and now?")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId, before)).toBe("Back again.");
  });
});
