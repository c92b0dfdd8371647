// Tools an agent can call: a name, a description the model reads, a zod schema for the input,
// and the function that does the work.

import type { z } from "zod";

import type { PlanEntry } from "../graph/events.js";
import type { RunConfig } from "../graph/run-outcome.js";
import type { JsonObject, JsonValue } from "../types/json.js";
import type { Principal } from "../types/principal.js";
import type { Store } from "../types/store.js";
import type { ToolDisplay, ToolLocation } from "../types/tool-display.js";
import type { ApprovalScope } from "./tool-approval.js";

/** What a tool's `execute` receives besides its input. */
export interface ToolContext {
  readonly toolCallId: string;
  readonly threadId: string;
  readonly runId: string;
  /** Who the run acts for. */
  readonly principal: Principal | undefined;
  /** The run's settings, such as an editor session's mode (see RunOptions.config). */
  readonly config: RunConfig;
  /** Fires when the run is cancelled; stop work and let it throw. */
  readonly signal: AbortSignal;
  /** The agent's long-term store. */
  readonly store: Store;
  /**
   * Asks the person a question and returns their answer. The first time, the run pauses here
   * and the tool runs again from its start once the question is answered, so ask before doing
   * anything irreversible. With a `schema` for the answer (an object with plain fields), an
   * editor that shows forms asks with one, and the answer is a FormAnswer (see InterruptOptions).
   */
  ask<T = unknown>(question: JsonValue, options?: { schema?: JsonObject | undefined }): T;
  /** Shows progress while the tool runs: a diff, a terminal, some text, the files it touches. */
  report(update: { display?: ToolDisplay[] | undefined; locations?: ToolLocation[] | undefined; title?: string | undefined }): void;
  /** Shows the person the agent's plan (a `plan` event; ACP's plan update): the whole list each time, in order. */
  plan(entries: readonly PlanEntry[]): void;
}

/** The result of a tool that also wants something shown: `output` goes to the model, `display` to the person. */
export interface ToolOutput {
  output: unknown;
  display?: ToolDisplay[] | undefined;
  locations?: ToolLocation[] | undefined;
  /** Marks the result as a failure without throwing. */
  isError?: boolean | undefined;
}

/**
 * How a call is shown to the person asked to approve it: what they are really approving, which
 * its input alone may hide (the change an edit makes, where a link leads, where a command runs).
 */
export interface ApprovalDescription {
  /** Replaces the call's title (by default the tool's `title`), such as "Write notes.txt → docs/notes.txt". */
  title?: string | undefined;
  /** Shown with the request: a note, a diff of what the call would change, the command it runs. */
  display?: ToolDisplay[] | undefined;
  /** The files the call would touch (by default the tool's `locations`). */
  locations?: ToolLocation[] | undefined;
}

/** What `describeApproval` receives besides the input. */
export interface ApprovalContext {
  readonly toolCallId: string;
  readonly threadId: string;
  readonly signal: AbortSignal;
}

export interface Tool<Input = unknown> {
  name: string;
  description: string;
  /** The input's schema; calls whose arguments do not match it get an error result without running. */
  input?: z.ZodType<Input> | undefined;
  /**
   * Or a JSON Schema, for tools described elsewhere (an MCP server's): it is shown to the model as is,
   * and the input is passed on unchecked for the tool's owner to check.
   */
  inputSchema?: Record<string, unknown> | undefined;
  /** Returns what the model sees (any JSON, or a ToolOutput). Throwing gives the model an error result. */
  execute(input: Input, context: ToolContext): unknown;
  /** True when a person must approve each call before it runs. `createAgent({ approvals })` can override it. */
  needsApproval?: boolean | undefined;
  /** A short title for the call, for editors. */
  title?(input: Input): string;
  /** The files the call touches (absolute paths), for editors. */
  locations?(input: Input): ToolLocation[];
  /**
   * Describes a call for its approval, looked at when the approval is asked (before the call runs
   * and before anything it does): say what the input does not, such as the diff an edit would make
   * or where a path that is a symlink really leads. Undefined keeps the usual title and locations.
   * A description that throws is left out.
   */
  describeApproval?(input: Input, context: ApprovalContext): ApprovalDescription | undefined | Promise<ApprovalDescription | undefined>;
  /**
   * What an "always" answer to this call covers, so a person can allow `npm test` without
   * allowing every command. Undefined (or throwing) means the call can have no such answer and is
   * asked about every time. A tool without it is answered "always" as a whole.
   */
  approvalScope?(input: Input, context: ApprovalContext): ApprovalScope | undefined | Promise<ApprovalScope | undefined>;
}

/** Declares a tool with its input type inferred from the schema. */
export function defineTool<Schema extends z.ZodType>(tool: Tool<z.infer<Schema>> & { input: Schema }): Tool<z.infer<Schema>> {
  return tool;
}

/** True when a tool result is a ToolOutput rather than bare output. */
export function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === "object" && value !== null && "output" in value && Object.keys(value).every((key) => ["output", "display", "locations", "isError"].includes(key));
}
