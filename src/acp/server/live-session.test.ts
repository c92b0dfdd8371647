// The session coordinator: prompts take turns through the queue after claiming the session, a
// withdrawn prompt ends as cancelled, a refused claim is the turn's end, and an unexpected throw
// rejects that prompt only.

import { describe, expect, it } from "vitest";

import { newRecord, testParts } from "../../../test/support/turn-parts.js";
import { ScriptedGraph, type ScriptedRun } from "../../../test/support/scripted-graph.js";
import { MemoryStore } from "../../store-core/memory-store.js";
import type { AssistantMessage } from "../../types/messages.js";
import { LiveSession } from "./live-session.js";
import type { AcpContentBlock } from "../mapping/content.js";
import { storeAcpSessions } from "../record/store-sessions.js";

const prompt = (text: string): AcpContentBlock[] => [{ type: "text", text }];
const said = (id: string, text: string): ScriptedRun => {
  const message: AssistantMessage = { id, role: "assistant", parts: [{ type: "text", text }] };
  return { events: [{ type: "text-delta", messageId: id, delta: text }, { type: "message", message }], outcome: { status: "completed", output: {} } };
};

describe("LiveSession", () => {
  it("runs prompts one after another and ends a prompt withdrawn while it waited as cancelled", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const graph = new ScriptedGraph([said("a1", "first"), said("a3", "third")]);
    const test = testParts(graph, { notices: [] });
    const slowNotices = test.parts.notices;
    test.parts.notices = async () => {
      await gate;
      return slowNotices();
    };
    const session = new LiveSession(test.parts);
    const withdrawn = new AbortController();
    const first = session.prompt(prompt("one"), new AbortController().signal);
    const second = session.prompt(prompt("two"), withdrawn.signal);
    const third = session.prompt(prompt("three"), new AbortController().signal);
    expect(session.busy).toBe(true);
    withdrawn.abort();
    release();
    expect(await Promise.all([first, second, third])).toEqual([
      { status: "ended", stopReason: "end_turn" },
      { status: "ended", stopReason: "cancelled" },
      { status: "ended", stopReason: "end_turn" },
    ]);
    expect(session.busy).toBe(false);
    expect(graph.calls).toHaveLength(2);
    expect(test.text()).toBe("firstthird");
    // The withdrawn prompt never started its turn.
    expect(test.logs.filter((line) => line.message.startsWith("Turn")).map((line) => `${line.message} ${String(line.fields?.stopReason ?? "")}`.trim()).sort()).toEqual([
      "Turn ended cancelled",
      "Turn ended end_turn",
      "Turn ended end_turn",
      "Turn started",
      "Turn started",
    ]);
  });

  it("ends the turn with the claim's refusal when another process runs a turn of the session, running nothing", async () => {
    const shared = storeAcpSessions(new MemoryStore());
    await shared.put(newRecord());
    const held = await shared.claim("sess_1");
    const graph = new ScriptedGraph([]);
    const session = new LiveSession(testParts(graph, { store: shared }).parts);
    const end = await session.prompt(prompt("hi"), new AbortController().signal);
    expect(end.status === "failed" && end.error.code).toBe("session_busy");
    expect(graph.calls).toEqual([]);
    await held?.release();
  });

  it("does not carry on a turn it cannot claim, and says why in the log", async () => {
    const shared = storeAcpSessions(new MemoryStore());
    const record = { ...newRecord(), turn: { kind: "invoke" as const, user: { id: "u1", role: "user" as const, parts: [] }, startedAt: "2025-01-01T00:00:00.000Z" } };
    await shared.put(record);
    const held = await shared.claim("sess_1");
    const graph = new ScriptedGraph([]);
    const test = testParts(graph, { store: shared, record });
    await new LiveSession(test.parts).carryOn();
    expect(graph.calls).toEqual([]);
    expect(test.logs.filter((line) => line.level === "warn").map((line) => line.message)).toEqual(["The interrupted turn was not carried on"]);
    await held?.release();
  });

  it("rejects the prompt whose integrator code threw, logs it, and runs the next prompt", async () => {
    const graph = new ScriptedGraph([said("a1", "fine")]);
    let calls = 0;
    const test = testParts(graph, {
      settings: {
        input: () => {
          calls++;
          if (calls === 1) {
            throw new Error("input is broken");
          }
          return {};
        },
      },
    });
    const session = new LiveSession(test.parts);
    await expect(session.prompt(prompt("one"), new AbortController().signal)).rejects.toThrow("input is broken");
    expect(await session.prompt(prompt("two"), new AbortController().signal)).toEqual({ status: "ended", stopReason: "end_turn" });
    expect(test.logs.find((line) => line.message === "Turn ended with an error")?.fields).toMatchObject({ sessionId: "sess_1", error: "input is broken" });
  });

  it("replays the conversation and shows a message outside any turn", async () => {
    const record = newRecord();
    record.history.push({ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }, { id: "a1", role: "assistant", parts: [{ type: "text", text: "hello" }] });
    const test = testParts(new ScriptedGraph([]), { record });
    const session = new LiveSession(test.parts);
    await session.replay(test.parts.updates);
    await session.say("Reconnected.");
    expect(test.updates).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" }, messageId: "u1" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hello" }, messageId: "a1" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Reconnected." } },
    ]);
  });
});
