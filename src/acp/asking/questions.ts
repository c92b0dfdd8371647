// Interrupts that are not tool approvals are questions for the person. One that carries a schema
// for its answer is asked as a form (`elicitation/create`) when the editor shows forms, and its
// answer goes back to the run within the same turn. Any other is asked as the agent's message, and
// the next prompt answers it. A schema that asks for a secret is never asked (form-schema.ts).

import type { ElicitationSchema } from "@agentclientprotocol/sdk";

import { isToolQuestion } from "../../agent/tool-question.js";
import type { FormAnswer } from "../../graph/interrupt.js";
import type { ProtocolInterrupt } from "../../graph/protocol-graph.js";
import type { FormOutcome } from "./elicitation.js";
import { formSchema } from "./form-schema.js";
import { SecretInFormError } from "../errors/secret-in-form-error.js";

/**
 * The words to show for a question asked in words, whatever shape its value has; a value with
 * `choices` (a list of strings) beside its question ends with them.
 */
export function questionText(interrupt: ProtocolInterrupt): string {
  const text = formMessage(interrupt);
  const value = isToolQuestion(interrupt.value) ? interrupt.value.question : interrupt.value;
  const choices = value && typeof value === "object" && !Array.isArray(value) ? value.choices : undefined;
  return Array.isArray(choices) && choices.length > 0 && choices.every((choice) => typeof choice === "string") ? `${text}\n\nChoices: ${choices.join(", ")}` : text;
}

/** The question itself, as a form's message: a form lists any choices in its own fields. */
function formMessage(interrupt: ProtocolInterrupt): string {
  // A tool's question is the question it asked, not the wrapper that names the tool.
  const value = isToolQuestion(interrupt.value) ? interrupt.value.question : interrupt.value;
  if (typeof value === "string") {
    return value;
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const key of ["question", "message", "text", "prompt"]) {
      const candidate = value[key];
      if (typeof candidate === "string") {
        return candidate;
      }
      if (candidate !== undefined && key === "question") {
        return JSON.stringify(candidate, null, 2);
      }
    }
  }
  return JSON.stringify(value, null, 2);
}

/** How a question is asked: as a form, in words, or not at all. */
export type QuestionPlan =
  | { how: "form"; form: ElicitationSchema; message: string }
  | { how: "words" }
  /** Its schema asks for a secret: the turn fails with this error. */
  | { how: "refused"; error: SecretInFormError };

/**
 * How to ask `interrupt`: a form when it has a schema that can be one and the editor shows forms;
 * in words when it has no schema, the schema is not flat, or the editor shows no forms; refused
 * when the schema asks for a secret, whatever the editor can show.
 */
export function planQuestion(interrupt: ProtocolInterrupt, showsForms: boolean): QuestionPlan {
  if (!interrupt.schema) {
    return { how: "words" };
  }
  const result = formSchema(interrupt.schema);
  if ("refused" in result) {
    return result.refused === "secret" ? { how: "refused", error: new SecretInFormError(interrupt.id, result.field, result.reason) } : { how: "words" };
  }
  return showsForms ? { how: "form", form: result.form, message: formMessage(interrupt) } : { how: "words" };
}

/** The graph's id of the tool call that asked, when a tool did. */
export function askingToolCall(interrupt: ProtocolInterrupt): string | undefined {
  return isToolQuestion(interrupt.value) ? interrupt.value.toolCallId : undefined;
}

/** The run's answer for a form the person answered. */
export function formAnswer(outcome: Extract<FormOutcome, { action: "accept" | "decline" | "cancel" }>): FormAnswer {
  return outcome.action === "accept" ? { action: "accept", content: outcome.content } : { action: outcome.action };
}

/** The run's answer for a question asked in words: the prompt's text, as a FormAnswer when the question had a schema. */
export function answerInWords(interrupt: ProtocolInterrupt, text: string): unknown {
  if (interrupt.schema) {
    const answer: FormAnswer = { action: "reply", text };
    return answer;
  }
  return text;
}
