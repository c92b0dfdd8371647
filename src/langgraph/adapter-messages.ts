// What the adapter itself says to the person, kept in the session's conversation but not in the
// graph's thread: why an answer was not taken, that a run stopped at a breakpoint, and a completed
// run's final state for a graph whose state is not a conversation.

import type { RunEvent } from "../graph/events.js";
import { createMessageId } from "../graph/messages.js";
import type { FromLangGraphOptions, Graph } from "./langgraph-types.js";
import { jsonCopy } from "./messages.js";

/** The events of a message from the adapter itself to the person (why an answer was not taken: a paragraph before the question asked again). */
export function noteEvents(text: string): RunEvent[] {
  return agentMessage(`${text}\n\n`);
}

/** The events of a message the adapter shows the person, kept in the conversation (but not in the graph's thread). */
export function agentMessage(text: string): RunEvent[] {
  const messageId = createMessageId("langgraph-note");
  return [
    { type: "message-start", messageId },
    { type: "text-delta", messageId, delta: text },
    { type: "message-end", messageId },
    { type: "message", message: { id: messageId, role: "assistant", parts: [{ type: "text", text }], createdAt: new Date().toISOString() } },
  ];
}

/** What to show of a completed run's final state (see FromLangGraphOptions.output), or undefined for nothing. */
export function shownOutput(values: Record<string, unknown>, graph: Graph, options: Pick<FromLangGraphOptions, "input" | "output">): string | undefined {
  if (options.output) {
    const shown = options.output(values);
    return shown === undefined || shown === null ? undefined : typeof shown === "string" ? shown : jsonBlock(shown);
  }
  if (hasMessages(graph, values)) {
    return undefined;
  }
  const state = `The graph finished. Its state has no \`messages\` channel, so here is its final state:\n\n${jsonBlock(values)}`;
  if (options.input) {
    return state;
  }
  return (
    `${state}\n\nThe prompt did not reach the graph either: its input is the conversation as \`{ messages }\`, which a graph without a \`messages\` channel ignores. ` +
    "Export `toInput` and `fromOutput` from the `--graph` module (or give fromLangGraph() `input` and `output`) to make a prompt its input and its state a reply."
  );
}

/** Whether the graph keeps a conversation: its channels name `messages` (or, when they cannot be read, its state has them). */
function hasMessages(graph: Graph, values: Record<string, unknown>): boolean {
  const parts = graph as { channels?: unknown; graph?: { channels?: unknown } };
  const channels = parts.channels ?? parts.graph?.channels;
  return typeof channels === "object" && channels !== null ? "messages" in channels : "messages" in values;
}

/** The most characters of a state shown as JSON. */
const SHOWN_STATE_CHARS = 8000;

/** A value as a fenced JSON block, cut at SHOWN_STATE_CHARS. */
function jsonBlock(value: unknown): string {
  const json = JSON.stringify(jsonCopy(value), null, 2) ?? "null";
  const shown = json.length > SHOWN_STATE_CHARS ? `${json.slice(0, SHOWN_STATE_CHARS)}\n… (${json.length - SHOWN_STATE_CHARS} more characters)` : json;
  return `\`\`\`json\n${shown}\n\`\`\``;
}
