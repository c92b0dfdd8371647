// `weft acp` with a small context window (WEFT_CONTEXT_WINDOW), driven over stdio by the SDK
// client against the fake model server: a long session compacts and keeps going, and no request
// the model server receives is larger than the window (measured by the whole HTTP body, a
// stricter count than the agent's own); an editor that shows compactions sees them, one that does
// not sees none (the wire checker fails any it is sent); `/compact` compacts on demand; after a
// restart on the same SQLite file the model still gets the compacted conversation while the
// replay shows all of it.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import type { ChatRequest, FakeReply } from "../testing/fake-model-server.js";

const harness = weftAcpHarness();

const WINDOW = 6000;
const words = (count: number, word: string) => Array.from({ length: count }, () => word).join(" ");

const REPLY = `Here is what I found: ${words(200, "parser")}.`;

/** Tokens as the check counts them: a token for every 4 characters of the whole request body. */
const bodyTokens = (request: ChatRequest) => Math.ceil(JSON.stringify(request).length / 4);

const isSummaryRequest = (request: ChatRequest) => typeof request.messages[0]?.content === "string" && request.messages[0].content.startsWith("You condense");

/** Replies long, summarises short and numbered, and reports the body's size as its input tokens. */
function script() {
  let summaries = 0;
  return (request: ChatRequest): FakeReply => {
    const usage = { promptTokens: bodyTokens(request), completionTokens: 100 };
    if (isSummaryRequest(request)) {
      summaries++;
      return { text: [`Summary ${summaries}: `, "the person asked about the parser, and it was explained."], usage };
    }
    return { text: REPLY, usage };
  };
}

const question = (turn: number) => `Question ${turn}: ${words(300, "lexer")}`;

const userTexts = (updates: acp.SessionUpdate[]) => updates.flatMap((update) => (update.sessionUpdate === "user_message_chunk" && update.content.type === "text" ? [update.content.text] : []));

const sentText = (request: ChatRequest | undefined) => JSON.stringify(request?.messages ?? []);

