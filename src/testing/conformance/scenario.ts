// What a conformance scenario is and what it is given: agents to start (each one initialized, and
// stopped after the scenario), the model, a project directory of its own, and a token to put in
// its prompts. A scenario ends by returning (passed) or by throwing a Verdict (failed or skipped).

import { isAbsolute } from "node:path";

import type * as acp from "@agentclientprotocol/sdk";

import type { AgentRun, WireLine } from "./agent-run.js";
import type { ConformanceModel, OfferedTool } from "./conformance-model.js";

export interface ScenarioContext {
  readonly model: ConformanceModel;
  /** A directory of this scenario's own, for session/new. */
  readonly project: string;
  /** Put in every prompt, so the model answers with this scenario's plan. */
  readonly token: string;
  /** How long any one wait may take. */
  readonly waitMs: number;
  /** Starts the agent and initializes it (protocol version 1, no client capabilities). */
  start(): Promise<{ run: AgentRun; init: acp.InitializeResponse }>;
  /** Starts the agent, initializes it, and opens a session in the scenario's project. */
  startSession(): Promise<{ run: AgentRun; init: acp.InitializeResponse; sessionId: string }>;
  /** Starts the agent without initializing it. */
  spawn(): AgentRun;
  /** Every line every agent of this check has written so far, with its run. */
  readonly agentLines: ReadonlyArray<{ line: WireLine; run: AgentRun }>;
}

/**
 * Which part of ACP a scenario checks: `core`, what every v1 agent must do; `session`, the
 * late-2026 session surface (config options, commands, usage, titles, forms, notices, listing,
 * closing), each gated on the capability that makes it apply; `product`, what good agents do that
 * ACP does not require (carrying on a cut turn, say), whose failures are notes, not faults.
 */
export type Tier = "core" | "session" | "product";

export const TIERS: readonly Tier[] = ["core", "session", "product"];

export interface Scenario {
  id: string;
  tier: Tier;
  run(context: ScenarioContext): Promise<void>;
}

/** How a scenario ended, when it did not pass. */
export class Verdict extends Error {
  constructor(
    readonly status: "failed" | "skipped",
    message: string,
    readonly line?: WireLine | undefined,
  ) {
    super(message);
  }
}

export function fail(problem: string, line?: WireLine): never {
  throw new Verdict("failed", problem, line);
}

export function skip(reason: string): never {
  throw new Verdict("skipped", reason);
}

/** Updates about a session rather than one of its turns: an agent may send them at any time. */
export const SESSION_LEVEL_UPDATES = new Set(["config_option_update", "current_mode_update", "available_commands_update", "session_info_update", "usage_update", "notice"]);

export const STOP_REASONS = new Set(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]);

/** A tool the kit can make the model call, with the arguments to call it with. */
export interface ToolChoice {
  name: string;
  arguments: Record<string, string>;
}

interface ToolParameters {
  properties?: Record<string, { type?: unknown }>;
  required?: string[];
}

/**
 * Arguments for `tool`: a path-like string parameter gets `path`, content-like ones `content`,
 * an edit's old and new text `old` and `content`. Undefined when it has no path parameter, or a
 * required parameter the kit cannot fill.
 */
function argumentsFor(tool: OfferedTool, path: string, content: string, old: string): Record<string, string> | undefined {
  const parameters = (tool.parameters ?? {}) as ToolParameters;
  const properties = parameters.properties ?? {};
  const required = new Set(parameters.required ?? Object.keys(properties));
  const values: Record<string, string> = {};
  for (const [name, property] of Object.entries(properties)) {
    const isString = property.type === "string" || (Array.isArray(property.type) && property.type.includes("string"));
    let value: string | undefined;
    if (isString && /path|file/i.test(name)) {
      value = path;
    } else if (isString && /old|search|find/i.test(name)) {
      value = old;
    } else if (isString && /content|text|new|data|body/i.test(name)) {
      value = content;
    }
    if (value !== undefined) {
      values[name] = value;
    } else if (required.has(name)) {
      return undefined;
    }
  }
  return Object.values(values).includes(path) ? values : undefined;
}

/** The read tool the model is to call on `path`: a tool named like read with a path parameter. */
export function readTool(tools: readonly OfferedTool[], path: string): ToolChoice | undefined {
  for (const tool of tools.filter((tool) => /read/i.test(tool.name))) {
    const args = argumentsFor(tool, path, "", "");
    if (args) {
      return { name: tool.name, arguments: args };
    }
  }
  return undefined;
}

/**
 * The tool the model is to change `path` with: a write or create tool if there is one (it writes
 * `content`), else an edit tool (it replaces `old`, the file's text before, with `content`).
 */
