// An answer the graph refused on resume (LangGraph checks it against the interrupt's Zod schema,
// refinements and all): the person is told why in words, and the question is asked again.

import { errorMessage } from "../errors/error-message.js";
import type { Interrupt } from "../graph/interrupt.js";
import { howToAnswer } from "./typed-answer.js";

/**
 * When a resume failed because the graph refused an answer and the question is still pending
 * (`pendingNow` reads what the thread waits on after the failure): what to tell the person, and the
 * interrupts to ask again. Undefined for any other failure.
 */
export async function refusedAnswer(error: unknown, answers: Record<string, unknown>, pendingNow: () => Promise<Interrupt[]>): Promise<{ note: string; pending: Interrupt[] } | undefined> {
  const issues = refusedAnswerIssues(error);
  if (!issues) {
    return undefined;
  }
  const pending = await pendingNow();
  const asked = pending.find((interrupt) => interrupt.id in answers && interrupt.schema !== undefined);
  if (!asked?.schema) {
    return undefined;
  }
  const inWords = (answers[asked.id] as { action?: unknown } | null | undefined)?.action === "reply";
  return { note: `That answer does not fit: ${issues}.${inWords ? ` ${howToAnswer(asked.schema)}` : ""}`, pending };
}

/**
 * The problems of an answer the graph refused, in words (`city: There is no Atlantis`), when
 * `error` is that: LangGraph marks such errors (from 1.5.3; before, the schema's own error comes
 * as it is), and a Zod error lists its issues, here or as the error's cause.
 */
function refusedAnswerIssues(error: unknown): string | undefined {
  let marked = false;
  let current = error;
  for (let depth = 0; depth < 10 && typeof current === "object" && current !== null; depth++) {
    marked ||= (current as Record<symbol, unknown>)[INVALID_RESUME] === true;
    const issues = (current as { issues?: unknown }).issues;
    if (Array.isArray(issues) && issues.length > 0) {
      return issues
        .map((issue: { path?: unknown; message?: unknown }) => {
          const path = Array.isArray(issue.path) ? issue.path.map(String).join(".") : "";
          const message = typeof issue.message === "string" ? issue.message : "is not allowed";
          return path === "" ? message : `${path}: ${message}`;
        })
        .join("; ");
    }
    current = (current as { cause?: unknown }).cause;
  }
  return marked ? errorMessage(error) : undefined;
}

/** LangGraph's mark on an error thrown because a resume value did not fit its interrupt's schema. */
const INVALID_RESUME = Symbol.for("langgraph.invalid_resume");
