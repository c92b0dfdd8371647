// What the person has been shown of a session, so that after a reconnect the chat can show the
// rest of a turn the drop cut off: the session/load replay's last turn, less what was already seen.

import type * as acp from "@agentclientprotocol/sdk";

export class SeenUpdates {
  private readonly messages = new Set<string>();
  private readonly toolCalls = new Set<string>();

  /** Notes an update shown as it came. */
  note(update: acp.SessionUpdate): void {
    const key = this.key(update);
    if (key?.kind === "message") {
      this.messages.add(key.id);
    } else if (key?.kind === "tool") {
      this.toolCalls.add(key.id);
    }
  }

  /**
   * From a replay of the whole session, the updates of its last turn (those after its last
   * prompt) not shown before: messages by id, tool calls by id and status. Each is noted as seen.
   */
  restOfLastTurn(replay: readonly acp.SessionUpdate[]): acp.SessionUpdate[] {
    let start = replay.length;
    while (start > 0 && replay[start - 1]?.sessionUpdate !== "user_message_chunk") {
      start--;
    }
    const rest = replay.slice(start).filter((update) => {
      const key = this.key(update);
      if (key === undefined) {
        // Usage, commands, titles: the session's state, remembered already; nothing to show again.
        return update.sessionUpdate === "plan";
      }
      return key.kind === "message" ? !this.messages.has(key.id) : !this.toolCalls.has(key.id);
    });
    for (const update of rest) {
      this.note(update);
    }
    return rest;
  }

  private key(update: acp.SessionUpdate): { kind: "message" | "tool"; id: string } | undefined {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
      case "agent_thought_chunk":
        return update.messageId ? { kind: "message", id: update.messageId } : undefined;
      case "tool_call":
      case "tool_call_update":
        return { kind: "tool", id: `${update.toolCallId}\u0000${update.status ?? ""}` };
      default:
        return undefined;
    }
  }
}
