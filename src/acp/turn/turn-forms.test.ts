// A turn's forms, against scripted runs: a question with a schema is asked as a form when the
// editor shows forms and the run resumes in the same turn with a FormAnswer; without forms, or
// with a schema that is not flat, it is asked in words; a schema that asks for a secret fails the
// turn; "Edit first" offers the call's input as a form and runs it with what the person accepts.

import { describe, expect, it } from "vitest";

import { newRecord, testParts } from "../../../test/support/turn-parts.js";
import { ScriptedGraph, type ScriptedRun } from "../../../test/support/scripted-graph.js";
import type { RunEvent } from "../../graph/events.js";
import type { AssistantMessage } from "../../types/messages.js";
import type { JsonObject } from "../../types/json.js";
import type { AcpContentBlock } from "../mapping/content.js";
import type { FormOutcome } from "../asking/elicitation.js";
import { startTurn } from "./turn.js";

const prompt = (text: string): AcpContentBlock[] => [{ type: "text", text }];
const signal = () => new AbortController().signal;

const completed = (id: string, text: string): ScriptedRun => {
  const message: AssistantMessage = { id, role: "assistant", parts: [{ type: "text", text }] };
  const events: RunEvent[] = [{ type: "text-delta", messageId: id, delta: text }, { type: "message", message }, { type: "checkpoint", step: 1, seq: 1, status: "completed" }];
  return { events, outcome: { status: "completed", output: {} } };
};
const colourSchema: JsonObject = { type: "object", properties: { colour: { type: "string", enum: ["red", "blue"] } }, required: ["colour"] };
const question = (schema: JsonObject = colourSchema): ScriptedRun => ({
  outcome: { status: "interrupted", interrupts: [{ id: "ask:q1:0", node: "tools", value: { kind: "question", toolCallId: "q1", toolName: "ask_user", question: "Which colour?" }, schema }] },
});
const writeSchema: JsonObject = { type: "object", properties: { path: { type: "string" }, text: { type: "string" } }, required: ["path", "text"], additionalProperties: false };
const approval = (extra: JsonObject = {}): ScriptedRun => ({
  outcome: {
    status: "interrupted",
    interrupts: [{ id: "approve:w1", node: "tools", value: { kind: "tool-approval", toolCallId: "w1", toolName: "write_note", input: { path: "a.txt", text: "draft" }, inputSchema: writeSchema, ...extra } }],
  },
});

describe("questions as forms", () => {
  it("asks a question with a schema as a form tied to its tool call, and resumes in the same turn with the content", async () => {
    const graph = new ScriptedGraph([question(), completed("a1", "Red it is.")]);
    const test = testParts(graph, { form: () => ({ action: "accept", content: { colour: "red" } }) });
    expect(await startTurn(test.parts, prompt("paint"), signal())).toEqual({ status: "ended", stopReason: "end_turn" });
    expect(test.forms).toEqual([{ message: "Which colour?", schema: colourSchema, toolCallId: "q1" }]);
    // The run never announced the asking call, so the form's call is announced first.
    expect(test.updates.filter((update) => update.sessionUpdate === "tool_call")).toMatchObject([{ toolCallId: "q1", status: "pending" }]);
    expect(graph.calls[1]).toMatchObject({ kind: "resume", answers: { "ask:q1:0": { action: "accept", content: { colour: "red" } } } });
    expect(test.text()).toBe("Red it is.");
    const stored = await test.stored();
    expect(stored).not.toHaveProperty("pending");
    expect(stored).not.toHaveProperty("turn");
  });

  it.each(["decline", "cancel"] as const)("gives the run { action: %j } when the person answers so", async (action) => {
    const graph = new ScriptedGraph([question(), completed("a1", "Fine.")]);
    const test = testParts(graph, { form: () => ({ action }) });
    expect(await startTurn(test.parts, prompt("paint"), signal())).toEqual({ status: "ended", stopReason: "end_turn" });
    expect(graph.calls[1]?.answers).toEqual({ "ask:q1:0": { action } });
  });

  it("asks in words when the editor shows no forms; the next prompt answers with a reply", async () => {
    const graph = new ScriptedGraph([question(), completed("a1", "Blue it is.")]);
    const test = testParts(graph);
    expect(await startTurn(test.parts, prompt("paint"), signal())).toEqual({ status: "ended", stopReason: "end_turn", waiting: ["Which colour?"] });
    expect(test.forms).toEqual([]);
    expect(test.text()).toBe("Which colour?");
    expect((await test.stored())?.pending).toEqual([expect.objectContaining({ id: "ask:q1:0", schema: colourSchema })]);
    await startTurn(test.parts, prompt("blue please"), signal());
    expect(graph.calls[1]).toMatchObject({ kind: "resume", answers: { "ask:q1:0": { action: "reply", text: "blue please" } } });
  });

  it("asks in words when the schema is not flat, even with forms", async () => {
    const nested: JsonObject = { type: "object", properties: { address: { type: "object", properties: { city: { type: "string" } } } } };
    const test = testParts(new ScriptedGraph([question(nested)]), { form: () => ({ action: "accept", content: {} }) });
    expect(await startTurn(test.parts, prompt("where"), signal())).toEqual({ status: "ended", stopReason: "end_turn", waiting: ["Which colour?"] });
    expect(test.forms).toEqual([]);
    expect(test.text()).toBe("Which colour?");
  });

  it("falls back to words when the form fails", async () => {
    const test = testParts(new ScriptedGraph([question()]), { form: () => ({ action: "failed", error: "the dialog crashed" }) });
    expect(await startTurn(test.parts, prompt("paint"), signal())).toEqual({ status: "ended", stopReason: "end_turn", waiting: ["Which colour?"] });
    expect(test.forms).toHaveLength(1);
    expect(test.text()).toBe("Which colour?");
    expect(test.logs.find((line) => line.level === "warn")).toMatchObject({ message: "A question's form failed; it is asked as a message", fields: { error: "the dialog crashed" } });
  });

  it("ends the turn as cancelled when the form is withdrawn with it", async () => {
    const graph = new ScriptedGraph([question()]);
    const test = testParts(graph, { form: () => ({ action: "withdrawn" }) });
    expect(await startTurn(test.parts, prompt("paint"), signal())).toEqual({ status: "ended", stopReason: "cancelled" });
    expect(graph.calls).toHaveLength(1);
  });

  it.each([true, false])("fails the turn, asking nothing, for a schema that asks for a secret (forms shown: %s)", async (showsForms) => {
    const secret: JsonObject = { type: "object", properties: { apiKey: { type: "string" } } };
    const graph = new ScriptedGraph([question(secret)]);
    const test = testParts(graph, showsForms ? { form: () => ({ action: "accept", content: {} }) } : {});
    const end = await startTurn(test.parts, prompt("connect"), signal());
    expect(end).toMatchObject({ status: "failed", error: { code: "turn_failed", reason: "secret_in_form", message: expect.stringContaining("field apiKey is named like a secret") } });
    expect(test.forms).toEqual([]);
    expect(test.text()).toBe("");
    expect(graph.calls).toHaveLength(1);
  });
});

