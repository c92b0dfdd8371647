// The conversation as plain data: what an agent reads and writes, what a session keeps, and what
// the model adapter turns into a provider prompt. Every part is JSON, so any store can keep it.

import type { ToolDisplay, ToolLocation } from "./tool-display.js";

/** Plain text. */
export interface TextPart {
  type: "text";
  text: string;
}

/** The model's reasoning, shown to the person as thoughts and sent back to providers that need it. */
export interface ReasoningPart {
  type: "reasoning";
  text: string;
  /** Provider data that must travel back with the reasoning, such as a signature. */
  providerMetadata?: Record<string, Record<string, unknown>> | undefined;
}

/** An image, as base64 bytes or a URL. */
export interface ImagePart {
  type: "image";
  /** Base64 bytes, or an `http(s):` or `data:` URL. */
  data: string;
  mediaType: string;
}

/** Audio, as base64 bytes. */
export interface AudioPart {
  type: "audio";
  data: string;
  mediaType: string;
}

/** A file whose contents came with the message, such as one the editor embedded. */
export interface FilePart {
  type: "file";
  uri: string;
  mediaType?: string | undefined;
  /** The contents, when they are text. */
  text?: string | undefined;
  /** The contents as base64, when they are not text. */
  data?: string | undefined;
}

/** A reference to a file or page by URI, without its contents. */
export interface LinkPart {
  type: "link";
  uri: string;
  name: string;
  title?: string | undefined;
  mediaType?: string | undefined;
}

/** The model asking for a tool to run. */
export interface ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  /** The parsed arguments. */
  input: unknown;
  providerMetadata?: Record<string, Record<string, unknown>> | undefined;
}

/** What a tool call produced. Every tool call in a conversation gets exactly one. */
export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: unknown;
  /** True when the tool failed, was refused, or was declined by the person. */
  isError?: boolean | undefined;
  /** What the call showed the person (a diff, a terminal), so a replay can show it again. */
  display?: ToolDisplay[] | undefined;
  /**
   * The files the call touches. Once `title` is kept, these are the files the call was last shown
   * with (none when absent), not only those its result named.
   */
  locations?: ToolLocation[] | undefined;
  /**
   * The title the call was last shown with (a tool's own, or one it gave while running), so a
   * replay shows it as it ended. Absent in conversations kept before it was: a replay then makes
   * the title from the tool's name and input, and the files from its input and result.
   */
  title?: string | undefined;
  /** What kind of call the editor showed it as (`read`, `edit`, `execute`, …), kept with `title`. */
  kind?: string | undefined;
  /**
   * The plan the call showed the person last, while it ran (a plan tool's entries), so a replay
   * shows the plan again where the call ended.
   */
  plan?: Array<{ content: string; priority: "high" | "medium" | "low"; status: "pending" | "in_progress" | "completed" }> | undefined;
  /**
   * The input the call ran with, when the person edited it before approving (the call's own input
   * is what the model asked for). The model is told with the result.
   */
  editedInput?: unknown;
}

/** The parts a person can send. */
export type UserPart = TextPart | ImagePart | AudioPart | FilePart | LinkPart;

/** The parts a model can produce. */
export type AssistantPart = TextPart | ReasoningPart | ToolCallPart;

export type MessagePart = UserPart | ReasoningPart | ToolCallPart | ToolResultPart;

interface MessageBase {
  /** Unique within a conversation; a reducer uses it to tell new messages from known ones. */
  id: string;
  /** ISO-8601 time it was made. */
  createdAt?: string | undefined;
}

export interface SystemMessage extends MessageBase {
  role: "system";
  parts: TextPart[];
}

export interface UserMessage extends MessageBase {
  role: "user";
  parts: UserPart[];
}

export interface AssistantMessage extends MessageBase {
  role: "assistant";
  parts: AssistantPart[];
  /** Why the model stopped, when it did: the provider's unified finish reason. */
  finishReason?: string | undefined;
}

export interface ToolMessage extends MessageBase {
  role: "tool";
  parts: ToolResultPart[];
}

/** One message of a conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
