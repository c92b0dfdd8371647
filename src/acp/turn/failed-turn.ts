// What a turn that failed leaves in the conversation. The conversation must stay one that every
// provider takes, and one that does not fail the same way again: a prompt answered with an error
// is taken back (the editor may send it again) unless something the turn did is kept; a prompt
// that stays gets an assistant message saying how the turn ended, and its attachments are kept
// only as notes, because an attachment the model refused would be refused on every later turn.

import { createMessageId } from "../../graph/messages.js";
import type { AssistantMessage, Message, UserMessage, UserPart } from "../../types/messages.js";
import { formatBytes } from "../mapping/content.js";

/** HTTP statuses with which a provider says it cannot take what it was sent. */
const REFUSED_STATUSES = new Set([400, 413, 415, 422]);
/** AI SDK errors a provider raises before sending a prompt it cannot express. */
const REFUSED_NAMES = new Set(["AI_UnsupportedFunctionalityError", "AI_InvalidPromptError", "AI_InvalidDataContentError", "AI_InvalidMessageRoleError"]);

/**
 * True when a run's error says the model's provider refused its input (as opposed to being out of
 * reach, overloaded, or refusing the key): an HTTP 400, 413, 415 or 422, or a prompt the provider
 * could not express at all. Looks through the error's causes.
 */
export function inputRefused(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) {
    const status = (current as { statusCode?: unknown }).statusCode;
    if (typeof status === "number" && REFUSED_STATUSES.has(status)) {
      return true;
    }
    if (REFUSED_NAMES.has(current.name)) {
      return true;
    }
  }
  return false;
}

export interface FailedTurn {
  /** The run's error. */
  error: Error;
  /** What the person was told, as the agent's message, when they were (`failures: "message"`). */
  shown?: string | undefined;
}

/**
 * The conversation after a failed turn whose prompt is at `turnStart`. When the person was not
 * told as a message (the prompt got an error) and the turn kept nothing it did (no tool ran), the
 * prompt is taken back. Otherwise the prompt stays with its attachments as notes, then what the
 * turn did, then an assistant message saying how it ended (what the person was shown, when they
 * were). Empty assistant messages are left out.
 */
export function settleFailedTurn(history: readonly Message[], turnStart: number, failure: FailedTurn): Message[] {
  const prompt = history[turnStart];
  if (prompt?.role !== "user") {
    return history.slice();
  }
  const done = history.slice(turnStart + 1).filter((message) => message.role !== "assistant" || message.parts.length > 0);
  const kept = done.some((message) => message.role === "tool");
  if (failure.shown === undefined && !kept) {
    return history.slice(0, turnStart);
  }
  const note: AssistantMessage = {
    id: createMessageId("failure"),
    role: "assistant",
    parts: [{ type: "text", text: failure.shown ?? `[This turn ended with an error: ${failure.error.message}]` }],
    createdAt: new Date().toISOString(),
  };
  return [...history.slice(0, turnStart), withAttachmentNotes(prompt, failure.error), ...done, note];
}

/** The prompt with every attachment (image, audio, embedded file) replaced by a note saying what it was. */
export function withAttachmentNotes(prompt: UserMessage, error: Error): UserMessage {
  if (prompt.parts.every((part) => part.type === "text" || part.type === "link")) {
    return prompt;
  }
  const why = inputRefused(error) ? `the model could not take it: ${shorten(error.message)}` : "it was left out because the turn failed";
  // A new id: session stores write each message once and keep it by id, so a changed one is a new one.
  return { ...prompt, id: createMessageId("user"), parts: prompt.parts.map((part) => (part.type === "text" || part.type === "link" ? part : { type: "text", text: `[${describeAttachment(part)} was attached here; ${why}]` })) };
}

/** "an image (image/png, 12 KB)", "the file file:///notes.bin (application/octet-stream, 3 KB)". */
export function describeAttachment(part: Exclude<UserPart, { type: "text" | "link" }>): string {
  switch (part.type) {
    case "image":
      return `an image (${part.mediaType}, ${sizeOf(part.data)})`;
    case "audio":
      return `an audio clip (${part.mediaType}, ${sizeOf(part.data)})`;
    case "file":
      return `the file ${part.uri} (${part.mediaType ? `${part.mediaType}, ` : ""}${part.text !== undefined ? formatBytes(Buffer.byteLength(part.text)) : sizeOf(part.data ?? "")})`;
  }
}

/** The size of base64 bytes, or where a URL points. */
function sizeOf(data: string): string {
  return /^https?:/.test(data) ? `at ${data}` : formatBytes(Math.floor((data.length * 3) / 4));
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
