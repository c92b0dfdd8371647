// One turn, run against scripted runs: what is written before the run and after it, how approvals,
// questions, stop reasons and failures end it, and that its end is a value, never a wire error.

import { describe, expect, it } from "vitest";

import type { RunFinish } from "../../graph/run-outcome.js";
import { newRecord, testParts } from "../../../test/support/turn-parts.js";
import { ScriptedGraph, type ScriptedRun } from "../../../test/support/scripted-graph.js";
import { WeftError } from "../../errors/weft-error.js";
import type { RunEvent } from "../../graph/events.js";
import type { AssistantMessage, Message } from "../../types/messages.js";
import type { AcpContentBlock } from "../mapping/content.js";
import { type AcpSessionRecord, type AcpSessionStore, MemoryAcpSessionStore } from "../record/session-store.js";
import type { PermissionChoice } from "../asking/permissions.js";
import { startTurn } from "./turn.js";
import { stopReasonOf } from "./turn-end.js";

const prompt = (text: string): AcpContentBlock[] => [{ type: "text", text }];
const signal = () => new AbortController().signal;

const reply = (id: string, text: string): RunEvent[] => {
  const message: AssistantMessage = { id, role: "assistant", parts: [{ type: "text", text }] };
  return [
    { type: "text-delta", messageId: id, delta: text },
    { type: "message", message },
    { type: "checkpoint", step: 1, seq: 1, status: "completed" },
  ];
};
const completed = (id: string, text: string, finish?: RunFinish): ScriptedRun => ({ events: reply(id, text), outcome: finish ? { status: "completed", output: {}, finish } : { status: "completed", output: {} } });
const approval = (toolName: string, extra: Record<string, unknown> = {}) => ({ kind: "tool-approval", toolCallId: `call_${toolName}`, toolName, input: { path: "src/a.ts" }, ...extra });
const ids = (history: readonly Message[]) => history.map((message) => `${message.role}:${message.parts.map((part) => (part.type === "text" ? part.text : part.type)).join("|")}`);

/** A session store whose writes fail while `down` is set. */
function outage(): { store: AcpSessionStore; state: { down: boolean }; memory: MemoryAcpSessionStore } {
  const memory = new MemoryAcpSessionStore();
  const state = { down: false };
  return {
    memory,
    state,
    store: {
      get: (sessionId) => memory.get(sessionId),
      put: (record: AcpSessionRecord) => (state.down ? Promise.reject(new Error("connect ECONNREFUSED")) : memory.put(record)),
    },
  };
}