describe("edit first", () => {
  it("offers edit first with forms and a flat input schema, and runs the call with the input the person accepts", async () => {
    const graph = new ScriptedGraph([approval({ title: "Write a.txt" }), completed("a1", "Written.")]);
    const test = testParts(graph, { answer: () => ({ decision: "edit" }), form: () => ({ action: "accept", content: { path: "a.txt", text: "final" } }) });
    expect(await startTurn(test.parts, prompt("write"), signal())).toEqual({ status: "ended", stopReason: "end_turn" });
    expect(test.offers).toEqual([{ editFirst: true }]);
    expect(test.forms).toEqual([
      {
        message: "Edit the input of Write a.txt before it runs.",
        toolCallId: "w1",
        schema: { type: "object", properties: { path: { type: "string", default: "a.txt" }, text: { type: "string", default: "draft" } }, required: ["path", "text"] },
      },
    ]);
    expect(graph.calls[1]?.answers).toEqual({ "approve:w1": { decision: "edit", input: { path: "a.txt", text: "final" } } });
  });

  it.each<[FormOutcome, string]>([
    [{ action: "decline" }, "The person chose to edit the input first, then closed the form without running it."],
    [{ action: "cancel" }, "The person chose to edit the input first, then closed the form without running it."],
    [{ action: "failed", error: "no" }, "The form to edit the input failed."],
  ])("rejects the call when the edit form ends with %j", async (outcome, reason) => {
    const graph = new ScriptedGraph([approval(), completed("a1", "Not written.")]);
    const test = testParts(graph, { answer: () => ({ decision: "edit" }), form: () => outcome });
    await startTurn(test.parts, prompt("write"), signal());
    expect(graph.calls[1]?.answers).toEqual({ "approve:w1": { decision: "reject", reason } });
  });

  it("does not offer edit first without forms, or for an input schema that is not flat or holds a secret", async () => {
    const withoutForms = testParts(new ScriptedGraph([approval(), completed("a1", "ok")]));
    await startTurn(withoutForms.parts, prompt("write"), signal());
    const nested = testParts(new ScriptedGraph([approval({ inputSchema: { type: "object", properties: { options: { type: "object" } } } }), completed("a1", "ok")]), {
      form: () => ({ action: "cancel" }),
    });
    await startTurn(nested.parts, prompt("write"), signal());
    const secret = testParts(new ScriptedGraph([approval({ inputSchema: { type: "object", properties: { token: { type: "string" } } } }), completed("a1", "ok")]), {
      form: () => ({ action: "cancel" }),
    });
    await startTurn(secret.parts, prompt("write"), signal());
    expect([withoutForms, nested, secret].map((test) => test.offers)).toEqual([[{ editFirst: false }], [{ editFirst: false }], [{ editFirst: false }]]);
  });

  it("keeps the tool call's title, locations and diff in the permission request", async () => {
    const display = [{ type: "diff" as const, path: "/project/a.txt", oldText: "old\n", newText: "new\n" }];
    const test = testParts(new ScriptedGraph([approval({ title: "Edit a.txt", locations: [{ path: "/project/a.txt", line: 3 }], display }), completed("a1", "ok")]), {
      record: newRecord(),
    });
    await startTurn(test.parts, prompt("edit"), signal());
    expect(test.asked[0]?.toolCall).toEqual({
      toolCallId: "w1",
      title: "Edit a.txt",
      kind: "other",
      status: "pending",
      rawInput: { path: "a.txt", text: "draft" },
      locations: [{ path: "/project/a.txt", line: 3 }],
      content: [{ type: "diff", path: "/project/a.txt", oldText: "old\n", newText: "new\n" }],
    });
  });
});
