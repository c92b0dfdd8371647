// Turns what a LangGraph stream yields (with subgraphs and the modes messages, updates, custom and
// tools, each chunk is `[namespace, mode, payload]`) into weft's run events. Token chunks become
// text, reasoning and tool-call deltas keyed by the LangChain message id; a node's update finishes
// the messages it wrote (each announced once as a weft `message`, so the session keeps it); tool
// runs become tool start and end; custom payloads become a plan or a custom event.

import { type AIMessage, type BaseMessage, type BaseMessageLike, coerceMessageLikeToMessage, isBaseMessage, type ToolMessage } from "@langchain/core/messages";

import type { NodeEvent, PlanEntry, RunEvent } from "../graph/events.js";
import { createMessageId } from "../graph/messages.js";
import { parseJson } from "../store-core/parse-json.js";
import { finishReasonOf, fromLangChain, jsonCopy, plainContent, reasoningOf, textOf } from "./messages.js";

/** A LangGraph stream chunk with several modes and subgraphs on. */
export type LangGraphChunk = [namespace: string[], mode: string, payload: unknown];

interface ToolCallChunkLike {
  id?: string | undefined;
  name?: string | undefined;
  args?: string | undefined;
  index?: number | undefined;
}

/** What the run learnt that a later step needs (which calls were rejected, which are open). */
export class StreamMapper {
  /** Messages whose message-start was sent. */
  private readonly started = new Set<string>();
  private readonly ended = new Set<string>();
  /** Tool call ids by `messageId:index`, as chunks name a call's id only in its first piece. */
  private readonly callByIndex = new Map<string, string>();
  private readonly callsStarted = new Set<string>();
  /** Calls announced whole (tool-call-end) and not yet ended: what a completed run closes. */
  readonly open = new Map<string, string>();
  private readonly toolsEnded = new Set<string>();
  private steps = 0;

  constructor(
    private readonly emit: (event: RunEvent) => void,
    /** Ids of messages the conversation already has: not announced again. */
    private readonly known: Set<string>,
    /** Calls the person rejected: their results end as `rejected`. */
    private readonly rejected: ReadonlySet<string> = new Set(),
  ) {}

  /** Counts a call announced by an earlier run (one waiting on approval) as open. */
  expect(toolCallId: string, toolName: string): void {
    this.open.set(toolCallId, toolName);
    this.callsStarted.add(toolCallId);
  }

  /** Messages written into the thread outside the stream (results given to calls a breakpoint stopped): announced as a node's would be. */
  written(messages: readonly BaseMessage[]): void {
    for (const message of messages) {
      this.finish(message);
    }
  }

  take(chunk: unknown): void {
    if (!Array.isArray(chunk) || chunk.length !== 3) {
      return;
    }
    const [namespace, mode, payload] = chunk as LangGraphChunk;
    switch (mode) {
      case "messages":
        this.onMessageChunk(payload);
        break;
      case "updates":
        this.onUpdates(payload, namespace.length === 0);
        break;
      case "tools":
        this.onTool(payload);
        break;
      case "custom":
        this.onCustom(payload);
        break;
      default:
        break;
    }
  }

  /** Ends the calls still open as not run: they were dropped (a sibling was rejected) or never reached. */
  closeOpen(): void {
    for (const [toolCallId, toolName] of this.open) {
      const status = this.rejected.size > 0 ? "rejected" : "error";
      this.emit({ type: "tool-end", toolCallId, toolName, status, output: "This tool call did not run." });
    }
    this.open.clear();
  }

  private onMessageChunk(payload: unknown): void {
    const [message] = payload as [BaseMessage, unknown];
    if (message?.type !== "ai") {
      return;
    }
    const id = message.id;
    if (id === undefined || this.known.has(id) || this.ended.has(id)) {
      return;
    }
    const whole = !Array.isArray((message as { tool_call_chunks?: unknown }).tool_call_chunks);
    if (whole && this.started.has(id)) {
      // A node's output echoed after its tokens streamed.
      return;
    }
    this.start(id);
    const reasoning = reasoningOf(message);
    if (reasoning) {
      this.emit({ type: "reasoning-delta", messageId: id, delta: reasoning });
    }
    const text = textOf(message.content);
    if (text) {
      this.emit({ type: "text-delta", messageId: id, delta: text });
    }
    const ai = message as AIMessage & { tool_call_chunks?: ToolCallChunkLike[] };
    if (whole) {
      for (const call of ai.tool_calls ?? []) {
        this.startCall(id, call.id ?? "", call.name);
      }
      return;
    }
    for (const piece of ai.tool_call_chunks ?? []) {
      const key = `${id}:${piece.index ?? piece.id ?? 0}`;
      let toolCallId = this.callByIndex.get(key);
      if (toolCallId === undefined && piece.id) {
        toolCallId = piece.id;
        this.callByIndex.set(key, toolCallId);
        this.startCall(id, toolCallId, piece.name ?? "");
      }
      if (toolCallId !== undefined && piece.args) {
        this.emit({ type: "tool-call-delta", toolCallId, delta: piece.args });
      }
    }
  }

  private start(id: string): void {
    if (!this.started.has(id)) {
      this.started.add(id);
      this.emit({ type: "message-start", messageId: id });
    }
  }