describe("startTurn", () => {
  it("writes the prompt and the turn in progress before the run starts, then the reply without the turn marker", async () => {
    const memory = new MemoryAcpSessionStore();
    let seenByRun: AcpSessionRecord | undefined;
    const graph = new ScriptedGraph((call) => {
      seenByRun = memory.get("sess_1");
      expect(call).toMatchObject({ kind: "run", options: { threadId: "sess_1" } });
      return completed("a1", "Hello");
    });
    const test = testParts(graph, { store: memory });
    const end = await startTurn(test.parts, prompt("hi"), signal());
    expect(end).toEqual({ status: "ended", stopReason: "end_turn" });
    expect(seenByRun?.turn).toMatchObject({ kind: "invoke", user: { role: "user", parts: [{ type: "text", text: "hi" }] } });
    expect(ids(seenByRun?.history ?? [])).toEqual(["user:hi"]);
    const stored = memory.get("sess_1");
    expect(ids(stored?.history ?? [])).toEqual(["user:hi", "assistant:Hello"]);
    expect(stored?.turn).toBeUndefined();
    expect(test.text()).toBe("Hello");
    // The run's id names the turn, so a restart can tell the turn's runs apart from others.
    expect(graph.calls[0]?.options.runId).toBe(`turn:sess_1:${seenByRun?.turn?.startedAt}`);
    // The default input is the conversation and the prompt.
    expect((graph.calls[0]?.input as { messages: Message[] }).messages.map((message) => message.role)).toEqual(["user"]);
  });

  it("refuses a prompt over the size limit before anything is written or run", async () => {
    const graph = new ScriptedGraph([]);
    const test = testParts(graph, { settings: { maxPromptBytes: 100 } });
    const end = await startTurn(test.parts, prompt("x".repeat(200)), signal());
    expect(end.status === "failed" && { code: end.error.code, message: end.error.message }).toEqual({
      code: "prompt_too_large",
      message: "The prompt is 0.0 MB; this agent accepts prompts up to 0.0 MB.",
    });
    expect(graph.calls).toEqual([]);
    expect(await test.stored()).toBeUndefined();
    expect(test.parts.session.record.history).toEqual([]);
  });

  it("when the store cannot take the prompt, nothing runs and the session is as it was, its questions still open", async () => {
    const { store, state } = outage();
    const question = { id: "q1", value: "Which file?", node: "ask" };
    const record: AcpSessionRecord = { ...newRecord(), pending: [question], answered: { a1: { decision: "approve" } } };
    const graph = new ScriptedGraph([]);
    const test = testParts(graph, { store, record });
    state.down = true;
    const end = await startTurn(test.parts, prompt("a.ts"), signal());
    expect(end.status === "failed" && end.error.code).toBe("store_unavailable");
    expect(graph.calls).toEqual([]);
    expect(test.parts.session.record).toMatchObject({ history: [], pending: [question] });
    expect(test.parts.session.record.turn).toBeUndefined();
  });

  it("shows the editor's notices first", async () => {
    const test = testParts(new ScriptedGraph([completed("a1", "Hello")]), { notices: ['The MCP server "docs" is not available.'] });
    await startTurn(test.parts, prompt("hi"), signal());
    expect(test.text()).toBe('The MCP server "docs" is not available.\n\nHello');
  });

  it("asks for an approval with the tool call as ACP shows it, and resumes with the person's answer", async () => {
    const graph = new ScriptedGraph([
      { outcome: { status: "interrupted", interrupts: [{ id: "i1", node: "tools", value: approval("write_file", { title: "Write a.ts (a link to b.ts)", display: [{ type: "text", text: "new text" }] }) }] } },
      completed("a1", "Written"),
    ]);
    const test = testParts(graph);
    const end = await startTurn(test.parts, prompt("write it"), signal());
    expect(end).toEqual({ status: "ended", stopReason: "end_turn" });
    expect(test.asked).toEqual([
      {
        toolName: "write_file",
        toolCall: {
          toolCallId: "call_write_file",
          title: "Write a.ts (a link to b.ts)",
          kind: "other",
          status: "pending",
          rawInput: { path: "src/a.ts" },
          locations: [{ path: "/project/src/a.ts" }],
          content: [{ type: "content", content: { type: "text", text: "new text" } }],
        },
      },
    ]);
    expect(graph.calls.map((call) => [call.kind, call.answers])).toEqual([
      ["run", undefined],
      ["resume", { i1: { decision: "approve" } }],
    ]);
    // The run never announced the call (as after a crash, when the session missed it), so it is
    // announced before the request: every later update of it has a call to update.
    expect(test.updates.filter((update) => update.sessionUpdate === "tool_call")).toMatchObject([{ toolCallId: "call_write_file", status: "pending" }]);
    // Every run of the turn has the turn's id.
    expect(new Set(graph.calls.map((call) => call.options.runId)).size).toBe(1);
  });

  it("keeps an always answer for the call's scope only, names the scope in the offer, and offers none for a call that can have none", async () => {
    const npmTest = { key: "prefix:npm test", label: "`npm test …`" };
    const interrupted = (id: string, scope: unknown): ScriptedRun => ({ outcome: { status: "interrupted", interrupts: [{ id, node: "tools", value: approval("run_command", { scope }) }] } });
    const graph = new ScriptedGraph([
      interrupted("i1", npmTest),
      completed("a1", "ran"),
      interrupted("i2", { key: "prefix:npm test unit", label: "`npm test unit …`", within: ["prefix:npm test"] }),
      completed("a2", "ran"),
      interrupted("i3", { key: "exact:rm -rf x", label: "`rm -rf x`" }),
      completed("a3", "asked"),
      interrupted("i4", false),
      completed("a4", "asked"),
    ]);
    const test = testParts(graph, { answer: () => ({ decision: "allow", always: true }) });
    for (const text of ["one", "two", "three", "four"]) {
      await startTurn(test.parts, prompt(text), signal());
    }
    expect(test.asked).toHaveLength(3);
    expect(test.offers.map((offer) => offer.always)).toEqual(["`npm test …`", "`rm -rf x`", false]);
    expect((await test.parts.ledger.list()).map((grant) => grant.scope)).toEqual(["prefix:npm test", "exact:rm -rf x"]);
  });

  it("asks, and never allows, when the ledger cannot be read; an old tool-wide allow does not cover a tool with scopes, an old rejection does", async () => {
    const failing = new MemoryAcpSessionStore();
    failing.grants = () => {
      throw new Error("the store is down");
    };
    const scoped = approval("run_command", { scope: { key: "prefix:npm test", label: "`npm test …`" } });
    const graph = new ScriptedGraph([{ outcome: { status: "interrupted", interrupts: [{ id: "i1", node: "tools", value: scoped }] } }, completed("a1", "asked")]);
    const record = newRecord();
    record.always = [["run_command", true]];
    const test = testParts(graph, { store: failing, record, answer: () => ({ decision: "reject", always: false }) });
    await startTurn(test.parts, prompt("one"), signal());
    expect(test.asked).toHaveLength(1);
    expect(graph.calls.filter((call) => call.kind === "resume").map((call) => call.answers)).toEqual([{ i1: { decision: "reject" } }]);
    expect(test.logs.some((line) => line.message === "The permission ledger could not be read; the person is asked")).toBe(true);

    const rejected = new ScriptedGraph([{ outcome: { status: "interrupted", interrupts: [{ id: "i1", node: "tools", value: scoped }] } }, completed("a1", "refused")]);
    const old = newRecord();
    old.always = [["run_command", false]];
    const again = testParts(rejected, { record: old, answer: () => ({ decision: "allow", always: false }) });
    await startTurn(again.parts, prompt("one"), signal());
    expect(again.asked).toHaveLength(0);
    expect(rejected.calls.filter((call) => call.kind === "resume").map((call) => call.answers)).toEqual([{ i1: { decision: "reject", reason: "The person chose to always reject run_command." } }]);
  });

  it("remembers an always answer: the next approval of that tool is answered without asking", async () => {
    const interrupted = (id: string): ScriptedRun => ({ outcome: { status: "interrupted", interrupts: [{ id, node: "tools", value: approval("run_command") }] } });
    const graph = new ScriptedGraph([interrupted("i1"), completed("a1", "ran"), interrupted("i2"), completed("a2", "refused")]);
    const test = testParts(graph, { answer: () => ({ decision: "reject", always: true }) });
    await startTurn(test.parts, prompt("one"), signal());
    await startTurn(test.parts, prompt("two"), signal());
    expect(test.asked).toHaveLength(1);
    expect(graph.calls.filter((call) => call.kind === "resume").map((call) => call.answers)).toEqual([
      { i1: { decision: "reject" } },
      { i2: { decision: "reject", reason: "The person chose to always reject run_command." } },
    ]);
    // The answer is the project's (its directory's) grant for the whole tool, which has no scopes.
    expect(await test.parts.ledger.list()).toEqual([{ tool: "run_command", scope: "*", label: "run_command", allow: false, grantedAt: expect.any(String) }]);
  });

  it("rejects the call when the permission request fails, and ends the turn as cancelled when it was cancelled", async () => {
    const interrupted: ScriptedRun = { outcome: { status: "interrupted", interrupts: [{ id: "i1", node: "tools", value: approval("edit_file") }] } };
    const failing = testParts(new ScriptedGraph([interrupted, completed("a1", "ok")]), { answer: () => ({ decision: "failed", error: "the editor went away" }) });
    expect(await startTurn(failing.parts, prompt("edit"), signal())).toEqual({ status: "ended", stopReason: "end_turn" });
    expect((failing.parts.graph as ScriptedGraph).calls[1]?.answers).toEqual({ i1: { decision: "reject", reason: "The permission request failed." } });
    expect(failing.logs.filter((line) => line.level === "warn").map((line) => line.message)).toEqual(["The permission request failed; the tool call is rejected"]);

    const graph = new ScriptedGraph([interrupted]);
    const cancelled = testParts(graph, { answer: () => ({ decision: "cancelled" }) });
    expect(await startTurn(cancelled.parts, prompt("edit"), signal())).toEqual({ status: "ended", stopReason: "cancelled" });
    expect(graph.calls).toHaveLength(1);
    expect(await cancelled.stored()).not.toHaveProperty("turn");
  });

  it("asks questions as the agent's message and ends the turn; the next prompt answers them with the approvals already given", async () => {
    const graph = new ScriptedGraph([
      {
        outcome: {
          status: "interrupted",
          interrupts: [
            { id: "i1", node: "tools", value: approval("read_file") },
            { id: "q1", node: "ask", value: { question: "Which branch?" } },
          ],
        },
      },
      completed("a1", "On main"),
    ]);
    const test = testParts(graph, { settings: { answer: (text, interrupt) => `${interrupt.id}: ${text}` } });
    // The end names the questions it waits on (a client without a person at it stops there).
    expect(await startTurn(test.parts, prompt("deploy"), signal())).toEqual({ status: "ended", stopReason: "end_turn", waiting: ["Which branch?"] });
    expect(test.text()).toBe("Which branch?");
    const stored = await test.stored();
    expect(stored?.pending).toEqual([{ id: "q1", node: "ask", value: { question: "Which branch?" } }]);
    expect(stored?.answered).toEqual({ i1: { decision: "approve" } });
    expect(ids(stored?.history ?? [])).toEqual(["user:deploy", "assistant:Which branch?"]);

    expect(await startTurn(test.parts, prompt("main"), signal())).toEqual({ status: "ended", stopReason: "end_turn" });
    expect(graph.calls[1]).toMatchObject({ kind: "resume", answers: { i1: { decision: "approve" }, q1: "q1: main" } });
    // The questions and answers are gone; the title the first prompt gave stays.
    expect(Object.keys((await test.stored()) ?? {}).sort()).toEqual(["always", "history", "info", "title", "updatedAt"]);
    expect((await test.stored())?.title).toBe("deploy");
  });

  it("maps how a run finished to ACP's stop reasons, and leaves a refused prompt out of the conversation", async () => {
    // "stop" is no RunFinish, but a thread written by an older version may hold any string.
    expect((["max_steps", "max_tokens", "refusal", "stop" as RunFinish, undefined] as const).map((finish) => stopReasonOf(finish))).toEqual(["max_turn_requests", "max_tokens", "refusal", "end_turn", "end_turn"]);
    const test = testParts(new ScriptedGraph([completed("a1", "Hello"), completed("a2", "cut", "max_tokens"), completed("a3", "No.", "refusal")]));
    expect(await startTurn(test.parts, prompt("one"), signal())).toEqual({ status: "ended", stopReason: "end_turn" });
    expect(await startTurn(test.parts, prompt("two"), signal())).toEqual({ status: "ended", stopReason: "max_tokens" });
    expect(await startTurn(test.parts, prompt("three"), signal())).toEqual({ status: "ended", stopReason: "refusal" });
    expect(ids((await test.stored())?.history ?? [])).toEqual(["user:one", "assistant:Hello", "user:two", "assistant:cut"]);
  });

  it("ends a cancelled run as cancelled, keeping what it finished and a note that says so", async () => {
    const test = testParts(new ScriptedGraph([{ events: [{ type: "text-delta", messageId: "a1", delta: "Hal" }], outcome: { status: "cancelled" } }]));
    expect(await startTurn(test.parts, prompt("stop"), signal())).toEqual({ status: "ended", stopReason: "cancelled" });
    expect(ids((await test.stored())?.history ?? [])).toEqual(["user:stop", "assistant:Hal", "assistant:[This turn was cancelled.]"]);
  });

  it("with failures: error, answers a failed run with the run's error and takes the prompt back", async () => {
    const test = testParts(new ScriptedGraph([{ outcome: { status: "failed", error: new WeftError("model_call_failed", "The model could not be reached") } }]));
    const end = await startTurn(test.parts, prompt("hi"), signal());
    expect(end.status === "failed" && { name: end.error.name, code: end.error.code, message: end.error.message, reason: (end.error as { reason?: unknown }).reason }).toEqual({
      name: "TurnFailedError",
      code: "turn_failed",
      message: "The agent failed: The model could not be reached",
      reason: "model_call_failed",
    });
    expect((await test.stored())?.history).toEqual([]);
    expect(await test.stored()).not.toHaveProperty("turn");
    expect(test.logs.filter((line) => line.level === "error").map((line) => line.message)).toEqual(["The agent's run failed"]);
  });

  it("with failures: message, tells the person as the agent's message, keeps it, and ends the turn normally", async () => {
    const test = testParts(new ScriptedGraph([{ outcome: { status: "failed", error: new Error("The key was refused") } }]), { settings: { failures: "message" } });
    expect(await startTurn(test.parts, prompt("hi"), signal())).toEqual({ status: "ended", stopReason: "end_turn" });
    const history = (await test.stored())?.history ?? [];
    expect(ids(history)).toEqual(["user:hi", "assistant:The key was refused"]);
    expect(test.updates.at(-1)).toEqual({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "\n\nThe key was refused" }, messageId: history[1]?.id });
  });

  it("an unattended turn answers a failed run with its error even with failures: message, and takes the prompt back", async () => {
    const test = testParts(new ScriptedGraph([{ outcome: { status: "failed", error: new WeftError("model_call_failed", "The key was refused") } }]), { settings: { failures: "message" } });
    const end = await startTurn(test.parts, prompt("hi"), signal(), undefined, { unattended: true });
    expect(end.status === "failed" && end.error.message).toBe("The agent failed: The key was refused");
    expect(test.text()).toBe("");
    expect((await test.stored())?.history).toEqual([]);
  });

  it("an unattended turn asks the client about every call, standing grants or not, and a policy's rejection reaches the run as the policy's", async () => {
    const interrupted = (id: string): ScriptedRun => ({ outcome: { status: "interrupted", interrupts: [{ id, node: "tools", value: approval("run_command") }] } });
    const graph = new ScriptedGraph([interrupted("i1"), completed("a1", "ran"), interrupted("i2"), completed("a2", "refused"), interrupted("i3"), completed("a3", "ran")]);
    const record = newRecord();
    record.always = [["run_command", true]];
    let answer: PermissionChoice = { decision: "allow", always: true };
    const test = testParts(graph, { record, answer: () => answer });
    // A person's "always allow": kept in the ledger, on top of the answer the record kept from before it.
    await startTurn(test.parts, prompt("one"), signal());
    expect(test.asked).toHaveLength(0);
    await test.parts.ledger.grant({ toolName: "run_command" }, true);

    answer = { decision: "reject", always: false, policy: "weft chat --approve reads answered." };
    await startTurn(test.parts, prompt("two"), signal(), undefined, { unattended: true });
    expect(test.asked).toHaveLength(1);
    expect(graph.calls[3]?.answers).toEqual({ i2: { decision: "reject", by: "policy", reason: "weft chat --approve reads answered." } });

    // The next attended turn has the grants as before.
    await startTurn(test.parts, prompt("three"), signal());
    expect(test.asked).toHaveLength(1);
    expect(graph.calls[5]?.answers).toEqual({ i3: { decision: "approve" } });
  });

  it("when the turn's end cannot be written, answers with the store's error and takes the prompt back, the store still holding the turn in progress", async () => {
    const { store, state, memory } = outage();
    const graph = new ScriptedGraph(() => {
      state.down = true;
      return { events: [{ type: "text-delta", messageId: "a1", delta: "Hello" }], outcome: { status: "completed", output: {} } };
    });
    const test = testParts(graph, { store });
    const end = await startTurn(test.parts, prompt("hi"), signal());
    expect(end.status === "failed" && end.error.message).toBe("The session store is unavailable: connect ECONNREFUSED");
    expect(test.parts.session.record.history).toEqual([]);
    expect(test.parts.session.record).not.toHaveProperty("turn");
    expect(memory.get("sess_1")?.turn).toMatchObject({ kind: "invoke" });
  });

  it("keeps each step's messages as the step is checkpointed", async () => {
    const memory = new MemoryAcpSessionStore();
    const events: RunEvent[] = [
      ...reply("a1", "Looking"),
      { type: "tool-call-end", messageId: "a2", toolCallId: "call_1", toolName: "read_file", input: { path: "a.ts" } },
      { type: "checkpoint", step: 2, seq: 2, status: "running" },
    ];
    const graph = new ScriptedGraph([{ events, outcome: { status: "failed", error: new Error("the process died here") } }]);
    const test = testParts(graph, { store: memory, settings: { failures: "message" } });
    await startTurn(test.parts, prompt("look"), signal());
    expect(ids(memory.get("sess_1")?.history ?? [])).toEqual(["user:look", "assistant:Looking", "assistant:tool-call", "assistant:the process died here"]);
    // The title first (the prompt was written), then the turn.
    expect(test.updates.map((update) => update.sessionUpdate)).toEqual(["session_info_update", "agent_message_chunk", "tool_call", "agent_message_chunk"]);
  });
});
