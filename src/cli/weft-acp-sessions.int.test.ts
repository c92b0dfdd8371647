// `weft acp` sessions through failures, as an editor sees them: the built command as a child
// process, driven by the SDK client, with its model pointed at the fake OpenAI-compatible server.
// An attachment the model refuses fails only its own turn; WEFT_LOG=info tells what sessions do.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import type { AgentProcess } from "../../test/support/agent-process.js";
import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import type { ChatRequest, FakeModelServer, FakeScript } from "../testing/fake-model-server.js";

const harness = weftAcpHarness();

async function weftAcp(script: FakeScript, env: Record<string, string> = {}): Promise<{ start: () => AgentProcess; model: FakeModelServer }> {
  const fake = await harness.fakeModel(script);
  return { start: () => harness.start({ ...fake.env, ...env }), model: fake.model };
}

/** What the model was sent of one message: its text parts, and the kinds of the others. */
function partsOf(message: ChatRequest["messages"][number] | undefined): string[] {
  const content = typeof message?.content === "string" ? [{ type: "text", text: message.content }] : ((message?.content ?? []) as Array<{ type: string; text?: string }>);
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : part.type));
}

const lastUser = (request: ChatRequest | undefined) => [...(request?.messages ?? [])].reverse().find((message) => message.role === "user");

const hasAttachment = (request: ChatRequest) => request.messages.some((message) => Array.isArray(message.content) && message.content.some((part: { type?: string }) => part.type !== "text"));

describe("weft acp sessions through failures", () => {
  it("fails only the turn whose image the model refuses, here and after a restart", async () => {
    const { start, model } = await weftAcp((request) => (hasAttachment(request) ? { status: 400, error: "Invalid image: this is not a picture the model can read" } : { text: `reply ${model.requests.length}` }));
    const first = start();
    await first.initialize();
    const sessionId = await first.newSession(harness.project);
    const image: acp.ContentBlock = { type: "image", data: Buffer.alloc(12 * 1024, 7).toString("base64"), mimeType: "image/png" };
    expect((await first.prompt(sessionId, [{ type: "text", text: "what is this?" }, image])).stopReason).toBe("end_turn");
    expect(first.textOf(sessionId)).toContain("HTTP 400");
    expect(first.textOf(sessionId)).toContain("Invalid image");

    const mark = first.updatesOf(sessionId).length;
    expect((await first.prompt(sessionId, "and now?")).stopReason).toBe("end_turn");
    expect(first.textOf(sessionId, mark)).toBe("reply 2");
    const note = "[an image (image/png, 12 KB) was attached here; the model could not take it: ";
    const sent = model.requests[1];
    expect(sent?.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(partsOf(sent?.messages[1])).toEqual(["what is this?", expect.stringContaining(note)]);
    await first.stop();

    const second = start();
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: harness.project, mcpServers: [] });
    const replayed = second.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "user_message_chunk" && update.content.type === "text" ? [update.content.text] : []));
    expect(replayed).toEqual(["what is this?", expect.stringContaining(note), "and now?"]);
    expect((await second.prompt(sessionId, "still there?")).stopReason).toBe("end_turn");
    expect(model.requests.at(-1)?.messages.some((message) => Array.isArray(message.content) && message.content.some((part: { type?: string }) => part.type === "image_url"))).toBe(false);
    expect(second.textOf(sessionId).endsWith("reply 3")).toBe(true);
  });

  it("goes on after an embedded binary file the provider cannot send, and never sends an image that is not one", async () => {
    const { start, model } = await weftAcp(() => ({ text: "fine" }));
    const agent = start();
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    const blob: acp.ContentBlock = { type: "resource", resource: { uri: "file:///data.bin", blob: Buffer.from("binary").toString("base64"), mimeType: "application/octet-stream" } };
    expect((await agent.prompt(sessionId, [{ type: "text", text: "read this" }, blob])).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toContain("file part media type application/octet-stream");
    // The provider refused it before sending anything.
    expect(model.requests).toHaveLength(0);

    expect((await agent.prompt(sessionId, [{ type: "text", text: "and this" }, { type: "image", data: "aGVsbG8=", mimeType: "application/x-foo" }])).stopReason).toBe("end_turn");
    expect(model.requests).toHaveLength(1);
    expect(partsOf(lastUser(model.requests[0]))).toEqual(["and this", "[The editor attached an image here that was not sent to the model: its type, application/x-foo, is not an image type.]"]);
    expect(agent.textOf(sessionId).endsWith("fine")).toBe(true);
  });
});

describe("weft acp with WEFT_LOG=info", () => {
  it("logs session starts with their id and directory, and each turn's start and end with its stop reason and duration", async () => {
    const { start } = await weftAcp(() => ({ text: "hi" }), { WEFT_LOG: "info" });
    const first = start();
    await first.initialize();
    const sessionId = await first.newSession(harness.project);
    expect((await first.prompt(sessionId, "hello")).stopReason).toBe("end_turn");
    await first.stop();
    const second = start();
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: harness.project, mcpServers: [] });
    await second.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: harness.project });
    await second.stop();

    // Other parts may log at info too: look for these lines, in this order.
    const logged = (stderr: string, ...messages: string[]) =>
      stderr
        .split("\n")
        .filter((line) => messages.some((message) => line.startsWith(`weft info: ${message} {`)))
        .map((line) => ({ message: line.slice("weft info: ".length, line.indexOf(" {")), ...(JSON.parse(line.slice(line.indexOf("{"))) as Record<string, unknown>) }));
    expect(logged(first.stderr, "Session started", "Turn started", "Turn ended")).toEqual([
      { message: "Session started", method: "session/new", sessionId, cwd: harness.project },
      { message: "Turn started", sessionId, blocks: 1 },
      { message: "Turn ended", sessionId, stopReason: "end_turn", durationMs: expect.any(Number) },
    ]);
    expect(logged(second.stderr, "Session started")).toEqual([
      { message: "Session started", method: "session/load", sessionId, cwd: harness.project, messages: 2, carriesOn: false },
      { message: "Session started", method: "session/resume", sessionId, cwd: harness.project, messages: 2 },
    ]);
  });
});
