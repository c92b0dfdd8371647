// toModelPrompt(): the conversation as the provider sees it stays valid whatever turns went
// through: no empty messages, no two user messages in a row, every tool call answered.

import { describe, expect, it } from "vitest";

import type { Message } from "../types/messages.js";
import { toModelPrompt } from "./model-prompt.js";

const user = (id: string, text: string): Message => ({ id, role: "user", parts: [{ type: "text", text }] });
const assistant = (id: string, text: string): Message => ({ id, role: "assistant", parts: text === "" ? [] : [{ type: "text", text }] });

describe("toModelPrompt", () => {
  it("tells the model when the person edited a call's input before it ran, and with what", () => {
    const call: Message = { id: "a1", role: "assistant", parts: [{ type: "tool-call", toolCallId: "c1", toolName: "write_note", input: { path: "a.txt", text: "draft" } }] };
    const result: Message = {
      id: "t1",
      role: "tool",
      parts: [
        { type: "tool-result", toolCallId: "c1", toolName: "write_note", output: "wrote a.txt", editedInput: { path: "a.txt", text: "final" } },
      ],
    };
    const prompt = toModelPrompt(undefined, [user("u1", "write"), call, result]);
    expect(prompt.at(-1)).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "write_note",
          output: { type: "text", value: 'The person edited this call\'s input before approving it; it ran with {"path":"a.txt","text":"final"}.\n\nwrote a.txt' },
        },
      ],
    });
  });

  it("joins the prompt of a turn that got no answer to the next one", () => {
    const prompt = toModelPrompt("Be brief.", [user("u1", "first"), user("u2", "second")]);
    expect(prompt).toEqual([
      { role: "system", content: "Be brief." },
      {
        role: "user",
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "second" },
        ],
      },
    ]);
  });

  it("leaves out assistant messages with no content, and empty text, then joins the user messages around them", () => {
    const emptyText: Message = { id: "a2", role: "assistant", parts: [{ type: "text", text: "" }] };
    const prompt = toModelPrompt(undefined, [user("u1", "one"), assistant("a1", ""), user("u2", "two"), emptyText, user("u3", "three"), assistant("a3", "answer")]);
    expect(prompt).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "one" },
          { type: "text", text: "two" },
          { type: "text", text: "three" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "answer" }] },
    ]);
  });

  it("keeps a reply's tool calls when its text is empty, and leaves user messages with no parts out", () => {
    const calls: Message = {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "text", text: "" },
        { type: "tool-call", toolCallId: "c1", toolName: "add", input: { a: 1 } },
      ],
    };
    const empty: Message = { id: "u0", role: "user", parts: [] };
    const prompt = toModelPrompt(undefined, [empty, user("u1", "add"), calls]);
    expect(prompt).toEqual([
      { role: "user", content: [{ type: "text", text: "add" }] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "add", input: { a: 1 } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "c1", toolName: "add", output: { type: "error-text", value: "This tool call was not run: the conversation moved on before it finished." } }],
      },
    ]);
  });

  it("gives the same answer when asked twice (conversions are cached, joins are not)", () => {
    const messages = [user("u1", "first"), user("u2", "second"), assistant("a1", "ok"), user("u3", "third")];
    const once = toModelPrompt(undefined, messages);
    expect(toModelPrompt(undefined, messages)).toEqual(once);
    expect(once.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(toModelPrompt(undefined, [messages[2] as Message, messages[0] as Message])).toEqual([
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
      { role: "user", content: [{ type: "text", text: "first" }] },
    ]);
  });

  it("gives a tool's result right after its call when a question and its answer came in between", () => {
    const call: Message = { id: "a1", role: "assistant", parts: [{ type: "tool-call", toolCallId: "c1", toolName: "deploy", input: { to: "prod" } }] };
    const question = assistant("q1", "Which region?");
    const answer = user("u2", "eu-west");
    const result: Message = { id: "t1", role: "tool", parts: [{ type: "tool-result", toolCallId: "c1", toolName: "deploy", output: "Deployed to eu-west." }] };
    const prompt = toModelPrompt(undefined, [user("u1", "deploy it"), call, question, answer, result, assistant("a2", "Done."), user("u3", "thanks")]);
    expect(prompt.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant", "user"]);
    expect(prompt[2]).toEqual({ role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "deploy", output: { type: "text", value: "Deployed to eu-west." } }] });
  });

  it("leaves out results whose call is not in the conversation, and gives a result only once", () => {
    const orphan: Message = { id: "t0", role: "tool", parts: [{ type: "tool-result", toolCallId: "gone", toolName: "x", output: "?" }] };
    const call: Message = { id: "a1", role: "assistant", parts: [{ type: "tool-call", toolCallId: "c1", toolName: "x", input: {} }] };
    const result: Message = { id: "t1", role: "tool", parts: [{ type: "tool-result", toolCallId: "c1", toolName: "x", output: "ok" }] };
    const again: Message = { id: "t2", role: "tool", parts: [{ type: "tool-result", toolCallId: "c1", toolName: "x", output: "ok" }] };
    const prompt = toModelPrompt(undefined, [user("u1", "go"), orphan, call, result, again, assistant("a2", "Done.")]);
    expect(prompt.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });
});
