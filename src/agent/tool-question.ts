// The interrupt a tool asks when it needs the person's answer (`ToolContext.ask`). To the graph
// runtime it is just an interrupt value; protocol servers recognise it with `isToolQuestion` to tie
// the question to its tool call (ACP: an elicitation scoped to the call).

import type { JsonValue } from "../types/json.js";
import { isToolCallInterrupt } from "./tool-call-interrupt.js";

/** A question a tool asks the person, as the interrupt value. */
export interface ToolQuestion {
  kind: "question";
  toolCallId: string;
  toolName: string;
  question: JsonValue;
}

/** True when an interrupt's value is a tool's question. */
export function isToolQuestion(value: unknown): value is ToolQuestion {
  return isToolCallInterrupt(value, "question");
}
