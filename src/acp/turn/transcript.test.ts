// The conversation a session keeps, built from a run's events: finished messages as the agent
// announced them, drafts assembled from the events of other graphs, kept in order; and the
// messages of a turn read back from a run's final state.

import { describe, expect, it } from "vitest";

import type { AssistantMessage, Message, ToolMessage } from "../../types/messages.js";
import { Transcript, turnMessagesOf } from "./transcript.js";

const shape = (messages: readonly Message[]) => messages.map((message) => ({ id: message.id, role: message.role, parts: message.parts }));

describe("Transcript", () => {
  it("assembles a plain graph's text, reasoning, tool calls and results into messages, in order", () => {
    const transcript = new Transcript();
    transcript.observe({ type: "reasoning-delta", messageId: "m1", delta: "think" });
    transcript.observe({ type: "reasoning-delta", messageId: "m1", delta: "ing" });
    transcript.observe({ type: "text-delta", messageId: "m1", delta: "Let me " });
    transcript.observe({ type: "text-delta", messageId: "m1", delta: "look." });
    transcript.observe({ type: "tool-call-end", messageId: "m1", toolCallId: "call_1", toolName: "read_file", input: { path: "a.ts" } });
    transcript.observe({ type: "tool-end", toolCallId: "call_1", toolName: "read_file", status: "success", output: "text", locations: [{ path: "/p/a.ts" }] });
    transcript.observe({ type: "tool-end", toolCallId: "call_2", toolName: "rm", status: "rejected", output: "no", display: [{ type: "text", text: "refused" }] });
    transcript.observe({ type: "node-start", node: "agent", step: 2 });
    const taken = transcript.take(true);
    expect(shape(taken)).toEqual([
      {
        id: "m1",
        role: "assistant",
        parts: [
          { type: "reasoning", text: "thinking" },
          { type: "text", text: "Let me look." },
          { type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: "a.ts" } },
        ],
      },
      {
        id: taken[1]?.id,
        role: "tool",
        parts: [
          { type: "tool-result", toolCallId: "call_1", toolName: "read_file", output: "text", locations: [{ path: "/p/a.ts" }] },
          { type: "tool-result", toolCallId: "call_2", toolName: "rm", output: "no", isError: true, display: [{ type: "text", text: "refused" }] },
        ],
      },
    ]);
    expect(transcript.take(true)).toEqual([]);
  });

  it("keeps the parts of a message in the order they came, and the drafts of two messages apart", () => {
    const transcript = new Transcript();
    transcript.observe({ type: "text-delta", messageId: "m1", delta: "First " });
    transcript.observe({ type: "text-delta", messageId: "m2", delta: "Other" });
    transcript.observe({ type: "tool-call-end", messageId: "m1", toolCallId: "call_1", toolName: "ls", input: {} });
    transcript.observe({ type: "text-delta", messageId: "m1", delta: "then more" });
    transcript.observe({ type: "reasoning-delta", messageId: "m2", delta: "hmm" });
    expect(shape(transcript.take(true))).toEqual([
      {
        id: "m1",
        role: "assistant",
        parts: [
          { type: "text", text: "First " },
          { type: "tool-call", toolCallId: "call_1", toolName: "ls", input: {} },
          { type: "text", text: "then more" },
        ],
      },
      {
        id: "m2",
        role: "assistant",
        parts: [
          { type: "text", text: "Other" },
          { type: "reasoning", text: "hmm" },
        ],
      },
    ]);
  });

  it("keeps a finished message as the agent announced it, in place of its draft", () => {
    const transcript = new Transcript();
    transcript.observe({ type: "text-delta", messageId: "m1", delta: "Hel" });
    const final: AssistantMessage = { id: "m1", role: "assistant", parts: [{ type: "text", text: "Hello" }], createdAt: "2025-01-01T00:00:00.000Z" };
    transcript.observe({ type: "message", message: final });
    expect(transcript.take(false)).toEqual([final]);
  });

  it("without drafts, takes finished messages only up to the first draft, so the order is kept", () => {
    const transcript = new Transcript();
    const first: AssistantMessage = { id: "m1", role: "assistant", parts: [{ type: "text", text: "one" }] };
    const third: AssistantMessage = { id: "m3", role: "assistant", parts: [{ type: "text", text: "three" }] };
    transcript.observe({ type: "message", message: first });
    transcript.observe({ type: "text-delta", messageId: "m2", delta: "two, unfinished" });
    transcript.observe({ type: "message", message: third });
    expect(transcript.take(false)).toEqual([first]);
    expect(transcript.take(false)).toEqual([]);
    expect(shape(transcript.take(true))).toEqual([{ id: "m2", role: "assistant", parts: [{ type: "text", text: "two, unfinished" }] }, shape([third])[0]]);
  });

  it("puts a finished tool message where the drafts of its results were, and keeps other results", () => {
    const transcript = new Transcript();
    transcript.observe({ type: "tool-end", toolCallId: "call_1", toolName: "a", status: "success", output: 1 });
    transcript.observe({ type: "tool-end", toolCallId: "call_2", toolName: "b", status: "success", output: 2 });
    const final: ToolMessage = { id: "t1", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_1", toolName: "a", output: 1 }] };
    transcript.observe({ type: "message", message: final });
    const taken = transcript.take(true);
    expect(taken[0]).toEqual(final);
    expect(shape(taken.slice(1))).toEqual([{ id: taken[1]?.id, role: "tool", parts: [{ type: "tool-result", toolCallId: "call_2", toolName: "b", output: 2 }] }]);
  });

  it("keeps a result once when its finished tool message comes after its draft", () => {
    const transcript = new Transcript();
    transcript.observe({ type: "message", message: { id: "t1", role: "tool", parts: [] } });
    transcript.observe({ type: "tool-end", toolCallId: "call_1", toolName: "a", status: "success", output: 1 });
    transcript.observe({ type: "message", message: { id: "t2", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_1", toolName: "a", output: 1 }] } });
    expect(transcript.take(true).map((message) => message.id)).toEqual(["t1", "t2"]);
  });
});

describe("turnMessagesOf", () => {
  const prompt: Message = { id: "u1", role: "user", parts: [{ type: "text", text: "go" }] };
  const reply: Message = { id: "a1", role: "assistant", parts: [{ type: "text", text: "done" }] };

  it("reads the messages after the turn's prompt from a run's state", () => {
    expect(turnMessagesOf({ messages: [{ id: "u0", role: "user", parts: [] }, prompt, reply] }, "u1")).toEqual([reply]);
    expect(turnMessagesOf({ messages: [prompt] }, "u1")).toEqual([]);
  });

  it("skips what is not a message, and says undefined for a state without the prompt or without a conversation", () => {
    expect(turnMessagesOf({ messages: [prompt, { id: "x" }, "text", null, reply] }, "u1")).toEqual([reply]);
    expect(turnMessagesOf({ messages: [reply] }, "u1")).toBeUndefined();
    expect(turnMessagesOf({ log: [] }, "u1")).toBeUndefined();
    expect(turnMessagesOf(undefined, "u1")).toBeUndefined();
    expect(turnMessagesOf(null, "u1")).toBeUndefined();
  });
});
