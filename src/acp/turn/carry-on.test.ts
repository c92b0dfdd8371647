// Carrying on a turn its agent stopped in the middle of, against scripted runs: from the thread's
// checkpoint, over again when the run never reached one, with the messages the session missed put
// back, and never rejecting when the turn cannot be finished. crash-window.int.test.ts kills real
// agents at each point.

import { describe, expect, it } from "vitest";

import { newRecord, testParts } from "../../../test/support/turn-parts.js";
import { ScriptedGraph } from "../../../test/support/scripted-graph.js";
import { WeftError } from "../../errors/weft-error.js";
import type { ThreadInfo } from "../../graph/compiled-graph.js";
import type { AssistantMessage, Message, UserMessage } from "../../types/messages.js";
import { carryOnTurn } from "./carry-on.js";
import { replayUpdates } from "../mapping/replay-updates.js";
import type { AcpSessionRecord, AcpTurnRecord } from "../record/session-store.js";

const earlier: Message[] = [
  { id: "u0", role: "user", parts: [{ type: "text", text: "hello" }] },
  { id: "a0", role: "assistant", parts: [{ type: "text", text: "hi" }] },
];
const prompt: UserMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "fix it" }] };
const startedAt = "2025-01-01T00:00:01.000Z";
const runId = `turn:sess_1:${startedAt}`;

function inProgress(turn: Partial<AcpTurnRecord> = {}, history: Message[] = [...earlier, prompt]): AcpSessionRecord {
  return { ...newRecord(), history, turn: { kind: "invoke", user: prompt, startedAt, ...turn } };
}

const thread = (status: ThreadInfo["status"], ofRun = runId): ThreadInfo => ({ status, runId: ofRun, seq: 3, pending: [] });
const fixed: AssistantMessage = { id: "a1", role: "assistant", parts: [{ type: "text", text: "Fixed." }] };
const texts = (history: readonly Message[] | undefined) => (history ?? []).map((message) => message.id);

