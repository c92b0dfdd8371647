// Weft's messages and LangChain's, both ways. A session keeps weft messages; a LangGraph graph
// keeps LangChain ones in its checkpoints. Ids travel both ways, so a message the graph already
// holds is recognised (LangChain's reducer replaces by id) and a replayed conversation names the
// same messages the graph's state does.

import { AIMessage, type BaseMessage, type ContentBlock, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";

import { contentText, textField } from "../store-core/content-text.js";
import { toJson } from "../store-core/to-json.js";
import type { AssistantPart, Message, ToolResultPart, UserPart } from "../types/messages.js";

/** A weft conversation as LangChain messages: each tool result is a ToolMessage of its own. */
export function toLangChain(messages: readonly Message[]): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        out.push(new SystemMessage({ id: message.id, content: message.parts.map((part) => part.text).join("") }));
        break;
      case "user":
        out.push(new HumanMessage({ id: message.id, content: userContent(message.parts) }));
        break;
      case "assistant": {
        const text = message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
        const toolCalls = message.parts.flatMap((part) =>
          part.type === "tool-call" ? [{ id: part.toolCallId, name: part.toolName, args: asArgs(part.input), type: "tool_call" as const }] : [],
        );
        out.push(new AIMessage({ id: message.id, content: text, tool_calls: toolCalls }));
        break;
      }
      case "tool":
        message.parts.forEach((part, index) => {
          // One weft tool message may hold several results; LangChain wants one message each.
          const id = message.parts.length === 1 ? message.id : `${message.id}:${index}`;
          out.push(new ToolMessage({ id, tool_call_id: part.toolCallId, name: part.toolName, content: resultText(part.output), status: part.isError ? "error" : "success" }));
        });
        break;
    }
  }
  return out;
}

/**
 * A LangChain message as a weft one, or undefined for one weft has no place for (a RemoveMessage).
 * `id` stands in when the message has none.
 */
export function fromLangChain(message: BaseMessage, id = message.id ?? ""): Message | undefined {
  const createdAt = new Date().toISOString();
  switch (message.type) {
    case "human":
      return { id, role: "user", parts: [{ type: "text", text: textOf(message.content) }], createdAt };
    case "system":
      return { id, role: "system", parts: [{ type: "text", text: textOf(message.content) }], createdAt };
    case "ai": {
      const ai = message as AIMessage;
      const parts: AssistantPart[] = [];
      const reasoning = reasoningOf(ai);
      if (reasoning) {
        parts.push({ type: "reasoning", text: reasoning });
      }
      const text = textOf(ai.content);
      if (text) {
        parts.push({ type: "text", text });
      }
      for (const call of ai.tool_calls ?? []) {
        parts.push({ type: "tool-call", toolCallId: call.id ?? "", toolName: call.name, input: call.args });
      }
      const result: Message = { id, role: "assistant", parts, createdAt };
      const finish = finishReasonOf(ai);
      if (finish) {
        result.finishReason = finish;
      }
      return result;
    }
    case "tool": {
      const tool = message as ToolMessage;
      const part: ToolResultPart = { type: "tool-result", toolCallId: tool.tool_call_id, toolName: tool.name ?? "", output: plainContent(tool.content) };
      if (tool.status === "error") {
        part.isError = true;
      }
      return { id, role: "tool", parts: [part], createdAt };
    }
    default:
      return undefined;
  }
}

/** The text of a LangChain message's content: the string, or its bare strings and `text` blocks joined. */
export function textOf(content: unknown): string {
  return contentText(content, (block) => (typeof block === "string" ? block : (block as { type?: unknown }).type === "text" ? textField(block) : ""));
}

/**
 * The reasoning a message (or chunk) carries: OpenAI-compatible servers send it as
 * `reasoning_content`, others as reasoning or thinking content blocks.
 */
export function reasoningOf(message: BaseMessage): string {
  const kwargs = message.additional_kwargs as { reasoning_content?: unknown };
  let text = typeof kwargs.reasoning_content === "string" ? kwargs.reasoning_content : "";
  if (Array.isArray(message.content)) {
    for (const block of message.content as unknown[]) {
      const typed = block as { type?: unknown; reasoning?: unknown; thinking?: unknown; text?: unknown };
      if (typed.type === "reasoning" && typeof typed.reasoning === "string") {
        text += typed.reasoning;
      } else if (typed.type === "thinking" && typeof typed.thinking === "string") {
        text += typed.thinking;
      }
    }
  }
  return text;
}

/** Why the model stopped, in weft's words, from what the provider reported. */
export function finishReasonOf(message: BaseMessage): "stop" | "length" | "content-filter" | "tool-calls" | "other" | undefined {
  const reason = (message.response_metadata as { finish_reason?: unknown } | undefined)?.finish_reason;
  switch (reason) {
    case undefined:
    case null:
      return undefined;
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "content_filter":
      return "content-filter";
    case "tool_calls":
    case "function_call":
      return "tool-calls";
    default:
      return "other";
  }
}

/** A tool message's content as plain JSON: its string, or its blocks. */
export function plainContent(content: unknown): unknown {
  return typeof content === "string" ? content : jsonCopy(content);
}

/** A value as JSON (class instances become their JSON form), undefined as null. */
export const jsonCopy = toJson;

function userContent(parts: readonly UserPart[]): string | ContentBlock[] {
  if (parts.every((part) => part.type === "text")) {
    return parts.map((part) => part.text).join("");
  }
  return parts.map((part): ContentBlock => {
    switch (part.type) {
      case "text":
        return { type: "text", text: part.text };
      case "image":
        return { type: "image_url", image_url: { url: /^(https?|data):/.test(part.data) ? part.data : `data:${part.mediaType};base64,${part.data}` } };
      case "file":
        return { type: "text", text: part.text !== undefined ? `${part.uri}:\n${part.text}` : part.uri };
      case "link":
        return { type: "text", text: part.uri };
      case "audio":
        return { type: "text", text: "[audio]" };
    }
  });
}

function asArgs(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

function resultText(output: unknown): string {
  return typeof output === "string" ? output : JSON.stringify(output ?? null);
}