describe("weft acp with a context window", () => {
  it("compacts a long session, never sends more than the window, compacts on /compact, and keeps the compaction across a restart", async () => {
    const fake = await harness.fakeModel(script());
    const env = { ...fake.env, WEFT_CONTEXT_WINDOW: String(WINDOW) };
    const first = harness.start(env);
    await first.initialize({ session: { compaction: {} } });
    const sessionId = await first.newSession(harness.project);
    const turns = 16;
    for (let turn = 0; turn < turns; turn++) {
      expect((await first.prompt(sessionId, question(turn))).stopReason).toBe("end_turn");
    }
    const requests = fake.model.requests;
    // The session outgrew the window twice over, and kept working.
    expect((turns * (question(0).length + REPLY.length)) / 4).toBeGreaterThan(WINDOW * 2);
    expect(first.textOf(sessionId).endsWith(REPLY)).toBe(true);
    for (const request of requests) {
      expect(bodyTokens(request)).toBeLessThanOrEqual(WINDOW);
    }
    // The biggest reply request came near the limit: the window, not luck, kept them small.
    expect(Math.max(...requests.filter((request) => !isSummaryRequest(request)).map(bodyTokens))).toBeGreaterThan(WINDOW / 2);

    const updates = first.updatesOf(sessionId);
    const compactions = updates.filter((update): update is Extract<acp.SessionUpdate, { sessionUpdate: "compaction_update" }> => update.sessionUpdate === "compaction_update");
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    expect(compactions[0]).toEqual({ sessionUpdate: "compaction_update", compactionId: expect.any(String), status: "in_progress" });
    expect(compactions[1]).toEqual({
      sessionUpdate: "compaction_update",
      compactionId: compactions[0]?.compactionId,
      status: "completed",
      summary: [{ type: "text", text: expect.stringMatching(/^Summary \d+: the person asked about the parser/) }],
    });
    expect(updates.some((update) => update.sessionUpdate === "compaction_summary_chunk" && update.compactionId === compactions[0]?.compactionId)).toBe(true);
    // usage_update after the calls, never over the window.
    const usage = updates.filter((update): update is Extract<acp.SessionUpdate, { sessionUpdate: "usage_update" }> => update.sessionUpdate === "usage_update");
    expect(usage.length).toBeGreaterThan(turns);
    expect(usage.every((update) => update.size === WINDOW && update.used <= WINDOW)).toBe(true);
    // The model was told the summary in place of the first questions.
    const lastReply = requests.filter((request) => !isSummaryRequest(request)).at(-1);
    expect(sentText(lastReply)).toContain("The start of this conversation was summarised");
    expect(sentText(lastReply)).not.toContain("Question 0:");
    expect(sentText(lastReply)).toContain(`Question ${turns - 1}:`);

    // /compact: a summary now, and no reply from the model.
    const before = requests.length;
    const mark = first.updatesOf(sessionId).length;
    expect((await first.prompt(sessionId, "/compact")).stopReason).toBe("end_turn");
    expect(requests.length).toBe(before + 1);
    expect(isSummaryRequest(requests.at(-1) as ChatRequest)).toBe(true);
    const asked = first.updatesOf(sessionId).slice(mark).filter((update) => update.sessionUpdate === "compaction_update");
    expect(asked.map((update) => update.status)).toEqual(["in_progress", "completed"]);
    const summary = (asked[1]?.summary?.[0] as { text: string }).text;
    // The ring shows the context as the compaction left it, smaller than before.
    const usedBefore = usage.at(-1)?.used ?? 0;
    const usedAfter = first.updatesOf(sessionId).slice(mark).flatMap((update) => (update.sessionUpdate === "usage_update" ? [update.used] : []));
    expect(usedAfter).toHaveLength(1);
    expect(usedAfter[0]).toBeLessThan(usedBefore / 2);
    expect((await first.prompt(sessionId, "What next?")).stopReason).toBe("end_turn");
    const afterCompact = requests.at(-1);
    expect(sentText(afterCompact)).toContain(summary);
    expect(sentText(afterCompact)).not.toContain(`Question ${turns - 1}:`);
    expect(sentText(afterCompact)).toContain("What next?");
    await first.stop();

    // A new process on the same sessions file: the replay is whole, the model's view compacted.
    const second = harness.start(env);
    await second.initialize({ session: { compaction: {} } });
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: harness.project, mcpServers: [] });
    const replayed = userTexts(second.updatesOf(sessionId));
    expect(replayed).toEqual([...Array.from({ length: turns }, (_, turn) => question(turn)), "/compact", "What next?"]);
    expect(second.updatesOf(sessionId).some((update) => update.sessionUpdate === "compaction_update")).toBe(false);
    const sent = requests.length;
    expect((await second.prompt(sessionId, "And after the restart?")).stopReason).toBe("end_turn");
    expect(requests.slice(sent).some(isSummaryRequest)).toBe(false);
    const afterRestart = requests.at(-1);
    expect(sentText(afterRestart)).toContain(summary);
    expect(sentText(afterRestart)).not.toContain("Question 0:");
    expect(sentText(afterRestart)).toContain("And after the restart?");
    expect(bodyTokens(afterRestart as ChatRequest)).toBeLessThanOrEqual(WINDOW);
  });

  it("compacts for an editor that does not show compactions without telling it, within the window all the same", async () => {
    const fake = await harness.fakeModel(script());
    const agent = harness.start({ ...fake.env }, ["--context-window", String(WINDOW)]);
    await agent.initialize({});
    const sessionId = await agent.newSession(harness.project);
    for (let turn = 0; turn < 8; turn++) {
      expect((await agent.prompt(sessionId, question(turn))).stopReason).toBe("end_turn");
    }
    expect(fake.model.requests.some(isSummaryRequest)).toBe(true);
    expect(fake.model.requests.every((request) => bodyTokens(request) <= WINDOW)).toBe(true);
    const gated = new Set(["compaction_update", "compaction_summary_chunk"]);
    expect(agent.updatesOf(sessionId).filter((update) => gated.has(update.sessionUpdate))).toEqual([]);
    // Neither the summary nor a word of it reached the reply.
    expect(agent.textOf(sessionId)).not.toContain("Summary");
  });
});
