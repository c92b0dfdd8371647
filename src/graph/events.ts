// What a run tells its watchers while it happens. Model output streams as deltas keyed by message
// id; tools report a start and an end keyed by tool call id, which maps one to one onto a
// protocol's tool call. Every event is plain JSON.

export type { ToolDisplay, ToolLocation } from "../types/tool-display.js";

import type { Message } from "../types/messages.js";
import type { ToolDisplay, ToolLocation } from "../types/tool-display.js";
import type { Interrupt } from "./interrupt.js";

/** Why a model stopped, as providers report it in common terms. */
export type FinishReason = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other";

/** Token counts for one model call. */
export interface Usage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  reasoningTokens?: number | undefined;
  /**
   * The tokens in the context after the call, when they are not its input and output: a call that
   * summarised the conversation reads much and leaves only the compacted conversation behind.
   */
  contextTokens?: number | undefined;
}

/** One entry of an agent's plan. */
export interface PlanEntry {
  content: string;
  priority: "high" | "medium" | "low";
  status: "pending" | "in_progress" | "completed";
}

/** How much a notice matters to the person. */
export type NoticeSeverity = "info" | "warning" | "error";

/** Where a compaction of the conversation is: started, done, failed or given up. */
export type CompactionStatus = "in_progress" | "completed" | "failed" | "cancelled";

/** Events a node may emit. */
export type NodeEvent =
  | { type: "message-start"; messageId: string }
  | { type: "text-delta"; messageId: string; delta: string }
  | { type: "reasoning-delta"; messageId: string; delta: string }
  | { type: "tool-call-start"; messageId: string; toolCallId: string; toolName: string }
  | { type: "tool-call-delta"; toolCallId: string; delta: string }
  | { type: "tool-call-end"; messageId: string; toolCallId: string; toolName: string; input: unknown }
  | { type: "message-end"; messageId: string; finishReason?: FinishReason | undefined; usage?: Usage | undefined }
  /** A finished message that became part of the conversation. */
  | { type: "message"; message: Message }
  | { type: "tool-start"; toolCallId: string; toolName: string; input: unknown; title?: string | undefined; locations?: ToolLocation[] | undefined }
  | { type: "tool-update"; toolCallId: string; display?: ToolDisplay[] | undefined; locations?: ToolLocation[] | undefined; title?: string | undefined }
  | {
      type: "tool-end";
      toolCallId: string;
      toolName: string;
      status: "success" | "error" | "rejected";
      output: unknown;
      display?: ToolDisplay[] | undefined;
      locations?: ToolLocation[] | undefined;
    }
  | { type: "plan"; entries: PlanEntry[] }
  /**
   * Something the person should know now, beside the reply (a server that did not start, a limit
   * close by). Live only: it is not part of the conversation and is not replayed.
   */
  | { type: "notice"; severity: NoticeSeverity; title: string; description?: string | undefined }
  /**
   * A compaction of the conversation (older messages replaced by a summary), by id: sent when it
   * starts and when it ends. `summary`, when given, is the whole summary so far.
   */
  | { type: "compaction"; compactionId: string; status: CompactionStatus; summary?: string | undefined; error?: string | undefined }
  /** More of a compaction's summary, as it is written. */
  | { type: "compaction-delta"; compactionId: string; delta: string }
  | { type: "custom"; name: string; data: unknown };

/** Events the runtime itself emits. */
export type RuntimeEvent =
  | { type: "run-start"; runId: string; threadId: string; mode: "run" | "resume" | "continue" }
  | { type: "node-start"; node: string; step: number }
  | { type: "node-end"; node: string; step: number }
  | { type: "interrupt"; interrupt: Interrupt }
  /** The state after a step is durable: a run carried on later starts from here. */
  | { type: "checkpoint"; step: number; seq: number; status: "running" | "interrupted" | "completed" }
  | { type: "run-end"; status: "completed" | "interrupted" | "cancelled" | "failed" };

export type RunEvent = NodeEvent | RuntimeEvent;
