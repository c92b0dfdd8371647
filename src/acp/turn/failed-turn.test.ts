// What a failed turn leaves in the conversation: taken back when the prompt got an error and
// nothing was kept, else the prompt with its attachments as notes and a message saying how it ended.

import { APICallError, UnsupportedFunctionalityError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";

import { ModelCallError } from "../../agent/agent-errors.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import type { Message } from "../../types/messages.js";
import { inputRefused, settleFailedTurn } from "./failed-turn.js";

const model = new ScriptedModel([]);
const refused = new ModelCallError(model, new APICallError({ message: "Invalid image", url: "http://x", requestBodyValues: {}, statusCode: 400 }));
const unreachable = new ModelCallError(model, new APICallError({ message: "Overloaded", url: "http://x", requestBodyValues: {}, statusCode: 503 }));

const earlier: Message[] = [
  { id: "u0", role: "user", parts: [{ type: "text", text: "hi" }] },
  { id: "a0", role: "assistant", parts: [{ type: "text", text: "hello" }] },
];
const prompt: Message = {
  id: "u1",
  role: "user",
  parts: [
    { type: "text", text: "what is this?" },
    { type: "image", data: "A".repeat(16_384), mediaType: "image/png" },
    { type: "file", uri: "file:///data.bin", mediaType: "application/octet-stream", data: "AAAA" },
    { type: "link", uri: "file:///notes.md", name: "notes.md" },
  ],
};

describe("inputRefused", () => {
  it("is true for a 400, 413, 415 or 422 and for a prompt the provider cannot express, false for outages and keys", () => {
    expect(inputRefused(refused)).toBe(true);
    expect(inputRefused(new ModelCallError(model, new UnsupportedFunctionalityError({ functionality: "file part media type application/octet-stream" })))).toBe(true);
    expect(inputRefused(unreachable)).toBe(false);
    expect(inputRefused(new ModelCallError(model, new APICallError({ message: "Bad key", url: "http://x", requestBodyValues: {}, statusCode: 401 })))).toBe(false);
    expect(inputRefused(new Error("connect ECONNREFUSED"))).toBe(false);
  });
});

describe("settleFailedTurn", () => {
  it("takes the prompt back when it got an error and no tool ran", () => {
    const ran = [...earlier, prompt, { id: "a1", role: "assistant", parts: [{ type: "text", text: "It is" }] } as Message];
    expect(settleFailedTurn(ran, 2, { error: refused })).toEqual(earlier);
  });

  it("keeps what the person was shown, with the attachments the model refused as notes", () => {
    const settled = settleFailedTurn([...earlier, prompt, { id: "a1", role: "assistant", parts: [] }], 2, { error: refused, shown: "The model failed: HTTP 400" });
    expect(settled.slice(0, 2)).toEqual(earlier);
    expect(settled[2]?.id).not.toBe(prompt.id);
    expect(settled[2]).toEqual({
      ...prompt,
      id: settled[2]?.id,
      parts: [
        { type: "text", text: "what is this?" },
        { type: "text", text: `[an image (image/png, 12 KB) was attached here; the model could not take it: ${refused.message}]` },
        { type: "text", text: `[the file file:///data.bin (application/octet-stream, 1 KB) was attached here; the model could not take it: ${refused.message}]` },
        { type: "link", uri: "file:///notes.md", name: "notes.md" },
      ],
    });
    expect(settled[3]).toMatchObject({ role: "assistant", parts: [{ type: "text", text: "The model failed: HTTP 400" }] });
    expect(settled).toHaveLength(4);
  });

  it("keeps a turn whose tool ran, ends it with a note, and drops attachments even when the model was only out of reach", () => {
    const call: Message = { id: "a1", role: "assistant", parts: [{ type: "tool-call", toolCallId: "c1", toolName: "write", input: {} }] };
    const result: Message = { id: "t1", role: "tool", parts: [{ type: "tool-result", toolCallId: "c1", toolName: "write", output: "wrote it" }] };
    const settled = settleFailedTurn([...earlier, prompt, call, result], 2, { error: unreachable });
    expect(settled.map((message) => message.id).slice(0, 5)).toEqual(["u0", "a0", settled[2]?.id, "a1", "t1"]);
    expect((settled[2] as Message).parts[1]).toEqual({ type: "text", text: "[an image (image/png, 12 KB) was attached here; it was left out because the turn failed]" });
    expect(settled[5]).toMatchObject({ role: "assistant", parts: [{ type: "text", text: `[This turn ended with an error: ${unreachable.message}]` }] });
  });
});