export function writeTool(tools: readonly OfferedTool[], path: string, content: string, old: string): ToolChoice | undefined {
  const ranked = [...tools.filter((tool) => /write|create/i.test(tool.name)), ...tools.filter((tool) => /edit/i.test(tool.name) && !/write|create/i.test(tool.name))];
  for (const tool of ranked) {
    const args = argumentsFor(tool, path, content, old);
    if (args) {
      return { name: tool.name, arguments: args };
    }
  }
  return undefined;
}

/** The names of the tools offered, for a skip reason. */
export function toolNames(tools: readonly OfferedTool[]): string {
  return tools.length === 0 ? "no tools at all" : tools.map((tool) => tool.name).join(", ");
}

/**
 * A tool call as an editor keeps it: its announcement with each later change folded in (a field an
 * update leaves out keeps its value), and the line of its last change.
 */
export interface FoldedToolCall {
  id: string;
  status: string | undefined;
  title?: unknown;
  kind?: unknown;
  locations?: unknown;
  content?: unknown;
  line: WireLine;
}

/** The fields of a tool call an update may change, besides its status. */
const FOLDED_FIELDS = ["title", "kind", "locations", "content"] as const;

/** The tool calls among `updates`, in order of announcement, folded. */
export function foldToolCalls(updates: ReadonlyArray<{ line: WireLine; update: Record<string, unknown> }>): FoldedToolCall[] {
  const calls = new Map<string, FoldedToolCall>();
  for (const { line, update } of updates) {
    if (update.sessionUpdate !== "tool_call" && update.sessionUpdate !== "tool_call_update") {
      continue;
    }
    const id = String(update.toolCallId);
    const call = calls.get(id) ?? { id, status: undefined, line };
    if (update.sessionUpdate === "tool_call") {
      call.status = typeof update.status === "string" ? update.status : "pending";
    } else if (typeof update.status === "string") {
      call.status = update.status;
    }
    for (const field of FOLDED_FIELDS) {
      if (update[field] !== undefined && update[field] !== null) {
        call[field] = update[field];
      }
    }
    call.line = line;
    calls.set(id, call);
  }
  return [...calls.values()];
}

/** The paths a tool call (an update, or a permission request's toolCall) names in its locations and diffs that are not absolute. */
function relativePaths(toolCall: Record<string, unknown>): string[] {
  const paths: unknown[] = [];
  for (const location of Array.isArray(toolCall.locations) ? (toolCall.locations as Array<{ path?: unknown }>) : []) {
    paths.push(location?.path);
  }
  for (const content of Array.isArray(toolCall.content) ? (toolCall.content as Array<{ type?: unknown; path?: unknown }>) : []) {
    if (content?.type === "diff") {
      paths.push(content.path);
    }
  }
  return paths.filter((path) => typeof path !== "string" || !isAbsolute(path)).map(String);
}

/**
 * ACP's rule that every path in a tool call is absolute, held over `lines` (the agent's, in wire
 * order): each tool_call and tool_call_update, and each permission request's toolCall. The kit
 * applies it after every scenario to the lines of that scenario. The first line that breaks it,
 * with the problem, or undefined.
 */
export function relativePathProblem(lines: readonly WireLine[]): { problem: string; line: WireLine } | undefined {
  for (const line of lines) {
    const params = line.from === "agent" && typeof line.message?.params === "object" && line.message.params !== null ? (line.message.params as Record<string, unknown>) : undefined;
    const update = line.message?.method === "session/update" ? (params?.update as Record<string, unknown> | undefined) : undefined;
    const toolCall = update?.sessionUpdate === "tool_call" || update?.sessionUpdate === "tool_call_update" ? update : line.message?.method === "session/request_permission" ? (params?.toolCall as Record<string, unknown> | undefined) : undefined;
    if (typeof toolCall !== "object" || toolCall === null) {
      continue;
    }
    const relative = relativePaths(toolCall);
    if (relative.length > 0) {
      const where = update ? `tool call ${String(toolCall.toolCallId)}` : `the permission request for tool call ${String(toolCall.toolCallId)}`;
      return { problem: `${where} names ${relative.map((path) => JSON.stringify(path)).join(", ")}: paths in a tool call's locations and diffs must be absolute`, line };
    }
  }
  return undefined;
}

/** The error of a JSON-RPC answer, if it is one. */
export function errorOf(line: WireLine): { code?: unknown; message?: unknown } | undefined {
  const error = line.message?.error;
  return typeof error === "object" && error !== null ? (error as { code?: unknown; message?: unknown }) : undefined;
}
