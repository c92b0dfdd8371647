// Maps a run's events to ACP `session/update`s as they happen, and holds the words live and
// replayed updates share (replay-updates.ts replays a kept conversation): tool calls use the same
// ids, kinds, titles and content both ways, so a reloaded session looks as it did.

import type { SessionUpdate, ToolCall, ToolCallStatus, ToolCallUpdate } from "@agentclientprotocol/sdk";

import type { RunEvent } from "../../graph/events.js";
import type { ToolResultPart } from "../../types/messages.js";
import { besideUpdates, type ShownBeside } from "./notices.js";
import { textChunk, thoughtChunk } from "./text-chunk.js";
import { type AcpToolKind, toolContent, type ToolCallIds, toolLocations, toolTitle, wireLocations } from "./tool-calls.js";

/** What the agent tells the editor during a turn: ACP's `session/update`, as the SDK defines it. */
export type AcpSessionUpdate = SessionUpdate;

/** A `tool_call` update: a tool call announced. */
export type ToolCallAnnouncement = ToolCall & { sessionUpdate: "tool_call" };

/** A `tool_call_update` update: what changed about a tool call. */
export type ToolCallChange = ToolCallUpdate & { sessionUpdate: "tool_call_update" };

export interface UpdateContext {
  cwd: string;
  ids: ToolCallIds;
  kind: (name: string, args: unknown) => AcpToolKind;
  contentLimit: number;
  /** Whether the editor shows notices and compactions; neither when absent (see notices.ts). */
  shows?: (() => ShownBeside) | undefined;
}

/** Announces a tool call: what the editor needs to show it before it runs. */
export function toolCallUpdate(context: UpdateContext, id: string, toolName: string, input: unknown, status: ToolCallStatus): ToolCallAnnouncement {
  const update: ToolCallAnnouncement = {
    sessionUpdate: "tool_call",
    toolCallId: id,
    title: toolTitle(toolName, input),
    kind: context.kind(toolName, input),
    status,
    rawInput: input ?? null,
  };
  const locations = toolLocations(input, context.cwd);
  if (locations.length > 0) {
    update.locations = locations;
  }
  return update;
}

/** The updates one event makes (often none). */
export function eventUpdates(event: RunEvent, context: UpdateContext): AcpSessionUpdate[] {
  switch (event.type) {
    case "text-delta":
      return [textChunk(event.delta, event.messageId)];
    case "reasoning-delta":
      return [thoughtChunk(event.delta, event.messageId)];
    case "tool-call-end": {
      const id = context.ids.allocate(event.toolCallId);
      return [toolCallUpdate(context, id, event.toolName, event.input, "pending")];
    }
    case "tool-start": {
      if (!context.ids.has(event.toolCallId)) {
        const update = toolCallUpdate(context, context.ids.allocate(event.toolCallId), event.toolName, event.input, "in_progress");
        if (event.title) {
          update.title = event.title;
        }
        return [update];
      }
      const update: ToolCallChange = { sessionUpdate: "tool_call_update", toolCallId: context.ids.of(event.toolCallId), status: "in_progress" };
      if (event.title) {
        update.title = event.title;
      }
      if (event.locations?.length) {
        update.locations = wireLocations(event.locations);
      }
      return [update];
    }
    case "tool-update": {
      const update: ToolCallChange = { sessionUpdate: "tool_call_update", toolCallId: context.ids.of(event.toolCallId) };
      if (event.display) {
        update.content = toolContent(event.display, undefined, context.contentLimit);
      }
      if (event.locations) {
        update.locations = wireLocations(event.locations);
      }
      if (event.title) {
        update.title = event.title;
      }
      return [update];
    }
    case "tool-end": {
      const updates: AcpSessionUpdate[] = [];
      if (!context.ids.has(event.toolCallId)) {
        updates.push(toolCallUpdate(context, context.ids.allocate(event.toolCallId), event.toolName, undefined, "in_progress"));
      }
      const update: ToolCallChange = {
        sessionUpdate: "tool_call_update",
        toolCallId: context.ids.of(event.toolCallId),
        status: event.status === "success" ? "completed" : "failed",
        content: toolContent(event.display, event.output, context.contentLimit),
        rawOutput: event.output ?? null,
      };
      if (event.locations?.length) {
        update.locations = wireLocations(event.locations);
      }
      updates.push(update);
      return updates;
    }
    case "plan":
      return [planUpdate(event.entries)];
    case "notice":
    case "compaction":
    case "compaction-delta":
      return besideUpdates(event, context.shows?.() ?? { notices: false, compaction: false });
    default:
      return [];
  }
}

/** The `plan` update that shows `entries`, the whole plan. */
export function planUpdate(entries: NonNullable<ToolResultPart["plan"]>): AcpSessionUpdate {
  return { sessionUpdate: "plan", entries: entries.map((entry) => ({ content: entry.content, priority: entry.priority, status: entry.status })) };
}
