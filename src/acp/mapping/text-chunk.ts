// The one place a text chunk of a turn is built: the agent's words and its thoughts, each with the
// id of the message they belong to when there is one.

import type { SessionUpdate } from "@agentclientprotocol/sdk";

type TextChunk = Extract<SessionUpdate, { sessionUpdate: "agent_message_chunk" | "agent_thought_chunk" }>;

/** The agent's words as an `agent_message_chunk`. */
export function textChunk(text: string, messageId?: string): TextChunk {
  return chunk("agent_message_chunk", text, messageId);
}

/** The agent's thinking as an `agent_thought_chunk`. */
export function thoughtChunk(text: string, messageId?: string): TextChunk {
  return chunk("agent_thought_chunk", text, messageId);
}

function chunk(sessionUpdate: TextChunk["sessionUpdate"], text: string, messageId: string | undefined): TextChunk {
  const update: TextChunk = { sessionUpdate, content: { type: "text", text } };
  if (messageId !== undefined) {
    update.messageId = messageId;
  }
  return update;
}
