// The updates that replay a kept conversation on `session/load`, and those that show messages
// recovered for a turn the editor already saw begin. Each tool call is shown once, with the id,
// kind, title and content it had live (updates.ts), so a reloaded session looks as it did.

import type { Message, ToolCallPart, ToolResultPart } from "../../types/messages.js";
import { partToBlock } from "./content.js";
import { textChunk, thoughtChunk } from "./text-chunk.js";
import { type AcpToolKind, toolContent, wireLocations } from "./tool-calls.js";
import { type AcpSessionUpdate, planUpdate, type ToolCallAnnouncement, type ToolCallChange, toolCallUpdate, type UpdateContext } from "./updates.js";

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
