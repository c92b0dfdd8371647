// The run's questions, asked: as a form, whose answer the run resumes with, or in words, as the
// agent's message, which the next prompt answers (the turn stops there).

import type { ElicitationSchema } from "@agentclientprotocol/sdk";

import { isToolQuestion } from "../../agent/tool-question.js";
import { createMessageId } from "../../graph/messages.js";
import type { ProtocolInterrupt } from "../../graph/protocol-graph.js";
import type { Logger } from "../../types/logger.js";
import type { AssistantMessage } from "../../types/messages.js";
import type { FormOutcome, FormRequest } from "../asking/elicitation.js";
import { askingToolCall, formAnswer, questionText } from "../asking/questions.js";
import { textChunk } from "../mapping/text-chunk.js";
import type { StoredSession } from "../session/stored-session.js";
import type { UpdateSink } from "../session/update-sink.js";
import { type AnnounceInputs, announceUnseen } from "./announce-unseen.js";
import type { LiveToolCalls } from "./live-tool-calls.js";
import type { Transcript } from "./transcript.js";

/** What asking a question works with. */
export interface AskInputs extends AnnounceInputs {
  session: Pick<StoredSession, "id">;
  updates: Pick<UpdateSink, "send">;
  /** Asks the person to fill in a form (elicitation/create). */
  askForm: (form: FormRequest, signal: AbortSignal) => Promise<FormOutcome>;
  /** Keeps a question asked in words in the turn's messages. */
  transcript: Pick<Transcript, "observe">;
  logger: Logger;
}

/**
 * Asks a question as a form. Its answer for the run (a FormAnswer), `cancelled` when the turn
 * was, or undefined when the form failed and the question is to be asked in words instead.
 */
export async function askInForm(interrupt: ProtocolInterrupt, form: ElicitationSchema, message: string, inputs: AskInputs, live: LiveToolCalls, signal: AbortSignal): Promise<unknown> {
  const { view, session, logger } = inputs;
  const asking = askingToolCall(interrupt);
  const request: FormRequest = { message, schema: form };
  if (asking !== undefined) {
    await announceUnseen(inputs, live, asking, isToolQuestion(interrupt.value) ? interrupt.value.toolName : "ask", undefined);
    request.toolCallId = view.ids.of(asking);
  }
  const outcome = await inputs.askForm(request, signal);
  switch (outcome.action) {
    case "withdrawn":
      return "cancelled";
    case "failed":
      logger.warn("A question's form failed; it is asked as a message", { sessionId: session.id, interruptId: interrupt.id, error: outcome.error });
      return undefined;
    default:
      return formAnswer(outcome);
  }
}

/** Asks questions as the agent's message; the message is kept in the conversation. */
export async function askInWords(questions: readonly ProtocolInterrupt[], inputs: Pick<AskInputs, "updates" | "transcript">): Promise<void> {
  const text = questions.map(questionText).join("\n\n");
  const message: AssistantMessage = { id: createMessageId("question"), role: "assistant", parts: [{ type: "text", text }], createdAt: new Date().toISOString() };
  await inputs.updates.send(textChunk(text, message.id));
  inputs.transcript.observe({ type: "message", message });
}
