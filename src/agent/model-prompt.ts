// Turns the conversation into the prompt a LanguageModelV3 takes, in a shape every provider
// accepts whatever the conversation went through (a failed or cancelled turn, an empty reply):
// every tool call gets its result right after it (a call left without one gets a note that it
// never ran), results with no call are left out, empty messages are left out, and user messages in
// a row become one.

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
  // Results by call id, and the calls seen so far: built only when a call is not answered by the
  // message right after it (rare: a question asked in the middle of a tool, a turn cut off).
  let results: Map<string, ToolResultPart> | undefined;
  const resultOf = (toolCallId: string) => {
    results ??= new Map(messages.flatMap((message) => (message.role === "tool" ? message.parts.map((part) => [part.toolCallId, part] as const) : [])));
    return results.get(toolCallId);
  };
  const called = new Set<string>();
  // Calls whose result is in the prompt already (a result given out of order, or twice, is not given again).
  const given = new Set<string>();
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
        const calls = message.parts.filter((part): part is ToolCallPart => part.type === "tool-call");
        for (const call of calls) {
          called.add(call.toolCallId);
        }
        if (calls.length === 0 || messages[index + 1]?.role === "tool") {
          break;
        }
        // Providers need each call's result right after it. A result the conversation keeps later
        // (after a question the tool asked, and its answer) is given here; a call with none gets a note.
        prompt.push({
          role: "tool",
          content: calls.map((call) => {
            const result = resultOf(call.toolCallId);
            if (!result) {
              return notRun(call);
            }
            given.add(call.toolCallId);
            return toolResult(result);
          }),
        });
        break;
      }
      case "tool": {
        const previous = messages[index - 1];
        const kept = message.parts.filter((part) => called.has(part.toolCallId) && !given.has(part.toolCallId));
        for (const part of kept) {
          given.add(part.toolCallId);
        }
        const missing =
          previous?.role === "assistant"
            ? previous.parts.filter((part): part is ToolCallPart => part.type === "tool-call" && !given.has(part.toolCallId))
            : [];
        if (kept.length === message.parts.length && missing.length === 0) {
          prompt.push(converted(message, () => ({ role: "tool", content: message.parts.map(toolResult) })));
          break;
        }
        // Results whose call is not in the conversation are left out: no provider takes them.
        const content = [
          ...kept.map(toolResult),
          ...missing.map((call) => {
            const result = resultOf(call.toolCallId);
            if (!result) {
              return notRun(call);
            }
            given.add(call.toolCallId);
            return toolResult(result);
          }),
        ];
        if (content.length > 0) {
          prompt.push({ role: "tool", content });
        }
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
  if (part.editedInput !== undefined) {
    // The model asked for one input and the call ran with another: say so before the output.
    const shown = typeof output === "string" ? output : JSON.stringify(output ?? null);
    const value = `The person edited this call's input before approving it; it ran with ${JSON.stringify(part.editedInput)}.\n\n${shown}`;
    return part.isError ? { type: "error-text", value } : { type: "text", value };
  }
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
