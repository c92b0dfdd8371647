// LangGraph's pending interrupts as weft's, and weft's answers as the resume value: the
// middleware's one interrupt per model turn becomes one approval per call, and its decisions go
// back in order.

import { describe, expect, it } from "vitest";

import type { ToolApprovalRequest } from "../agent/tool-approval.js";
import { defaultResumeValue, pendingInterrupts, resumePlan } from "./interrupts.js";

const LG = "0123456789abcdef0123456789abcdef";

const hitlTask = {
  name: "HumanInTheLoopMiddleware.after_model",
  interrupts: [
    {
      id: LG,
      value: {
        actionRequests: [
          { name: "write_file", args: { path: "b.txt" }, description: "…" },
          { name: "run", args: { command: "ls" }, description: "…" },
        ],
        reviewConfigs: [
          { actionName: "write_file", allowedDecisions: ["approve", "edit", "reject"], argsSchema: { type: "object", properties: { path: { type: "string" } } } },
          { actionName: "run", allowedDecisions: ["approve", "reject"], argsSchema: { type: "object" } },
        ],
      },
    },
  ],
};

const calls = [
  { id: "c_a", name: "write_file", args: { path: "a.txt" } },
  { id: "c_read", name: "read_file", args: { path: "a.txt" } },
  { id: "c_b", name: "write_file", args: { path: "b.txt" } },
  { id: "c_run", name: "run", args: { command: "ls" } },
];

describe("pendingInterrupts", () => {
  it("makes one approval per action request, named by the model's call it asks about", () => {
    const pending = pendingInterrupts([hitlTask], calls);
    expect(pending.map((entry) => entry.interrupt.id)).toEqual([`${LG}:0`, `${LG}:1`]);
    const [write, run] = pending.map((entry) => entry.interrupt.value as unknown as ToolApprovalRequest);
    const shown = (command: string) => [{ type: "text", text: `…\n\nArguments:\n\`\`\`json\n${command}\n\`\`\`` }];
    expect(write).toEqual({
      kind: "tool-approval",
      toolCallId: "c_b",
      toolName: "write_file",
      input: { path: "b.txt" },
      title: 'write_file(path: "b.txt")',
      display: shown('{\n  "path": "b.txt"\n}'),
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    });
    // No edit allowed: no schema to edit with.
    expect(run).toEqual({ kind: "tool-approval", toolCallId: "c_run", toolName: "run", input: { command: "ls" }, title: 'run(command: "ls")', display: shown('{\n  "command": "ls"\n}') });
    expect(pending[0]?.interrupt.node).toBe("HumanInTheLoopMiddleware.after_model");
  });

  it("an interrupt with a response schema asks with it; any other asks in words", () => {
    const schema = { type: "object", properties: { colour: { type: "string" } } };
    const pending = pendingInterrupts(
      [
        { name: "ask", interrupts: [{ id: "a".repeat(32), value: { question: "Colour?" }, response_schema: schema }] },
        { name: "other", interrupts: [{ id: "b".repeat(32), value: "Name?" }] },
      ],
      [],
    );
    expect(pending.map((entry) => entry.interrupt)).toEqual([
      { id: "a".repeat(32), value: { question: "Colour?" }, node: "ask", schema },
      { id: "b".repeat(32), value: "Name?", node: "other" },
    ]);
  });
});

