// Carrying on the turn a session was in the middle of when its agent stopped (a crash, a kill): the
// run continues from its last checkpoint, or starts over when it never reached one; a question or
// approval it was waiting on is asked again; and what the run finished that the session never got
// is put into the conversation. docs/sessions.md ("After a crash") says which crash each step covers.

import { WeftError } from "../../errors/weft-error.js";
import { messageText } from "../../graph/messages.js";
import type { ProtocolResult, ProtocolRun } from "../../graph/protocol-graph.js";
import { turnMessagesOf } from "./transcript.js";
import type { Logger } from "../../types/logger.js";
import type { UpdateContext } from "../mapping/updates.js";
import type { StoredSession } from "../session/stored-session.js";
import type { UpdateSink } from "../session/update-sink.js";
import { type DriveInputs, Turn, type TurnSettings } from "./drive-turn.js";
import type { Transcript } from "./transcript.js";
import { recoveredUpdates } from "../mapping/replay-updates.js";
import { textChunk } from "../mapping/text-chunk.js";
import { errorMessage } from "../../errors/error-message.js";

/**
 * Carries on the session's turn in progress, if it has one and no other process runs it. Never
 * rejects: a turn that cannot be finished is logged and the person is told as the agent's message.
 * Resolves when the turn has ended or waits for the person.
 */
export async function carryOnTurn(parts: DriveInputs, signal: AbortSignal): Promise<void> {
  const { session, logger } = parts;
  const record = session.record.turn;
  if (!record) {
    return;
  }
  // The load's replay showed the turn's calls that have no result in progress: should the turn
  // not finish, each one it did not end is ended as failed.
  const unfinished = unfinishedCalls(parts);
  let turn: Turn | undefined;
  const giveUp = (error: unknown) => couldNotFinish(parts, error, unfinished.filter((toolCallId) => !turn?.showedEnd(toolCallId)));
  try {
    turn = new Turn(parts, record, Math.max(0, session.record.history.findIndex((message) => message.id === record.user.id)), signal);
    const restarted = await restart(parts, turn);
    if (!restarted) {
      return;
    }
    const started = Date.now();
    logger.info("Turn carried on", { sessionId: session.id, startedAt: record.startedAt });
    const startOver = restarted.startOver;
    const carried = turn;
    const end = await turn.drive(restarted.run, {
      restartOn: startOver && ((outcome) => (neverCheckpointed(parts, carried, outcome) ? startingOver(parts, startOver) : undefined)),
      completing: (state) => recover(parts, carried, state),
    });
    if (end.status === "failed") {
      await giveUp(end.error);
      return;
    }
    logger.info("Turn ended", { sessionId: session.id, stopReason: end.stopReason, durationMs: Date.now() - started });
  } catch (error) {
    await giveUp(error);
  }
}

/** What telling the person the turn could not be finished works with. */
interface Telling {
  session: Pick<StoredSession, "id">;
  updates: Pick<UpdateSink, "send" | "flush">;
  logger: Logger;
}

async function couldNotFinish(parts: Telling, error: unknown, unfinished: readonly string[]): Promise<void> {
  const message = errorMessage(error);
  parts.logger.warn("The interrupted turn could not be finished", { sessionId: parts.session.id, error: message });
  for (const toolCallId of unfinished) {
    void parts.updates.send({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: "This tool call did not finish." } }],
    });
  }
  void parts.updates.send(textChunk(`The turn that was in progress could not be finished: ${message}`));
  await parts.updates.flush();
}

/** The session ids of the turn in progress's calls the editor was shown and that have no result. */
function unfinishedCalls(parts: { session: Pick<StoredSession, "record">; view: Pick<UpdateContext, "ids"> }): string[] {
  const { history, turn } = parts.session.record;
  const start = turn ? history.findIndex((message) => message.id === turn.user.id) : -1;
  if (start < 0) {
    return [];
  }
  const open = new Set<string>();
  for (const message of history.slice(start)) {
    for (const part of message.parts) {
      if (part.type === "tool-call") {
        open.add(part.toolCallId);
      } else if (part.type === "tool-result") {
        open.delete(part.toolCallId);
      }
    }
  }
  return [...open].filter((toolCallId) => parts.view.ids.has(toolCallId)).map((toolCallId) => parts.view.ids.of(toolCallId));
}

