// Which messages a compaction summarises and which it keeps: whole turns first, a tool call never
// apart from its result, and the conversation the model then sees.

import { describe, expect, it } from "vitest";

import type { AssistantMessage, Message, ToolMessage, UserMessage } from "../types/messages.js";
import { chooseCut, type Compaction, compactedView, coveredCount, cutPoints, dropOldest } from "./compaction.js";
import { estimateTokens } from "./context-window.js";

const at = "2026-12-01T00:00:00.000Z";
const user = (id: string, text = "question"): UserMessage => ({ id, role: "user", parts: [{ type: "text", text }], createdAt: at });
const said = (id: string, text = "answer"): AssistantMessage => ({ id, role: "assistant", parts: [{ type: "text", text }], createdAt: at });
const calls = (id: string, ...callIds: string[]): AssistantMessage => ({
  id,
  role: "assistant",
  parts: callIds.map((toolCallId) => ({ type: "tool-call", toolCallId, toolName: "read", input: { path: "a.ts" } })),
  createdAt: at,
});
const results = (id: string, ...callIds: string[]): ToolMessage => ({
  id,
  role: "tool",
  parts: callIds.map((toolCallId) => ({ type: "tool-result", toolCallId, toolName: "read", output: "contents" })),
  createdAt: at,
});

/** Two short turns, then a turn of tool calls: u1 a1 | u2 a2 | u3 c1 r1 c2 r2 a3. */
const conversation: Message[] = [
  user("u1"),
  said("a1"),
  user("u2"),
  said("a2"),
  user("u3"),
  calls("c1", "call-1"),
  results("r1", "call-1"),
  calls("c2", "call-2", "call-3"),
  results("r2", "call-2", "call-3"),
  said("a3"),
];

const sizeFrom = (messages: Message[], index: number) => messages.slice(index).reduce((total, message) => total + estimateTokens(message), 0);

describe("cutPoints", () => {
  it("falls between messages, never between a tool call and its result, never before a tool message", () => {
    expect(cutPoints(conversation)).toEqual([1, 2, 3, 4, 5, 7, 9, 10]);
  });

  it("keeps a call with a result that came later than the next message (a question asked mid-tool)", () => {
    const messages: Message[] = [user("u1"), calls("c1", "call-1"), results("r0", "call-0"), user("answer"), results("r1", "call-1"), said("a1")];
    expect(cutPoints(messages)).toEqual([1, 5, 6]);
  });

  it("treats a call that never got a result as finished (the prompt notes it was not run)", () => {
    const messages: Message[] = [user("u1"), calls("c1", "call-1"), user("u2"), said("a2")];
    expect(cutPoints(messages)).toEqual([1, 2, 3, 4]);
  });
});

describe("chooseCut", () => {
  it("keeps as many whole recent turns as fit", () => {
    const keep = sizeFrom(conversation, 2);
    expect(chooseCut(conversation, { start: 0, keep })).toBe(2);
    expect(chooseCut(conversation, { start: 0, keep: keep - 1 })).toBe(4);
  });

  it("cuts inside the last turn, between steps, when that turn alone does not fit", () => {
    expect(chooseCut(conversation, { start: 0, keep: sizeFrom(conversation, 7) })).toBe(7);
    // Not even the last step fits: only it is kept, and the kept part never starts with a result.
    expect(chooseCut(conversation, { start: 0, keep: 1 })).toBe(9);
  });

  it("summarises only what a compaction does not already cover", () => {
    expect(chooseCut(conversation, { start: 4, keep: sizeFrom(conversation, 2) })).toBe(5);
    expect(chooseCut(conversation, { start: 9, keep: 1 })).toBeUndefined();
  });

  it("keeps at least one message, unless asked to summarise all", () => {
    expect(chooseCut([user("u1")], { start: 0, keep: 0 })).toBeUndefined();
    expect(chooseCut(conversation, { start: 0, keep: 0, all: true })).toBe(10);
    expect(chooseCut(conversation, { start: 10, keep: 0, all: true })).toBeUndefined();
  });

  it("with everything asked for, never leaves a result behind without its call", () => {
    const asked: Message[] = [...conversation, user("u4"), calls("c4", "call-4"), user("an answer the tool asked for"), results("r4", "call-4")];
    expect(cutPoints(asked).filter((cut) => cut > 10)).toEqual([11, 14]);
    expect(chooseCut(asked, { start: 0, keep: 0, all: true })).toBe(14);
    // A call that never got its result counts as done: the prompt says it was not run.
    expect(chooseCut(asked.slice(0, 13), { start: 0, keep: 0, all: true })).toBe(13);
  });
});

describe("compactedView", () => {
  const compaction: Compaction = { id: "k1", summary: "They asked twice.", covered: 4, through: "a2", createdAt: at };

  it("is the summary, then the messages after those it covers", () => {
    const view = compactedView(conversation, compaction);
    expect(view.map((message) => message.id)).toEqual(["summary_k1", "u3", "c1", "r1", "c2", "r2", "a3"]);
    expect(view[0]?.parts[0]).toEqual({ type: "text", text: expect.stringContaining("They asked twice.") });
  });

  it("finds its last message by id when messages before it were taken out, and is left out when that message is gone", () => {
    const shorter = conversation.filter((message) => message.id !== "u1");
    expect(coveredCount(shorter, compaction)).toBe(3);
    expect(compactedView(shorter, compaction)[1]?.id).toBe("u3");
    const without = conversation.filter((message) => message.id !== "a2");
    expect(compactedView(without, compaction)).toEqual(without);
  });
});

describe("dropOldest", () => {
  it("leaves out the oldest whole turns until the rest fits", () => {
    const fitting = (limit: number) => (kept: Message[]) => kept.reduce((total, message) => total + estimateTokens(message), 0) <= limit;
    expect(dropOldest(conversation, 0, fitting(Infinity))).toBe(0);
    expect(dropOldest(conversation, 0, fitting(sizeFrom(conversation, 4)))).toBe(4);
    expect(dropOldest(conversation, 0, fitting(sizeFrom(conversation, 9)))).toBe(9);
    expect(dropOldest(conversation, 0, fitting(1))).toBeUndefined();
  });
});
