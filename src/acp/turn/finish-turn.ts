// A turn's end: the conversation takes what the run finished and is left as docs/sessions.md says
// for how the turn ended (a cancel noted, a refused prompt left out, a failure settled), the turn is
// no longer in progress, the session is written, and the end becomes the prompt's answer.

import { createMessageId } from "../../graph/messages.js";
import type { ProtocolResult } from "../../graph/protocol-graph.js";
import type { Logger } from "../../types/logger.js";
import type { AssistantMessage, Message } from "../../types/messages.js";
import { notWritten, storeFailure, TurnFailedError } from "../errors/session-errors.js";
import { textChunk } from "../mapping/text-chunk.js";
import type { UpdateContext } from "../mapping/updates.js";
import type { AcpTurnRecord } from "../record/session-store.js";
import type { StoredSession } from "../session/stored-session.js";
import type { UpdateSink } from "../session/update-sink.js";
import { settleFailedTurn } from "./failed-turn.js";
import type { LiveToolCalls } from "./live-tool-calls.js";
import type { Transcript } from "./transcript.js";
import { type AcpStopReason, ended, failed, stopReasonOf, type TurnEnd } from "./turn-end.js";

/** What the conversation keeps after a cancelled turn, so a replay (and the model) can tell it did not end normally. */
export const CANCELLED_NOTE = "[This turn was cancelled.]";

/** What ending a turn works with. */
export interface FinishInputs {
  session: Pick<StoredSession, "id" | "record" | "addMessages" | "replaceMessagesFrom" | "replaceHistory" | "endTurn" | "persist" | "leaveUnsaved">;
  updates: Pick<UpdateSink, "send" | "flush">;
  /** The messages the run finished that the conversation does not have yet. */
  transcript: Pick<Transcript, "take">;
  /** The session ids of the tool calls, which the kept results name. */
  view: Pick<UpdateContext, "ids">;
  logger: Logger;
}

/** The turn that ends. */
export interface Finishing {
  /** The turn as the session keeps it while it is in progress. */
  record: Readonly<AcpTurnRecord>;
  /** Where the turn's prompt is in the conversation. */
  start: number;
  /** How the turn's tool calls were last shown, kept with their results. */
  live: LiveToolCalls;
  /** How a failed run is told: as the prompt's error, or as the agent's message. */
  failures: "error" | "message";
}

/**
 * Ends the turn: the conversation takes what the run finished (a refused prompt leaves it, a
 * failed turn is settled as settleFailedTurn says), the turn is no longer in progress, and the
 * session is written. When that write fails, the prompt is answered with the store's error and
 * taken back unless a tool ran; the store still has the turn in progress (see StoredSession.claim).
 * `waiting`: the questions the turn asked in words, which its end names.
 */
export async function finishTurn(outcome: ProtocolResult, inputs: FinishInputs, turn: Finishing, waiting?: string[]): Promise<TurnEnd> {
  const { session, updates, transcript, view, logger } = inputs;
  session.addMessages(turn.live.dress(transcript.take(outcome.status !== "interrupted"), view.ids));
  // A failed run's conversation as the run left it, before it is settled.
  let ran: readonly Message[] | undefined;
  let stopReason: AcpStopReason = "end_turn";
  let failureMessage: AssistantMessage | undefined;
  if (outcome.status === "cancelled") {
    stopReason = "cancelled";
    // A replay has no stop reasons: the note shows the turn as cancelled (the model reads it too).
    session.addMessages([cancelledNote()]);
  } else if (outcome.status === "completed") {
    stopReason = stopReasonOf(outcome.finish);
    if (stopReason === "refusal") {
      // ACP: a refused prompt is left out of the conversation from now on.
      session.replaceMessagesFrom(turn.start, []);
    }
  } else if (outcome.status === "failed") {
    logger.error("The agent's run failed", { sessionId: session.id, error: outcome.error.message });
    const shown = turn.failures === "message" ? outcome.error.message : undefined;
    ran = session.record.history;
    session.replaceHistory(settleFailedTurn(ran, turn.start, { error: outcome.error, shown }));
    failureMessage = shown === undefined ? undefined : (session.record.history.at(-1) as AssistantMessage);
  }
  session.endTurn(turn.record);
  await updates.flush();
  try {
    await session.persist();
  } catch (error) {
    const failure = storeFailure(error);
    if (notWritten(failure)) {
      session.replaceHistory(settleFailedTurn(ran ?? session.record.history, turn.start, { error: failure }));
      session.leaveUnsaved(turn.record);
    }
    return failed(failure);
  }
  if (outcome.status === "failed") {
    if (failureMessage) {
      void updates.send(textChunk(`\n\n${outcome.error.message}`, failureMessage.id));
      await updates.flush();
      return ended("end_turn");
    }
    return failed(new TurnFailedError(outcome.error));
  }
  return ended(stopReason, waiting);
}

function cancelledNote(): AssistantMessage {
  return { id: createMessageId("cancelled"), role: "assistant", parts: [{ type: "text", text: CANCELLED_NOTE }], createdAt: new Date().toISOString() };
}
