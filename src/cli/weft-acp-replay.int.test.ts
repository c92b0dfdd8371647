// What an editor sees of a `weft acp` session's plan and of a cancelled turn, live and after a
// restart (session/load replays the conversation): the plan tool's calls are not file edits, the
// replay shows the plan's entries again, and a cancelled turn does not replay as one that ended.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";

const harness = weftAcpHarness();

const steps = [
  { content: "Read the code", priority: "high", status: "completed" },
  { content: "Write the fix", priority: "medium", status: "in_progress" },
] as const;

describe("weft acp's plan and cancelled turns, live and replayed", () => {
  it("announces the plan tool's calls as thinking, and a load replays the plan's entries and the cancel", async () => {
    const fake = await harness.fakeModel([
      { toolCalls: [{ name: "update_plan", arguments: { entries: steps } }] },
      { text: "Planned." },
      { text: ["Half an ", "answer"], stallAfter: 2 },
    ]);
    const first = harness.start(fake.env);
    await first.initialize();
    const sessionId = await first.newSession(harness.project);
    expect((await first.prompt(sessionId, "make a plan")).stopReason).toBe("end_turn");
    const kinds = first.updatesOf(sessionId).flatMap((update) => ((update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") && update.kind ? [update.kind] : []));
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(["think"]));
    expect(first.updatesOf(sessionId).filter((update) => update.sessionUpdate === "plan")).toEqual([{ sessionUpdate: "plan", entries: steps }]);

    const mark = first.updatesOf(sessionId).length;
    const cancelled = first.prompt(sessionId, "go on");
    await first.waitFor(() => first.textOf(sessionId, mark).includes("Half an"), "the reply's first words");
    await first.cancel(sessionId);
    expect((await cancelled).stopReason).toBe("cancelled");
    await first.stop();

    const second = harness.start(fake.env);
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: harness.project, mcpServers: [] });
    const replayed = second.updatesOf(sessionId);
    const replayedCall = replayed.find((update) => update.sessionUpdate === "tool_call");
    expect(replayedCall?.sessionUpdate === "tool_call" && { kind: replayedCall.kind, status: replayedCall.status }).toEqual({ kind: "think", status: "completed" });
    // The plan comes right after the call that showed it.
    const planAt = replayed.findIndex((update) => update.sessionUpdate === "plan");
    expect(replayed[planAt]).toEqual({ sessionUpdate: "plan", entries: steps });
    expect(replayed[planAt - 1]).toBe(replayedCall);
    // The cancelled turn ends with a note saying so, not as a reply that ended.
    expect(second.textOf(sessionId)).toMatch(/Half an\s*\[This turn was cancelled\.\]$/);
  });
});