function startingOver(parts: { session: Pick<StoredSession, "id">; logger: Logger }, startOver: () => ProtocolRun): ProtocolRun {
  parts.logger.info("The turn's run had no checkpoint yet; it starts over", { sessionId: parts.session.id });
  return startOver();
}

/**
 * The run that carries the turn on, or undefined when another process is running it. When the
 * thread was claimed for the turn, the run continues from its last checkpoint, and `startOver`
 * starts the turn again in case the agent died before the run's first checkpoint.
 */
async function restart(parts: Pick<DriveInputs, "graph"> & { session: Pick<StoredSession, "id" | "record"> }, turn: Turn): Promise<{ run: ProtocolRun; startOver?: (() => ProtocolRun) | undefined } | undefined> {
  const { graph, session } = parts;
  const options = turn.runOptions();
  const thread = await graph.thread?.(session.id);
  if (thread?.status === "running") {
    return undefined;
  }
  const { record } = turn;
  const startOver = (): ProtocolRun => {
    if (record.kind === "resume" && record.answers) {
      return graph.resume(record.answers, options);
    }
    const history = session.record.history;
    const position = history.findIndex((message) => message.id === record.user.id);
    const earlier = position >= 0 ? history.slice(0, position) : history.slice();
    return graph.run(turn.input(messageText(record.user), record.user, earlier, record.blocks ?? []), options);
  };
  if (thread && thread.runId === options.runId && graph.continue) {
    // A resume carries on from the paused step whatever happened; a new turn may have no step yet.
    return record.kind === "invoke" ? { run: graph.continue(options), startOver } : { run: graph.continue(options) };
  }
  return { run: startOver() };
}

/**
 * True when carrying a turn on found no checkpoint of it: the thread has nothing to continue, or
 * (with the default input, not a command's) its state does not hold the turn's prompt, so the run
 * never began.
 */
function neverCheckpointed(parts: { settings: Pick<TurnSettings, "input"> }, turn: Turn, outcome: ProtocolResult): boolean {
  if (outcome.status === "failed") {
    return WeftError.isInstance(outcome.error) && outcome.error.code === "nothing_to_continue";
  }
  if (outcome.status !== "completed" || parts.settings.input || turn.record.input !== undefined) {
    return false;
  }
  return Array.isArray((outcome.output as { messages?: unknown } | undefined)?.messages) && turnMessagesOf(outcome.output, turn.record.user.id) === undefined;
}

/**
 * After the carried-on run completed: the messages of the turn that the run's final state has and
 * the conversation does not (the agent died after the run's checkpoint and before the session was
 * written) are added to it in the run's order, and shown to the editor.
 */
/** What recovering the end of a turn works with. */
interface Recovering {
  session: Pick<StoredSession, "id" | "record" | "addMessages" | "replaceMessagesFrom">;
  transcript: Pick<Transcript, "take">;
  updates: Pick<UpdateSink, "send">;
  view: UpdateContext;
  logger: Logger;
}

async function recover(parts: Recovering, turn: Turn, state: unknown): Promise<void> {
  const { session, transcript, updates, view, logger } = parts;
  if (session.record.history[turn.start]?.id !== turn.record.user.id) {
    return;
  }
  session.addMessages(transcript.take(true));
  const history = session.record.history;
  const fromRun = turnMessagesOf(state, turn.record.user.id);
  if (!fromRun) {
    return;
  }
  const kept = history.slice(turn.start + 1);
  const keptIds = new Set(kept.map((message) => message.id));
  const missing = fromRun.filter((message) => !keptIds.has(message.id));
  if (missing.length === 0) {
    return;
  }
  const runIds = new Set(fromRun.map((message) => message.id));
  const turnMessages = kept.every((message) => runIds.has(message.id)) ? fromRun : [...kept, ...missing];
  const shown = history.slice();
  session.replaceMessagesFrom(turn.start + 1, turnMessages);
  logger.info("Recovered the end of a turn from its run", { sessionId: session.id, messages: missing.length });
  for (const update of recoveredUpdates(shown, missing, view)) {
    await updates.send(update);
  }
}
