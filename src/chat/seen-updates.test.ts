import type * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { SeenUpdates } from "./seen-updates.js";

const text = (sessionUpdate: "user_message_chunk" | "agent_message_chunk", messageId: string, words: string): acp.SessionUpdate => ({ sessionUpdate, messageId, content: { type: "text", text: words } });

describe("SeenUpdates", () => {
  it("gives the replay's last turn less the messages and tool call states already shown", () => {
    const seen = new SeenUpdates();
    seen.note(text("agent_message_chunk", "a1", "First answer."));
    seen.note({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Read", status: "pending" });
    const replay: acp.SessionUpdate[] = [
      text("user_message_chunk", "u1", "first"),
      text("agent_message_chunk", "a1", "First answer."),
      text("user_message_chunk", "u2", "second"),
      { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read", status: "pending" },
      { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" },
      text("agent_message_chunk", "a2", "The rest."),
      { sessionUpdate: "usage_update", used: 1, size: 2 },
    ];
    expect(seen.restOfLastTurn(replay)).toEqual([replay[4], replay[5]]);
    // Shown now, so a second replay has nothing more.
    expect(seen.restOfLastTurn(replay)).toEqual([]);
  });
});
