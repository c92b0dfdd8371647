// Maps a run's events to ACP `session/update`s as they happen, and a kept conversation to the
// updates that replay it on `session/load`. Live and replayed tool calls use the same ids, kinds,
// titles and content, so a reloaded session looks as it did.

import type { SessionUpdate, ToolCall, ToolCallStatus, ToolCallUpdate } from "@agentclientprotocol/sdk";

import type { RunEvent } from "../../graph/events.js";
import type { Message, ToolCallPart, ToolResultPart } from "../../types/messages.js";
import { partToBlock } from "./content.js";
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

/** The updates that replay a kept conversation, each tool call once with its final status. */
export function replayUpdates(history: readonly Message[], context: UpdateContext, options: ReplayOptions = {}): AcpSessionUpdate[] {
  return [...eachReplayUpdate(history, context, options)];
}

export interface ReplayOptions {
  /**
   * Where the turn in progress starts in the history (its prompt), when the session has one: its
   * calls that have no result yet are shown in progress, since carrying the turn on may finish
   * them, rather than as calls that did not finish.
   */
  runningFrom?: number | undefined;
}

/**
 * The updates of `replayUpdates()`, one at a time as they are made, so a replay can write each
 * one out without holding them all.
 */
export function* eachReplayUpdate(history: readonly Message[], context: UpdateContext, options: ReplayOptions = {}): Generator<AcpSessionUpdate, void, undefined> {
  // Each result answers the earliest call before it with its id that has no result yet: models
  // reuse ids like `call_1` turn after turn, and each call shows its own result.
  const results = new Map<ToolCallPart, ToolResultPart>();
  const uncalled = new Set<ToolResultPart>();
  const waiting = new Map<string, ToolCallPart[]>();
  for (const message of history) {
    if (message.role === "assistant") {
      for (const part of message.parts) {
        if (part.type === "tool-call") {
          const calls = waiting.get(part.toolCallId);
          if (calls) {
            calls.push(part);
          } else {
            waiting.set(part.toolCallId, [part]);
          }
        }
      }
    } else if (message.role === "tool") {
      for (const part of message.parts) {
        const call = waiting.get(part.toolCallId)?.shift();
        if (call) {
          results.set(call, part);
        } else {
          uncalled.add(part);
        }
      }
    }
  }
  const runningFrom = options.runningFrom ?? history.length;
  for (const [index, message] of history.entries()) {
    switch (message.role) {
      case "user":
        for (const part of message.parts) {
          yield { sessionUpdate: "user_message_chunk", content: partToBlock(part), messageId: message.id };
        }
        break;
      case "assistant":
        for (const part of message.parts) {
          if (part.type === "text") {
            yield textChunk(part.text, message.id);
          } else if (part.type === "reasoning") {
            yield thoughtChunk(part.text, message.id);
          } else {
            const result = results.get(part);
            yield replayedCall(context, part, result, index >= runningFrom);
            if (result?.plan) {
              yield planUpdate(result.plan);
            }
          }
        }
        break;
      case "tool":
        for (const part of message.parts) {
          if (uncalled.has(part)) {
            yield replayedCall(context, { type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, input: null }, part);
            if (part.plan) {
              yield planUpdate(part.plan);
            }
          }
        }
        break;
      case "system":
        break;
    }
  }
}

/**
 * The updates that show messages recovered for a turn whose start the editor was already shown
 * (`shown`, as replayed or streamed): as a replay shows them, except that a result whose call was
 * shown before completes that call with a `tool_call_update` instead of appearing as a call of
 * its own. Those come first: their calls come before everything recovered.
 */
export function recoveredUpdates(shown: readonly Message[], recovered: readonly Message[], context: UpdateContext): AcpSessionUpdate[] {
  const open = new Set<string>();
  for (const message of shown) {
    for (const part of message.parts) {
      if (part.type === "tool-call" && context.ids.has(part.toolCallId)) {
        open.add(part.toolCallId);
      } else if (part.type === "tool-result") {
        open.delete(part.toolCallId);
      }
    }
  }
  const closing: AcpSessionUpdate[] = [];
  const rest: Message[] = [];
  for (const message of recovered) {
    if (message.role !== "tool") {
      rest.push(message);
      continue;
    }
    const own = message.parts.filter((part) => {
      if (!open.has(part.toolCallId)) {
        return true;
      }
      open.delete(part.toolCallId);
      closing.push(closedCall(context, part));
      if (part.plan) {
        closing.push(planUpdate(part.plan));
      }
      return false;
    });
    if (own.length > 0) {
      rest.push({ ...message, parts: own });
    }
  }
  return [...closing, ...replayUpdates(rest, context)];
}

/** The `plan` update that shows `entries`, the whole plan. */
function planUpdate(entries: NonNullable<ToolResultPart["plan"]>): AcpSessionUpdate {
  return { sessionUpdate: "plan", entries: entries.map((entry) => ({ content: entry.content, priority: entry.priority, status: entry.status })) };
}

/** The `tool_call_update` that ends a call already shown, with its result. */
function closedCall(context: UpdateContext, result: ToolResultPart): ToolCallChange {
  const update: ToolCallChange = {
    sessionUpdate: "tool_call_update",
    toolCallId: context.ids.of(result.toolCallId),
    status: result.isError ? "failed" : "completed",
    content: toolContent(result.display, result.output, context.contentLimit),
    rawOutput: result.output ?? null,
  };
  if (result.title !== undefined) {
    update.title = result.title;
  }
  if (result.kind !== undefined) {
    update.kind = result.kind as AcpToolKind;
  }
  if (result.locations?.length) {
    update.locations = wireLocations(result.locations);
  }
  return update;
}

/**
 * A kept call as its one `tool_call`. A result that kept how its call was last shown (its title,
 * kind and files) is shown so; an older one gets a title and files made from the input, as live.
 * A call with no result is one that did not finish, or, in the turn being carried on, one still
 * in progress.
 */
function replayedCall(context: UpdateContext, call: ToolCallPart, result: ToolResultPart | undefined, running = false): ToolCallAnnouncement {
  const status = result && !result.isError ? "completed" : "failed";
  const id = context.ids.allocate(call.toolCallId);
  if (result?.title !== undefined) {
    const update: ToolCallAnnouncement = {
      sessionUpdate: "tool_call",
      toolCallId: id,
      title: result.title,
      kind: (result.kind as AcpToolKind | undefined) ?? context.kind(call.toolName, call.input),
      status,
      rawInput: call.input ?? null,
      content: toolContent(result.display, result.output, context.contentLimit),
      rawOutput: result.output ?? null,
    };
    if (result.locations?.length) {
      update.locations = wireLocations(result.locations);
    }
    return update;
  }
  const update = toolCallUpdate(context, id, call.toolName, call.input, status);
  if (result) {
    update.content = toolContent(result.display, result.output, context.contentLimit);
    update.rawOutput = result.output ?? null;
    if (result.locations?.length) {
      update.locations = wireLocations(result.locations);
    }
  } else if (running) {
    update.status = "in_progress";
  } else {
    update.content = [{ type: "content", content: { type: "text", text: "This tool call did not finish." } }];
  }
  return update;
}
