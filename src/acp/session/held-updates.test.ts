// Session-level updates wait for the answer that opened the session, and keep their order.

import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { silentLogger } from "../../types/logger.js";
import { HeldUpdates } from "./held-updates.js";
import { UpdateSink } from "./update-sink.js";

describe("HeldUpdates", () => {
  it("holds updates until the answer is written, then sends them in order", async () => {
    const sent: SessionUpdate[] = [];
    const held = new HeldUpdates(new UpdateSink("sess_1", async (notification) => void sent.push(notification.update), silentLogger));
    let written!: () => void;
    held.holdUntil(new Promise<void>((resolve) => (written = resolve)));
    held.send({ sessionUpdate: "session_info_update", title: "first" });
    held.send({ sessionUpdate: "usage_update", used: 1, size: 10 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]);
    written();
    await held.flush();
    expect(sent).toEqual([
      { sessionUpdate: "session_info_update", title: "first" },
      { sessionUpdate: "usage_update", used: 1, size: 10 },
    ]);
  });

  it("sends at once once the editor knows the session, in the order of the session's other updates", async () => {
    const sent: string[] = [];
    const sink = new UpdateSink("sess_1", async (notification) => void sent.push(notification.update.sessionUpdate), silentLogger);
    const held = new HeldUpdates(sink);
    held.holdUntil(Promise.resolve());
    await held.flush();
    held.send({ sessionUpdate: "session_info_update", updatedAt: "2026-01-01T00:00:00.000Z" });
    void sink.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } });
    await held.flush();
    expect(sent).toEqual(["session_info_update", "agent_message_chunk"]);
  });
});