describe("carryOnTurn", () => {
  it("does nothing for a session with no turn in progress", async () => {
    const graph = new ScriptedGraph([], { thread: () => thread("unfinished"), continues: true });
    const test = testParts(graph);
    await carryOnTurn(test.parts, new AbortController().signal);
    expect(graph.calls).toEqual([]);
  });

  it("leaves a turn alone while its thread runs in another process", async () => {
    const graph = new ScriptedGraph([], { thread: () => thread("running"), continues: true });
    const test = testParts(graph, { record: inProgress() });
    await carryOnTurn(test.parts, new AbortController().signal);
    expect(graph.calls).toEqual([]);
    expect(test.parts.session.record.turn).toBeDefined();
  });

  it("continues the turn's run from its checkpoint, then clears the turn marker", async () => {
    const graph = new ScriptedGraph(
      [{ events: [{ type: "text-delta", messageId: "a1", delta: "Fixed." }, { type: "message", message: fixed }], outcome: { status: "completed", output: { messages: [...earlier, prompt, fixed] } } }],
      { thread: () => thread("unfinished"), continues: true },
    );
    const test = testParts(graph, { record: inProgress() });
    await carryOnTurn(test.parts, new AbortController().signal);
    expect(graph.calls.map((call) => [call.kind, call.options.runId])).toEqual([["continue", runId]]);
    expect(texts((await test.stored())?.history)).toEqual(["u0", "a0", "u1", "a1"]);
    expect(await test.stored()).not.toHaveProperty("turn");
    expect(test.text()).toBe("Fixed.");
    expect(test.logs.filter((line) => line.level === "info").map((line) => line.message)).toEqual(["Turn carried on", "Turn ended"]);
  });

  it("starts the turn over from its prompt when its run never reached a checkpoint", async () => {
    for (const nothing of [
      // The thread has nothing to continue.
      { status: "failed" as const, error: new WeftError("nothing_to_continue", "Thread sess_1 has no run to carry on.") },
      // The thread's state is of the earlier turns: the prompt is not in it.
      { status: "completed" as const, output: { messages: earlier } },
    ]) {
      const graph = new ScriptedGraph(
        [{ outcome: nothing }, { events: [{ type: "message", message: fixed }], outcome: { status: "completed", output: { messages: [...earlier, prompt, fixed] } } }],
        { thread: () => thread("unfinished"), continues: true },
      );
      const test = testParts(graph, { record: inProgress() });
      await carryOnTurn(test.parts, new AbortController().signal);
      expect(graph.calls.map((call) => call.kind)).toEqual(["continue", "run"]);
      expect((graph.calls[1]?.input as { messages: Message[] }).messages.map((message) => message.id)).toEqual(["u0", "a0", "u1"]);
      expect(texts((await test.stored())?.history)).toEqual(["u0", "a0", "u1", "a1"]);
      expect(test.logs.map((line) => line.message)).toContain("The turn's run had no checkpoint yet; it starts over");
    }
  });

  it("starts over when the thread holds another run, and gives a resumed turn its answers again", async () => {
    const invoke = new ScriptedGraph([{ outcome: { status: "completed", output: { messages: [...earlier, prompt, fixed] } } }], { thread: () => thread("completed", "turn:sess_1:earlier"), continues: true });
    await carryOnTurn(testParts(invoke, { record: inProgress() }).parts, new AbortController().signal);
    expect(invoke.calls.map((call) => call.kind)).toEqual(["run"]);

    const resume = new ScriptedGraph([{ outcome: { status: "completed", output: {} } }], { thread: () => undefined, continues: true });
    await carryOnTurn(testParts(resume, { record: inProgress({ kind: "resume", answers: { q1: "main" } }) }).parts, new AbortController().signal);
    expect(resume.calls.map((call) => [call.kind, call.answers])).toEqual([["resume", { q1: "main" }]]);
  });

  it("puts back the turn's messages the run finished and the session never got, in the run's order, and shows them", async () => {
    const tool: Message = { id: "t1", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_1", toolName: "read_file", output: "text" }] };
    const call: AssistantMessage = { id: "a1", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: "a.ts" } }] };
    const answer: AssistantMessage = { id: "a2", role: "assistant", parts: [{ type: "text", text: "Done." }] };
    // The session has the tool call; the agent died before it wrote the result and the reply.
    const graph = new ScriptedGraph([{ outcome: { status: "completed", output: { messages: [...earlier, prompt, call, tool, answer] } } }], { thread: () => thread("completed"), continues: true });
    const test = testParts(graph, { record: inProgress({}, [...earlier, prompt, call]) });
    // The load's replay showed the call, in progress.
    const replayed = replayUpdates(test.parts.session.record.history, test.parts.view);
    expect(replayed.at(-1)).toMatchObject({ sessionUpdate: "tool_call", toolCallId: "call_1" });
    await carryOnTurn(test.parts, new AbortController().signal);
    expect(texts((await test.stored())?.history)).toEqual(["u0", "a0", "u1", "a1", "t1", "a2"]);
    // Its result completes that call rather than showing as a second one.
    expect(test.updates.map((update) => update.sessionUpdate)).toEqual(["tool_call_update", "agent_message_chunk"]);
    expect(test.updates[0]).toMatchObject({ toolCallId: "call_1", status: "completed", rawOutput: "text" });
    expect(test.text()).toBe("Done.");
    expect(test.logs.map((line) => line.message)).toContain("Recovered the end of a turn from its run");
  });

  it("never rejects: a turn that cannot be finished is logged and the person is told", async () => {
    const graph = new ScriptedGraph([{ outcome: { status: "failed", error: new Error("The model could not be reached") } }], { thread: () => thread("unfinished"), continues: true });
    const test = testParts(graph, { record: inProgress({ kind: "resume" }) });
    await expect(carryOnTurn(test.parts, new AbortController().signal)).resolves.toBeUndefined();
    expect(test.text()).toBe("The turn that was in progress could not be finished: The agent failed: The model could not be reached");
    expect(test.logs.filter((line) => line.level === "warn").map((line) => line.message)).toEqual(["The interrupted turn could not be finished"]);

    const throwing = new ScriptedGraph(
      () => {
        throw new Error("no such thread");
      },
      { thread: () => undefined },
    );
    const thrown = testParts(throwing, { record: inProgress() });
    await expect(carryOnTurn(thrown.parts, new AbortController().signal)).resolves.toBeUndefined();
    expect(thrown.text()).toBe("The turn that was in progress could not be finished: no such thread");
  });

  it("ends the calls a replay showed in progress as failed when the turn cannot be finished", async () => {
    const call: AssistantMessage = { id: "a1", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: "a.ts" } }] };
    const graph = new ScriptedGraph([{ outcome: { status: "failed", error: new Error("down") } }], { thread: () => thread("unfinished"), continues: true });
    const test = testParts(graph, { record: inProgress({ kind: "resume" }, [...earlier, prompt, call]) });
    const history = test.parts.session.record.history;
    expect(replayUpdates(history, test.parts.view, { runningFrom: 2 }).at(-1)).toMatchObject({ sessionUpdate: "tool_call", status: "in_progress" });
    await carryOnTurn(test.parts, new AbortController().signal);
    expect(test.updates[0]).toMatchObject({ sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "failed" });
  });
});