  private startCall(messageId: string, toolCallId: string, toolName: string): void {
    if (!this.callsStarted.has(toolCallId)) {
      this.callsStarted.add(toolCallId);
      this.emit({ type: "tool-call-start", messageId, toolCallId, toolName });
    }
  }

  private onUpdates(payload: unknown, root: boolean): void {
    if (typeof payload !== "object" || payload === null) {
      return;
    }
    let wrote = false;
    for (const [node, update] of Object.entries(payload)) {
      if (node === "__interrupt__") {
        continue;
      }
      for (const message of messagesOf(update)) {
        wrote = true;
        this.finish(message);
      }
    }
    if (root && wrote) {
      this.steps++;
      this.emit({ type: "checkpoint", step: this.steps, seq: this.steps, status: "running" });
    }
  }

  /** A message a node wrote: its calls and its end announced, its result given, and it kept. */
  private finish(message: BaseMessage): void {
    // A message written without an id gets one here; the thread's reducer gives it another, so
    // graphs should name their messages (a model's replies always are).
    const id = message.id ?? createMessageId("langgraph");
    if (this.known.has(id)) {
      return;
    }
    if (message.type === "ai") {
      const ai = message as AIMessage;
      if (!this.started.has(id)) {
        // Written without streaming: told whole.
        this.start(id);
        const text = textOf(ai.content);
        if (text) {
          this.emit({ type: "text-delta", messageId: id, delta: text });
        }
      }
      for (const call of ai.tool_calls ?? []) {
        const toolCallId = call.id ?? "";
        this.startCall(id, toolCallId, call.name);
        this.open.set(toolCallId, call.name);
        this.emit({ type: "tool-call-end", messageId: id, toolCallId, toolName: call.name, input: jsonCopy(call.args) });
      }
      this.ended.add(id);
      const end: Extract<NodeEvent, { type: "message-end" }> = { type: "message-end", messageId: id };
      const finishReason = finishReasonOf(ai);
      if (finishReason) {
        end.finishReason = finishReason;
      }
      const usage = (ai as unknown as { usage_metadata?: { input_tokens?: number; output_tokens?: number } }).usage_metadata;
      if (usage) {
        end.usage = { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
      }
      this.emit(end);
    } else if (message.type === "tool") {
      // A result the tools stream did not end: one no tool run made (a rejection's), say.
      const tool = message as ToolMessage;
      this.endTool(tool.tool_call_id, tool.name ?? "", tool.status === "error" ? "error" : "success", plainContent(tool.content));
    }
    const weft = fromLangChain(message, id);
    if (weft) {
      this.known.add(id);
      this.emit({ type: "message", message: weft });
    }
  }

  private endTool(toolCallId: string, toolName: string, status: "success" | "error", output: unknown): void {
    if (this.toolsEnded.has(toolCallId)) {
      return;
    }
    this.toolsEnded.add(toolCallId);
    this.open.delete(toolCallId);
    this.emit({ type: "tool-end", toolCallId, toolName, status: this.rejected.has(toolCallId) ? "rejected" : status, output });
  }

  private onTool(payload: unknown): void {
    const event = payload as { event?: string; toolCallId?: string; name?: string; input?: unknown; output?: unknown; error?: unknown };
    const toolCallId = event.toolCallId;
    if (typeof toolCallId !== "string") {
      return;
    }
    const toolName = event.name ?? "";
    switch (event.event) {
      case "on_tool_start":
        this.emit({ type: "tool-start", toolCallId, toolName, input: parsedInput(event.input) });
        break;
      case "on_tool_end": {
        const output = event.output as Partial<ToolMessage> | undefined;
        const isMessage = typeof output === "object" && output !== null && "tool_call_id" in output;
        this.endTool(toolCallId, toolName, isMessage && output.status === "error" ? "error" : "success", isMessage ? plainContent(output.content) : jsonCopy(output));
        break;
      }
      case "on_tool_error": {
        const error = event.error;
        this.endTool(toolCallId, toolName, "error", error instanceof Error ? error.message : jsonCopy(error));
        break;
      }
      default:
        break;
    }
  }

  private onCustom(payload: unknown): void {
    const value = payload as { type?: unknown; entries?: unknown };
    if (value && typeof value === "object" && value.type === "plan" && Array.isArray(value.entries)) {
      this.emit({ type: "plan", entries: value.entries as PlanEntry[] });
      return;
    }
    const name = value && typeof value === "object" && typeof value.type === "string" ? value.type : "custom";
    this.emit({ type: "custom", name, data: jsonCopy(payload) });
  }
}

/** The messages a node's update writes: its `messages` key, one or a list, plain `{ role, content }` objects made messages. */
function messagesOf(update: unknown): BaseMessage[] {
  const messages = (update as { messages?: unknown } | null | undefined)?.messages;
  const list: unknown[] = Array.isArray(messages) ? messages : messages === undefined ? [] : [messages];
  return list.flatMap((item) => {
    if (isBaseMessage(item)) {
      return [item];
    }
    if (typeof item === "object" && item !== null && "content" in item && ("role" in item || "type" in item)) {
      try {
        return [coerceMessageLikeToMessage(item as BaseMessageLike)];
      } catch {
        return [];
      }
    }
    return [];
  });
}

/** A tool's input as the tools stream gives it (JSON text), parsed. */
function parsedInput(input: unknown): unknown {
  if (typeof input !== "string") {
    return jsonCopy(input);
  }
  return parseJson(input, input);
}
