// Builds the conversation a session keeps from a run's events. Graphs from createAgent() announce
// each finished message (`message` events), which are kept as they are; for other graphs the
// messages are assembled from the text, reasoning and tool events, so any graph's turns replay.
// A run's final state can also be read for the messages of a turn, when its events were missed.

import { createMessageId } from "../../graph/messages.js";
import type { RunEvent } from "../../graph/events.js";
import type { AssistantPart, Message, ToolResultPart } from "../../types/messages.js";

type Entry =
  | { kind: "final"; message: Message }
  | { kind: "assistant"; id: string; parts: AssistantPart[] }
  | { kind: "tool"; id: string; parts: ToolResultPart[] };

export class Transcript {
  private entries: Entry[] = [];

  /** Notes an event of the run. */
  observe(event: RunEvent): void {
    switch (event.type) {
      case "text-delta":
      case "reasoning-delta": {
        const type = event.type === "text-delta" ? "text" : "reasoning";
        const draft = this.assistant(event.messageId);
        const last = draft.parts.at(-1);
        if (last && last.type === type) {
          last.text += event.delta;
        } else {
          draft.parts.push({ type, text: event.delta });
        }
        break;
      }
      case "tool-call-end":
        this.assistant(event.messageId).parts.push({ type: "tool-call", toolCallId: event.toolCallId, toolName: event.toolName, input: event.input });
        break;
      case "tool-end": {
        const part: ToolResultPart = { type: "tool-result", toolCallId: event.toolCallId, toolName: event.toolName, output: event.output };
        if (event.status !== "success") {
          part.isError = true;
        }
        if (event.display?.length) {
          part.display = event.display;
        }
        if (event.locations?.length) {
          part.locations = event.locations;
        }
        this.toolDraft().parts.push(part);
        break;
      }
      case "message":
        this.finalize(event.message);
        break;
      default:
        break;
    }
  }

  /**
   * Removes and returns the finished messages, oldest first. Drafts (messages assembled from
   * events) count as finished only when `withDrafts`; the first draft left stops the taking, so the
   * order is kept.
   */
  take(withDrafts: boolean): Message[] {
    const taken: Message[] = [];
    while (this.entries.length > 0) {
      const entry = this.entries[0] as Entry;
      if (entry.kind === "final") {
        taken.push(entry.message);
      } else if (withDrafts) {
        if (entry.parts.length > 0) {
          taken.push(
            entry.kind === "assistant"
              ? { id: entry.id, role: "assistant", parts: entry.parts, createdAt: new Date().toISOString() }
              : { id: entry.id, role: "tool", parts: entry.parts, createdAt: new Date().toISOString() },
          );
        }
      } else {
        break;
      }
      this.entries.shift();
    }
    return taken;
  }

  private assistant(id: string): Extract<Entry, { kind: "assistant" }> {
    const found = this.entries.find((entry) => entry.kind === "assistant" && entry.id === id);
    if (found?.kind === "assistant") {
      return found;
    }
    const draft: Entry = { kind: "assistant", id, parts: [] };
    this.entries.push(draft);
    return draft;
  }

  private toolDraft(): Extract<Entry, { kind: "tool" }> {
    const last = this.entries.at(-1);
    if (last?.kind === "tool") {
      return last;
    }
    const draft: Entry = { kind: "tool", id: createMessageId("tool"), parts: [] };
    this.entries.push(draft);
    return draft;
  }

  private finalize(message: Message): void {
    if (message.role === "tool") {
      const ids = new Set(message.parts.map((part) => part.toolCallId));
      let position = -1;
      for (let index = 0; index < this.entries.length; index++) {
        const entry = this.entries[index] as Entry;
        if (entry.kind === "tool" && entry.parts.some((part) => ids.has(part.toolCallId))) {
          entry.parts = entry.parts.filter((part) => !ids.has(part.toolCallId));
          if (position === -1) {
            position = index;
          }
        }
      }
      if (position >= 0) {
        this.entries.splice(position, 0, { kind: "final", message });
        this.entries = this.entries.filter((entry) => entry.kind !== "tool" || entry.parts.length > 0);
        return;
      }
    }
    const index = this.entries.findIndex((entry) => entry.kind === "assistant" && entry.id === message.id);
    if (index >= 0) {
      this.entries[index] = { kind: "final", message };
    } else {
      this.entries.push({ kind: "final", message });
    }
  }
}

/**
 * The messages a run's state has after the prompt with id `promptId`, oldest first; undefined when
 * the state keeps no conversation with that prompt in it (a graph of another shape).
 */
export function turnMessagesOf(state: unknown, promptId: string): Message[] | undefined {
  const messages = (state as { messages?: unknown } | null | undefined)?.messages;
  if (!Array.isArray(messages)) {
    return undefined;
  }
  const found = messages.filter(isMessage);
  const position = found.findIndex((message) => message.id === promptId);
  return position < 0 ? undefined : found.slice(position + 1);
}

function isMessage(value: unknown): value is Message {
  const message = value as Partial<Message> | null;
  return (
    typeof message === "object" &&
    message !== null &&
    typeof message.id === "string" &&
    Array.isArray(message.parts) &&
    (message.role === "user" || message.role === "assistant" || message.role === "tool" || message.role === "system")
  );
}
