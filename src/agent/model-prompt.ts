// Turns the conversation into the prompt a LanguageModelV3 takes, in a shape every provider
// accepts whatever the conversation went through (a failed or cancelled turn, an empty reply):
// every tool call gets a result (a call left without one gets a note that it never ran), empty
// messages are left out, and user messages in a row become one.

import type {
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3TextPart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";

import type { JSONValue } from "@ai-sdk/provider";
import type { AssistantMessage, Message, ToolCallPart, ToolResultPart, UserPart } from "../types/messages.js";

export function toModelPrompt(instructions: string | undefined, messages: readonly Message[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  if (instructions) {
    prompt.push({ role: "system", content: instructions });
  }
  // Built only if some call is not answered by the message right after it (rare).
  let answered: Set<string> | undefined;
  const answeredAnywhere = (toolCallId: string) => {
    answered ??= new Set(messages.flatMap((message) => (message.role === "tool" ? message.parts.map((part) => part.toolCallId) : [])));
    return answered.has(toolCallId);
  };
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.parts.map((part) => part.text).join("\n") });
        break;
      case "user": {
        const user = converted(message, () => ({ role: "user" as const, content: message.parts.map(userPart) }));
        const last = prompt.at(-1);
        if (user.content.length === 0) {
          break;
        }
        if (last?.role === "user") {
          // A turn that never got its answer (it failed, or was cancelled early) is followed by the next prompt.
          prompt[prompt.length - 1] = { role: "user", content: [...last.content, ...user.content] };
        } else {
          prompt.push(user);
        }
        break;
      }
      case "assistant": {
        const assistant = converted(message, () => assistantMessage(message));
        if (assistant.content.length > 0) {
          prompt.push(assistant);
        }
        const next = messages[index + 1];
        if (next?.role === "tool") {
          break;
        }
        const unanswered = message.parts.filter((part): part is ToolCallPart => part.type === "tool-call" && !answeredAnywhere(part.toolCallId));
        if (unanswered.length > 0) {
          prompt.push({ role: "tool", content: unanswered.map(notRun) });
        }
        break;
      }
      case "tool": {
        const results = converted(message, () => ({ role: "tool", content: message.parts.map(toolResult) }));
        const previous = messages[index - 1];
        const missing =
          previous?.role === "assistant"
            ? previous.parts.filter((part): part is ToolCallPart => part.type === "tool-call" && !message.parts.some((result) => result.toolCallId === part.toolCallId) && !answeredAnywhere(part.toolCallId))
            : [];
        prompt.push(missing.length === 0 ? results : { role: "tool", content: [...(results.content as LanguageModelV3ToolResultPart[]), ...missing.map(notRun)] });
        break;
      }
    }
  }
  return prompt;
}

/**
 * Messages never change once made, so each is converted once and the result reused by every later
 * model call of the conversation (providers do not change the prompt they are given).
 */
const conversions = new WeakMap<Message, LanguageModelV3Message>();

function converted<M extends LanguageModelV3Message>(message: Message, convert: () => M): M {
  let result = conversions.get(message) as M | undefined;
  if (!result) {
    result = convert();
    conversions.set(message, result);
  }
  return result;
}

function userPart(part: UserPart): LanguageModelV3TextPart | LanguageModelV3FilePart {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
    case "audio":
      return { type: "file", data: fileData(part.data), mediaType: part.mediaType };
    case "file":
      if (part.text !== undefined) {
        return { type: "text", text: `<file uri="${part.uri}">\n${part.text}\n</file>` };
      }
      if (part.data !== undefined) {
        return { type: "file", data: part.data, mediaType: part.mediaType ?? "application/octet-stream" };
      }
      return { type: "text", text: `<file uri="${part.uri}" />` };
    case "link":
      return { type: "text", text: `[${part.title ?? part.name}](${part.uri})` };
  }
}

function fileData(data: string): string | URL {
  return /^(https?|data):/.test(data) ? new URL(data) : data;
}

/** The assistant message, without empty text (which providers refuse); it may end up with no content. */
function assistantMessage(message: AssistantMessage): Extract<LanguageModelV3Message, { role: "assistant" }> {
  return {
    role: "assistant",
    content: message.parts.filter((part) => part.type !== "text" || part.text.length > 0).map((part) => {
      switch (part.type) {
        case "text":
          return { type: "text", text: part.text };
        case "reasoning":
          return part.providerMetadata
            ? { type: "reasoning", text: part.text, providerOptions: part.providerMetadata as Record<string, Record<string, JSONValue>> }
            : { type: "reasoning", text: part.text };
        case "tool-call":
          return part.providerMetadata
            ? { type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, providerOptions: part.providerMetadata as Record<string, Record<string, JSONValue>> }
            : { type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
      }
    }),
  };
}

function toolResult(part: ToolResultPart): LanguageModelV3ToolResultPart {
  return { type: "tool-result", toolCallId: part.toolCallId, toolName: part.toolName, output: resultOutput(part) };
}

function resultOutput(part: ToolResultPart): LanguageModelV3ToolResultOutput {
  const { output } = part;
  if (typeof output === "string") {
    return part.isError ? { type: "error-text", value: output } : { type: "text", value: output };
  }
  const value = (output === undefined ? null : JSON.parse(JSON.stringify(output))) as JSONValue;
  return part.isError ? { type: "error-json", value } : { type: "json", value };
}

function notRun(part: ToolCallPart): LanguageModelV3ToolResultPart {
  return {
    type: "tool-result",
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output: { type: "error-text", value: "This tool call was not run: the conversation moved on before it finished." },
  };
}
