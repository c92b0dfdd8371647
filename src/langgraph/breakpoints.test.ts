// Static breakpoints as weft asks them: which stops there are, what a stop asks, and how the
// answers say the run goes on.

import { describe, expect, it } from "vitest";

import { breakpointInterrupts, breakpointPlan, breakpointsOf, changedSinceBreakpoint, unrunResults } from "./breakpoints.js";
import type { BreakpointStop } from "./interrupts.js";

const stop: BreakpointStop = { when: "before", nodes: ["tools"], checkpointId: "cp1" };
const calls = [
  { id: "a", name: "write_file", args: { path: "a.txt" } },
  { id: "b", name: "write_file", args: { path: "b.txt" } },
];

describe("breakpointsOf", () => {
  it("reads a compiled graph's interruptBefore and interruptAfter, or the graph inside an agent; none is undefined", () => {
    expect(breakpointsOf({ interruptBefore: ["tools"] })).toEqual({ before: ["tools"], after: [] });
    expect(breakpointsOf({ graph: { interruptAfter: "*" } })).toEqual({ before: [], after: "*" });
    expect(breakpointsOf({ interruptBefore: [] })).toBeUndefined();
    expect(breakpointsOf({})).toBeUndefined();
  });
});

describe("changedSinceBreakpoint", () => {
  it("is true until the graph is resumed past the stop, which marks the channels seen", () => {
    expect(changedSinceBreakpoint({ channel_versions: { messages: 3 } })).toBe(true);
    expect(changedSinceBreakpoint({ channel_versions: { messages: 3 }, versions_seen: { __interrupt__: { messages: 3 } } })).toBe(false);
    expect(changedSinceBreakpoint({ channel_versions: { messages: "00004.1" }, versions_seen: { __interrupt__: { messages: "00003.9" } } })).toBe(true);
  });
});

describe("breakpointInterrupts", () => {
  it("asks one approval per call the stop holds back, or a question when it holds none", () => {
    expect(breakpointInterrupts(stop, calls).map((entry) => [entry.interrupt.id, entry.breakpoint?.call?.toolCallId])).toEqual([
      ["breakpoint:a", "a"],
      ["breakpoint:b", "b"],
    ]);
    const [question] = breakpointInterrupts({ when: "after", nodes: ["draft"], checkpointId: "cp2" }, []);
    expect(question?.interrupt).toMatchObject({ id: "breakpoint:cp2", value: { question: 'The graph paused after its step "draft" (a breakpoint). Go on?' }, node: "draft" });
    expect(question?.interrupt.schema).toMatchObject({ properties: { answer: { enum: ["continue", "stop"] } } });
  });
});

describe("breakpointPlan", () => {
  const approvals = breakpointInterrupts(stop, calls);
  const [question] = breakpointInterrupts(stop, []);
  const asked = question ? [question] : [];

  it("all calls approved: carries on, nothing written", () => {
    expect(breakpointPlan(approvals, { "breakpoint:a": { decision: "approve" }, "breakpoint:b": { decision: "approve" } })).toEqual({ go: true, unrun: [] });
  });

  it("one rejected: none runs, each gets a result in the model's order, the rejection with its reason", () => {
    const plan = breakpointPlan(approvals, { "breakpoint:a": { decision: "approve" }, "breakpoint:b": { decision: "reject", reason: "not b" } });
    if (!plan.go) {
      throw new Error("expected the run to go on");
    }
    expect(unrunResults(plan).map((message) => [message.tool_call_id, message.content, message.status])).toEqual([
      ["a", "This call did not run: the person rejected another call of the same turn.", "error"],
      ["b", "The person rejected this call: not b", "error"],
    ]);
  });

  it("names the calls left unanswered", () => {
    expect(breakpointPlan(approvals, { "breakpoint:a": { decision: "approve" } })).toEqual({ go: false, problems: [], missing: ["breakpoint:b"] });
  });

  it("a question: yes, continue or the form's choice goes on; no, stop or a declined form stops; anything else is asked again", () => {
    for (const answer of ["yes", { action: "reply", text: "Continue" }, { action: "reply", text: "go on." }, { action: "accept", content: { answer: "continue" } }]) {
      expect(breakpointPlan(asked, { "breakpoint:cp1": answer })).toEqual({ go: true, unrun: [] });
    }
    for (const answer of [{ action: "reply", text: "no" }, { action: "reply", text: "stop" }, { action: "decline" }, { action: "accept", content: { answer: "stop" } }]) {
      expect(breakpointPlan(asked, { "breakpoint:cp1": answer })).toEqual({ go: false, stop: true, note: 'Stopped before the graph\'s step "tools", as you answered.' });
    }
    expect(breakpointPlan(asked, { "breakpoint:cp1": { action: "reply", text: "hmm" } })).toMatchObject({ go: false, problems: [expect.stringContaining('answer "continue"')] });
  });
});
