// The model call that writes a compaction's summary: the older messages as a transcript (with the
// summary before them, when there is one), in passes that each fit the prompt limit, each pass
// folding the last one's summary into the next. The last pass streams as compaction-delta events.

import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";

import type { NodeEvent, Usage } from "../graph/events.js";
import type { Message } from "../types/messages.js";
import { estimateTokens } from "./context-window.js";
import { EMPTY_REPLY_NOTE, streamModel } from "./stream-model.js";

/** What the summariser is told, unless AgentContextOptions.summaryInstructions says otherwise. */
export const DEFAULT_SUMMARY_INSTRUCTIONS = [
  "You condense the earlier part of a conversation between a person and an AI assistant that uses tools, so the assistant can carry on without it.",
  "Write a summary the assistant will read in place of those messages. Keep what it needs to go on: what the person asked for and why, decisions made and constraints given,",
  "what was done (files read or changed, commands run, with paths and names exactly as written), what was found, errors met and how they were dealt with, and what is still to do.",
  "Keep what a previous summary says unless later messages overrule it. Be concise and concrete; use short sections or lists. Write only the summary.",
].join(" ");

export interface SummaryRequest {
  model: LanguageModelV3;
  instructions: string;
  /** The summary of what came before `messages`, folded into the new one. */
  previous: string | undefined;
  messages: readonly Message[];
  /** The tokens a prompt may take (Infinity when the window is not known). */
  limit: number;
  /** How long a summary may be, in tokens. */
  maxOutputTokens: number | undefined;
  compactionId: string;
  signal: AbortSignal;
  emit: (event: NodeEvent) => void;
  idleTimeoutMs?: number | undefined;
}

export interface Summary {
  text: string;
  /** The token counts of each pass that reported them. */
  usage: Usage[];
}

/** Writes the summary; rejects with the model call's error (a ModelCallError) or when the summary is empty. */
export async function summarizeConversation(request: SummaryRequest): Promise<Summary> {
  const passes = planPasses(request);
  let previous = request.previous;
  const usage: Usage[] = [];
  for (let index = 0; index < passes.length; index++) {
    const last = index === passes.length - 1;
    const call: LanguageModelV3CallOptions = { prompt: summaryPrompt(request.instructions, previous, passes[index] as string[]), abortSignal: request.signal };
    if (request.maxOutputTokens !== undefined) {
      call.maxOutputTokens = request.maxOutputTokens;
    }
    // The summary is no part of the reply: only its text is told, as the compaction's.
    const emit = (event: NodeEvent) => {
      if (last && event.type === "text-delta" && event.delta !== EMPTY_REPLY_NOTE) {
        request.emit({ type: "compaction-delta", compactionId: request.compactionId, delta: event.delta });
      }
    };
    const reply = await streamModel(request.model, call, `summary_${request.compactionId}_${index}`, emit, { idleTimeoutMs: request.idleTimeoutMs });
    if (reply.usage) {
      usage.push(reply.usage);
    }
    const text = reply.message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("").trim();
    if (text === "" || text === EMPTY_REPLY_NOTE) {
      throw new Error("The model wrote an empty summary.");
    }
    previous = text;
  }
  return { text: previous ?? "", usage };
}

/** The prompt of one pass: the instructions, then the summary so far and the transcript. */
export function summaryPrompt(instructions: string, previous: string | undefined, transcript: readonly string[]): LanguageModelV3Prompt {
  const before = previous === undefined ? "" : `<summary-so-far>\n${previous}\n</summary-so-far>\n\n`;
  const text = `${before}<conversation>\n${transcript.join("\n\n")}\n</conversation>\n\nWrite the summary now.`;
  return [
    { role: "system", content: instructions },
    { role: "user", content: [{ type: "text", text }] },
  ];
}

/**
 * The transcript split in passes that each fit the limit with the summary so far (taken at its
 * longest). An entry too long for a pass of its own is shortened in its middle.
 */
export function planPasses(request: Pick<SummaryRequest, "instructions" | "previous" | "messages" | "limit" | "maxOutputTokens">): string[][] {
  const entries = request.messages.map(transcriptEntry).filter((entry) => entry !== "");
  if (!Number.isFinite(request.limit)) {
    return [entries];
  }
  const summaryRoom = Math.max(request.maxOutputTokens ?? 0, request.previous === undefined ? 0 : estimateTokens(request.previous));
  const room = request.limit - estimateTokens(summaryPrompt(request.instructions, undefined, [])) - summaryRoom - 16;
  // A token is 4 characters of JSON; escapes make some characters take two.
  const maxChars = Math.max(200, room * 2);
  const passes: string[][] = [];
  let pass: string[] = [];
  let used = 0;
  for (const whole of entries) {
    const entry = whole.length > maxChars ? shorten(whole, maxChars) : whole;
    const tokens = estimateTokens(entry) + 1;
    if (pass.length > 0 && used + tokens > room) {
      passes.push(pass);
      pass = [];
      used = 0;
    }
    pass.push(entry);
    used += tokens;
  }
  if (pass.length > 0 || passes.length === 0) {
    passes.push(pass);
  }
  return passes;
}

/** One message as the summariser reads it: who said it, its text, its tool calls and their results. */
export function transcriptEntry(message: Message): string {
  const lines: string[] = [];
  switch (message.role) {
    case "system":
      lines.push(`System: ${message.parts.map((part) => part.text).join("\n")}`);
      break;
    case "user":
      for (const part of message.parts) {
        switch (part.type) {
          case "text":
            lines.push(`Person: ${part.text}`);
            break;
          case "file":
            lines.push(part.text === undefined ? `Person attached ${part.uri}` : `Person attached ${part.uri}:\n${part.text}`);
            break;
          case "link":
            lines.push(`Person linked ${part.uri}`);
            break;
          default:
            lines.push(`Person attached ${part.type === "image" ? "an image" : "an audio clip"}`);
        }
      }
      break;
    case "assistant":
      for (const part of message.parts) {
        if (part.type === "text" && part.text.trim() !== "") {
          lines.push(`Assistant: ${part.text}`);
        } else if (part.type === "tool-call") {
          lines.push(`Assistant called ${part.toolName} with ${JSON.stringify(part.input ?? null)}`);
        }
      }
      break;
    case "tool":
      for (const part of message.parts) {
        const output = typeof part.output === "string" ? part.output : JSON.stringify(part.output ?? null);
        lines.push(`${part.isError ? "Failed" : "Result of"} ${part.toolName}: ${output}`);
      }
      break;
  }
  return lines.join("\n");
}

/** `text` at most `max` characters long, its middle left out and said so. */
function shorten(text: string, max: number): string {
  const note = `\n[… ${text.length - max} characters left out …]\n`;
  const half = Math.max(0, Math.floor((max - note.length) / 2));
  return `${text.slice(0, half)}${note}${text.slice(text.length - half)}`;
}