describe("resumePlan", () => {
  const pending = pendingInterrupts([hitlTask], calls);

  it("puts the decisions back in the middleware's order, a rejection's reason as its message", () => {
    const plan = resumePlan(pending, { [`${LG}:1`]: { decision: "reject", reason: "not now" }, [`${LG}:0`]: { decision: "edit", input: { path: "c.txt" } } }, defaultResumeValue);
    expect(plan.resume).toEqual({
      [LG]: {
        decisions: [
          { type: "edit", editedAction: { name: "write_file", args: { path: "c.txt" } } },
          { type: "reject", message: "not now" },
        ],
      },
    });
    expect([...plan.rejected]).toEqual(["c_run"]);
    expect(plan.unknown).toEqual([]);
    expect(plan.missing).toEqual([]);
  });

  it("approve is approve; a rejection without a reason leaves the middleware's own message", () => {
    const plan = resumePlan(pending, { [`${LG}:0`]: { decision: "approve" }, [`${LG}:1`]: { decision: "reject" } }, defaultResumeValue);
    expect(plan.resume[LG]).toEqual({ decisions: [{ type: "approve" }, { type: "reject" }] });
  });

  it("a policy's rejection (nobody asked) says so in its message, with the policy's reason", () => {
    const plan = resumePlan(pending, { [`${LG}:0`]: { decision: "approve" }, [`${LG}:1`]: { decision: "reject", by: "policy", reason: "--approve reads allows reading only." } }, defaultResumeValue);
    expect(plan.resume[LG]).toEqual({
      decisions: [{ type: "approve" }, { type: "reject", message: "Not run: the run's approval policy refused this tool call, and no person was asked. Reason: --approve reads allows reading only." }],
    });
  });

  it("names an answer to nothing pending, and approvals of one interrupt left unanswered", () => {
    const plan = resumePlan(pending, { [`${LG}:0`]: { decision: "approve" }, nope: "x" }, defaultResumeValue);
    expect(plan.unknown).toEqual(["nope"]);
    expect(plan.missing).toEqual([`${LG}:1`]);
    expect(plan.resume).toEqual({});
  });

  it("a question's answer is its resume value, by LangGraph's id", () => {
    const questions = pendingInterrupts([{ name: "ask", interrupts: [{ id: "a".repeat(32), value: "Name?" }] }], []);
    expect(resumePlan(questions, { ["a".repeat(32)]: "Ada" }, defaultResumeValue).resume).toEqual({ ["a".repeat(32)]: "Ada" });
  });

  it("an answer that does not fit is named with why, and not resumed with", () => {
    const schema = { type: "object", properties: { age: { type: "integer" } }, required: ["age"] };
    const questions = pendingInterrupts([{ name: "ask", interrupts: [{ id: "a".repeat(32), value: "Age?", response_schema: schema }] }], []);
    const plan = resumePlan(questions, { ["a".repeat(32)]: { action: "reply", text: "old" } }, defaultResumeValue);
    expect(plan.resume).toEqual({});
    expect(plan.invalid).toEqual([{ id: "a".repeat(32), message: "That answer does not fit: age must be a whole number. Answer with age, a whole number." }]);
  });
});

describe("defaultResumeValue", () => {
  const schema = { type: "object", properties: { colour: { type: "string", enum: ["red", "green"] } }, required: ["colour"] };
  const asked = { id: "q", value: "Colour?", node: "ask", schema };

  it("gives a form's content, an answer in words read into the schema, and null for a form declined or dismissed", () => {
    expect(defaultResumeValue({ action: "accept", content: { colour: "red" } }, asked)).toEqual({ colour: "red" });
    expect(defaultResumeValue({ action: "reply", text: "Red" }, asked)).toEqual({ colour: "red" });
    expect(defaultResumeValue({ action: "decline" }, asked)).toBeNull();
    expect(defaultResumeValue({ action: "cancel" }, asked)).toBeNull();
  });

  it("throws an InvalidAnswerError saying why for an answer the schema refuses, in words or in a form", () => {
    expect(() => defaultResumeValue({ action: "reply", text: "blue" }, asked)).toThrow(expect.objectContaining({ code: "invalid_answer", interruptId: "q", message: expect.stringContaining("colour must be one of: red, green") }));
    expect(() => defaultResumeValue({ action: "accept", content: { colour: "blue" } }, asked)).toThrow(expect.objectContaining({ code: "invalid_answer" }));
  });

  it("leaves the answer to a question without a schema as it is", () => {
    expect(defaultResumeValue({ action: "accept", content: {} }, { id: "q", value: "?", node: "ask" })).toEqual({ action: "accept", content: {} });
    expect(defaultResumeValue("yes", { id: "q", value: "?", node: "ask" })).toBe("yes");
  });
});
