// Weft messages to LangChain's and back: ids, text, tool calls and results survive the trip, so a
// conversation handed to a LangGraph thread names the messages its state holds.

import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";

import type { Message } from "../types/messages.js";
import { fromLangChain, toLangChain } from "./messages.js";

const conversation: Message[] = [
  { id: "s", role: "system", parts: [{ type: "text", text: "Be brief." }] },
  { id: "u", role: "user", parts: [{ type: "text", text: "Read a.txt" }] },
  { id: "a", role: "assistant", parts: [{ type: "text", text: "Reading." }, { type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "a.txt" } }] },
  { id: "t", role: "tool", parts: [{ type: "tool-result", toolCallId: "c1", toolName: "read_file", output: "hello", isError: true }] },
];

describe("toLangChain and fromLangChain", () => {
  it("keep ids, roles, text, tool calls and results", () => {
    const langChain = toLangChain(conversation);
    expect(langChain.map((message) => [message.type, message.id])).toEqual([
      ["system", "s"],
      ["human", "u"],
      ["ai", "a"],
      ["tool", "t"],
    ]);
    expect((langChain[2] as AIMessage).tool_calls).toEqual([{ id: "c1", name: "read_file", args: { path: "a.txt" }, type: "tool_call" }]);
    const back = langChain.map((message) => fromLangChain(message));
    expect(back.map((message) => message && { id: message.id, role: message.role, parts: message.parts })).toEqual(conversation.map(({ id, role, parts }) => ({ id, role, parts })));
  });

  it("gives each result of a weft tool message a LangChain message of its own", () => {
    const langChain = toLangChain([
      {
        id: "t",
        role: "tool",
        parts: [
          { type: "tool-result", toolCallId: "c1", toolName: "a", output: { n: 1 } },
          { type: "tool-result", toolCallId: "c2", toolName: "b", output: "two" },
        ],
      },
    ]);
    expect(langChain.map((message) => [message.id, message.content])).toEqual([
      ["t:0", '{"n":1}'],
      ["t:1", "two"],
    ]);
  });

  it("reads reasoning and the finish reason of a model's message", () => {
    const message = new AIMessage({ id: "m", content: "Hi", additional_kwargs: { reasoning_content: "greet" }, response_metadata: { finish_reason: "length" } });
    expect(fromLangChain(message)).toMatchObject({ parts: [{ type: "reasoning", text: "greet" }, { type: "text", text: "Hi" }], finishReason: "length" });
  });
});
