// One turn of a session, started: checks the prompt, puts it in the conversation and marks the turn
// as in progress (both written before anything runs), then starts the prompt's run (or resumes the
// paused one with the prompt's answers) and drives it to the turn's end (drive-turn.ts). A turn's
// end is a value (turn-end.ts); it never builds a wire error.

import { type AcpContentBlock, type PromptMessage, promptToMessage } from "../mapping/content.js";
import { textChunk } from "../mapping/text-chunk.js";
import { answerInWords } from "../asking/questions.js";
import { PromptTooLargeError } from "../errors/request-errors.js";
import { storeFailure } from "../errors/session-errors.js";
import type { AcpSessionRecordView, AcpTurnRecord } from "../record/session-store.js";
import type { StoredSession } from "../session/stored-session.js";
import type { SessionTitle } from "../surface/session-title.js";
import { type DriveInputs, Turn, type TurnOptions, type TurnSettings } from "./drive-turn.js";
import { failed, type TurnEnd } from "./turn-end.js";

export { CANCELLED_NOTE } from "./finish-turn.js";
export { type DriveInputs, type DriveOptions, Turn, type TurnOptions, type TurnSettings } from "./drive-turn.js";

/** What starting a turn works with: what a turn under way does, and what its start adds. */
export type TurnInputs = DriveInputs & {
  /** Begins the turn in the record. */
  session: Pick<StoredSession, "record" | "beginTurn">;
  /** The session's title, which its first prompt gives it. */
  title: Pick<SessionTitle, "prompted">;
  /** Messages for the person to show at the start of the turn (an MCP server that failed). */
  notices: () => Promise<string[]>;
};

/**
 * Starts the turn of a prompt: puts the prompt in the conversation, marks the turn as in progress
 * and writes both before anything runs, then drives the run to the turn's end. A prompt over the
 * size limit, or one the store cannot take, ends the turn before anything ran, the session as it was.
 * `input`, from a slash command, is the graph's input instead of the prompt's (a new run, even
 * when the last turn asked a question).
 */
export async function startTurn(inputs: TurnInputs, blocks: AcpContentBlock[], signal: AbortSignal, input?: unknown, options: TurnOptions = {}): Promise<TurnEnd> {
  const { settings, session } = inputs;
  const size = blocks.reduce((total, block) => total + JSON.stringify(block).length, 0);
  if (size > settings.maxPromptBytes) {
    return failed(new PromptTooLargeError(size, settings.maxPromptBytes));
  }
  const prompt = promptToMessage(blocks);
  const history = session.record.history.slice();
  const turn = turnRecord(session.record, prompt, blocks, input, settings.answer);
  try {
    await session.beginTurn(turn);
  } catch (error) {
    // Nothing ran: the session is as it was (beginTurn took the prompt back); say why.
    return failed(storeFailure(error));
  }
  inputs.title.prompted();
  for (const notice of await inputs.notices()) {
    void inputs.updates.send(textChunk(`${notice}\n\n`));
  }
  const running = new Turn(inputs, turn, history.length, signal, options);
  const first =
    turn.kind === "resume" && turn.answers
      ? inputs.graph.resume(turn.answers, running.runOptions())
      : inputs.graph.run(running.input(prompt.text, prompt.forModel, history, blocks), running.runOptions());
  return running.drive(first);
}

/**
 * The turn a prompt begins: a new run of a slash command's `input`, or the answers to the last
 * turn's questions (with the approvals given before them) when it asked any, or a new run.
 */
function turnRecord(record: AcpSessionRecordView, prompt: PromptMessage, blocks: AcpContentBlock[], input: unknown, answer: TurnSettings["answer"]): AcpTurnRecord {
  const pending = record.pending ?? [];
  const turn: AcpTurnRecord = { kind: pending.length > 0 && input === undefined ? "resume" : "invoke", user: prompt.forHistory, blocks, startedAt: new Date().toISOString() };
  if (input !== undefined) {
    turn.input = input;
  } else if (pending.length > 0) {
    const answers: Record<string, unknown> = { ...record.answered };
    for (const interrupt of pending) {
      answers[interrupt.id] = answer ? answer(prompt.text, interrupt) : answerInWords(interrupt, prompt.text);
    }
    turn.answers = answers;
  }
  return turn;
}
