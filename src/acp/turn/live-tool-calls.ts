// How each tool call of a turn was last shown to the editor, folded from the updates sent about
// it, so the conversation keeps it with the call's result and a replay shows the call as it ended:
// its title, kind and files, and the plan it showed while it ran.

import type { PlanEntry, ToolCallLocation, ToolCallUpdate } from "@agentclientprotocol/sdk";

import type { Message, ToolResultPart } from "../../types/messages.js";
import type { ToolCallIds } from "../mapping/tool-calls.js";
import type { AcpSessionUpdate } from "../mapping/updates.js";

/** What a replay cannot make again from a call's name, input and result. */
interface LastShown {
  title: string | undefined;
  kind: string | undefined;
  locations: ToolCallLocation[] | undefined;
  /** The last plan sent while the call was in progress. */
  plan: PlanEntry[] | undefined;
}

export class LiveToolCalls {
  /** By session tool call id. */
  private readonly shown = new Map<string, LastShown>();
  /** Session tool call ids the editor was shown completed or failed. */
  private readonly ended = new Set<string>();
  /** Session tool call ids shown in progress and not yet ended, the latest last. */
  private running: string[] = [];

  /**
   * Notes an update sent to the editor: a tool call's, or a plan, which the call in progress (the
   * latest started, when several are) keeps for its result.
   */
  noteUpdate(update: AcpSessionUpdate): void {
    if (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") {
      this.noteToolCall(update);
    } else if (update.sessionUpdate === "plan") {
      const running = this.running.at(-1);
      const shown = running === undefined ? undefined : this.shown.get(running);
      if (shown) {
        shown.plan = update.entries.map((entry) => ({ content: entry.content, priority: entry.priority, status: entry.status }));
      }
    }
  }

  /** Notes what the editor was shown of a tool call: an update, or a permission request's call. */
  noteToolCall(toolCall: ToolCallUpdate): void {
    if (toolCall.status === "completed" || toolCall.status === "failed") {
      this.ended.add(toolCall.toolCallId);
      this.running = this.running.filter((id) => id !== toolCall.toolCallId);
    } else if (toolCall.status === "in_progress" && !this.running.includes(toolCall.toolCallId)) {
      this.running.push(toolCall.toolCallId);
    }
    let shown = this.shown.get(toolCall.toolCallId);
    if (!shown) {
      shown = { title: undefined, kind: undefined, locations: undefined, plan: undefined };
      this.shown.set(toolCall.toolCallId, shown);
    }
    if (toolCall.title !== undefined && toolCall.title !== null) {
      shown.title = toolCall.title;
    }
    if (toolCall.kind !== undefined && toolCall.kind !== null) {
      shown.kind = toolCall.kind;
    }
    if (toolCall.locations !== undefined && toolCall.locations !== null) {
      shown.locations = toolCall.locations;
    }
  }

  /** Whether the editor was shown this call (by its session id) completed or failed. */
  hasEnded(toolCallId: string): boolean {
    return this.ended.has(toolCallId);
  }

  /**
   * The messages with each tool result carrying how its call was last shown. Messages and parts
   * are copied where they change (a graph's messages are its state); calls noted are then forgotten.
   */
  dress(messages: Message[], ids: ToolCallIds): Message[] {
    if (this.shown.size === 0) {
      return messages;
    }
    return messages.map((message) => {
      if (message.role !== "tool" || !message.parts.some((part) => this.lastShown(part, ids))) {
        return message;
      }
      return { ...message, parts: message.parts.map((part) => this.dressed(part, ids)) };
    });
  }

  private lastShown(part: ToolResultPart, ids: ToolCallIds): LastShown | undefined {
    return ids.has(part.toolCallId) ? this.shown.get(ids.of(part.toolCallId)) : undefined;
  }

  private dressed(part: ToolResultPart, ids: ToolCallIds): ToolResultPart {
    const shown = this.lastShown(part, ids);
    if (!shown || (shown.title === undefined && shown.plan === undefined)) {
      return part;
    }
    this.shown.delete(ids.of(part.toolCallId));
    if (shown.title === undefined) {
      return { ...part, plan: shown.plan };
    }
    const { locations: _result, ...rest } = part;
    const dressed: ToolResultPart = { ...rest, title: shown.title };
    if (shown.plan !== undefined) {
      dressed.plan = shown.plan;
    }
    if (shown.kind !== undefined) {
      dressed.kind = shown.kind;
    }
    if (shown.locations?.length) {
      dressed.locations = shown.locations.map((location) => (typeof location.line === "number" ? { path: location.path, line: location.line } : { path: location.path }));
    }
    return dressed;
  }
}
