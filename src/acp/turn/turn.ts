// One turn of a session: starts the prompt's run (or resumes the paused one with the prompt's
// answers), streams the run's events to the editor and keeps the conversation as each step becomes
// durable, asks the person for each tool approval and resumes, asks questions (as forms, and the
// run resumes; or in words, and the turn stops there), and finishes: leaves the conversation as
// docs/sessions.md says for how the turn ended, and writes the session. A turn's end is a value
// (turn-end.ts); it never builds a wire error.

import type { ElicitationSchema, ToolCallUpdate } from "@agentclientprotocol/sdk";

import { isToolApproval, type ToolApprovalAnswer, type ToolApprovalRequest } from "../../agent/tool-approval.js";
import { createMessageId } from "../../graph/messages.js";
import type { JsonObject } from "../../types/json.js";
import type { Logger } from "../../types/logger.js";
import type { AssistantMessage, Message } from "../../types/messages.js";
import type { Principal } from "../../types/principal.js";
import type { ProtocolGraph, ProtocolInterrupt, ProtocolResult, ProtocolRun, ProtocolRunOptions } from "../../graph/protocol-graph.js";
import { type AcpContentBlock, promptToMessage } from "../mapping/content.js";
import { settleFailedTurn } from "./failed-turn.js";
import { isToolQuestion } from "../../agent/tool-question.js";
import { approvalToolCall } from "../asking/approval-tool-call.js";
import { LiveToolCalls } from "./live-tool-calls.js";
import { editedInput, editFirstForm } from "../asking/edit-first.js";
import type { FormOutcome, FormRequest } from "../asking/elicitation.js";
import type { HeldUpdates } from "../session/held-updates.js";
import { WHOLE_TOOL } from "../record/permission-grants.js";
import type { PermissionLedger } from "../asking/permission-ledger.js";
import type { PermissionChoice, PermissionOffer } from "../asking/permissions.js";
import { answerInWords, askingToolCall, formAnswer, planQuestion, type QuestionPlan, questionText } from "../asking/questions.js";
import type { SessionCommands } from "../surface/session-commands.js";
import type { SessionConfig } from "../surface/session-config.js";
import { PromptTooLargeError } from "../errors/request-errors.js";
import { storeFailure, TurnFailedError, notWritten } from "../errors/session-errors.js";
import type { AcpSessionInfo, AcpTurnRecord } from "../record/session-store.js";
import type { SessionTitle } from "../surface/session-title.js";
import type { SessionUsage } from "../surface/session-usage.js";
import type { StoredSession } from "../session/stored-session.js";
import type { Transcript } from "./transcript.js";
import { type AcpStopReason, ended, failed, stopReasonOf, type TurnEnd } from "./turn-end.js";
import type { UpdateSink } from "../session/update-sink.js";
import { eventUpdates, toolCallUpdate, type UpdateContext } from "../mapping/updates.js";
import { textChunk } from "../mapping/text-chunk.js";

/** The integrator's choices that shape a turn (see AcpOptions). */
export interface TurnSettings {
  principal: Principal | undefined;
  input: ((prompt: string, session: AcpSessionInfo, history: Message[], blocks: AcpContentBlock[]) => unknown) | undefined;
  answer: ((prompt: string, interrupt: ProtocolInterrupt) => unknown) | undefined;
  failures: "error" | "message";
  maxPromptBytes: number;
}

/** What a turn works with: its session's parts, and the integrator's choices. */
export interface TurnParts {
  graph: ProtocolGraph;
  /** The session's record and its writes. */
  session: StoredSession;
  /** Where the session's updates go. */
  updates: UpdateSink;
  /** Where updates about the session itself go: held until the editor knows the session. */
  held: HeldUpdates;
  /** The session's config values and mode, which its runs see. */
  config: SessionConfig;
  /** The session's slash commands. */
  commands: SessionCommands;
  /** What the session's model calls used and cost. */
  usage: SessionUsage;
  /** The session's title. */
  title: SessionTitle;
  /** The messages of the run so far, as events finish them. */
  transcript: Transcript;
  /** How tool calls look in this session's updates. */
  view: UpdateContext;
  /** The project's permission grants: the "always" answers that answer a call without asking. */
  ledger: PermissionLedger;
  /** Asks the person about a tool call (session/request_permission). */
  askPermission: (toolCall: ToolCallUpdate, toolName: string, signal: AbortSignal, offer?: PermissionOffer) => Promise<PermissionChoice>;
  /** Whether the editor shows forms (it advertised `elicitation.form`). */
  showsForms: () => boolean;
  /** Asks the person to fill in a form (elicitation/create); only when `showsForms()`. */
  askForm: (form: FormRequest, signal: AbortSignal) => Promise<FormOutcome>;
  /** Messages for the person to show at the start of the turn (an MCP server that failed). */
  notices: () => Promise<string[]>;
  logger: Logger;
  settings: TurnSettings;
}

/** How one turn is run, beyond its session's settings. */
export interface TurnOptions {
  /**
   * Nobody is at the client (a script's run; see UNATTENDED_META): no standing grant answers an
   * approval, so the client's policy answers each, and a failed run answers the prompt with an
   * error even when the session's failures are told as a message.
   */
  unattended?: boolean | undefined;
}

export interface DriveOptions {
  /**
   * Looks at each outcome first: a run that replaces it (the turn starts over) or undefined. It is
   * asked until it gives a run, once.
   */
  restartOn?: ((outcome: ProtocolResult) => ProtocolRun | undefined) | undefined;
  /** Called with a completed run's final state before the turn finishes. */
  completing?: ((state: unknown) => Promise<void>) | undefined;
}

/**
 * Starts the turn of a prompt: puts the prompt in the conversation, marks the turn as in progress
 * and writes both before anything runs, then drives the run to the turn's end. A prompt over the
 * size limit, or one the store cannot take, ends the turn before anything ran, the session as it was.
 * `input`, from a slash command, is the graph's input instead of the prompt's (a new run, even
 * when the last turn asked a question).
 */
export async function startTurn(parts: TurnParts, blocks: AcpContentBlock[], signal: AbortSignal, input?: unknown, options: TurnOptions = {}): Promise<TurnEnd> {
  const { settings } = parts;
  const size = blocks.reduce((total, block) => total + JSON.stringify(block).length, 0);
  if (size > settings.maxPromptBytes) {
    return failed(new PromptTooLargeError(size, settings.maxPromptBytes));
  }
  const record = parts.session.record;
  const prompt = promptToMessage(blocks);
  const history = record.history.slice();
  const pending = record.pending ?? [];
  const turn: AcpTurnRecord = { kind: pending.length > 0 && input === undefined ? "resume" : "invoke", user: prompt.forHistory, blocks, startedAt: new Date().toISOString() };
  if (input !== undefined) {
    turn.input = input;
  } else if (pending.length > 0) {
    const answers: Record<string, unknown> = { ...record.answered };
    for (const interrupt of pending) {
      answers[interrupt.id] = settings.answer ? settings.answer(prompt.text, interrupt) : answerInWords(interrupt, prompt.text);
    }
    turn.answers = answers;
  }
  try {
    await parts.session.beginTurn(turn);
  } catch (error) {
    // Nothing ran: the session is as it was (beginTurn took the prompt back); say why.
    return failed(storeFailure(error));
  }
  parts.title.prompted();
  for (const notice of await parts.notices()) {
    void parts.updates.send(textChunk(`${notice}\n\n`));
  }
  const running = new Turn(parts, turn, history.length, signal, options);
  const first =
    turn.kind === "resume" && turn.answers
      ? parts.graph.resume(turn.answers, running.runOptions())
      : parts.graph.run(running.input(prompt.text, prompt.forModel, history, blocks), running.runOptions());
  return running.drive(first);
}

/** What the conversation keeps after a cancelled turn, so a replay (and the model) can tell it did not end normally. */
export const CANCELLED_NOTE = "[This turn was cancelled.]";

function cancelledNote(): AssistantMessage {
  return { id: createMessageId("cancelled"), role: "assistant", parts: [{ type: "text", text: CANCELLED_NOTE }], createdAt: new Date().toISOString() };
}

export class Turn {
  /** How the turn's tool calls were last shown, kept with their results. */
  private readonly live = new LiveToolCalls();

  /** Whether this turn showed the editor the call (by its session id) completed or failed. */
  showedEnd(toolCallId: string): boolean {
    return this.live.hasEnded(toolCallId);
  }

  constructor(
    private readonly parts: TurnParts,
    /** The turn as the session keeps it while it is in progress. */
    readonly record: Readonly<AcpTurnRecord>,
    /** Where the turn's prompt is in the conversation. */
    readonly start: number,
    private readonly signal: AbortSignal,
    private readonly options: TurnOptions = {},
  ) {}

  /** The run id of the turn: the same for every run of it, so a restart can tell whose run a thread holds. */
  get runId(): string {
    return `turn:${this.parts.session.id}:${this.record.startedAt}`;
  }

  /** The options of each run of the turn; its config is read again before each step, so a change made mid-turn applies from the next. */
  runOptions(): ProtocolRunOptions & { runId: string } {
    const config = this.parts.config;
    const options: ProtocolRunOptions & { runId: string } = {
      threadId: this.parts.session.id,
      runId: this.runId,
      signal: this.signal,
      config: () => config.values(),
      cwd: this.parts.session.info.cwd,
    };
    if (this.parts.settings.principal) {
      options.principal = this.parts.settings.principal;
    }
    return options;
  }

  /** The graph's input for the prompt: a slash command's, the integrator's `input`, or the conversation with the prompt. */
  input(text: string, user: Message, history: Message[], blocks: AcpContentBlock[]): unknown {
    if (this.record.input !== undefined) {
      return this.record.input;
    }
    const { input } = this.parts.settings;
    return input ? input(text, this.parts.session.info, history, blocks) : { messages: [...history, user] };
  }

  /**
   * Streams runs of the turn until it ends: each approval the graph asks for becomes a permission
   * request and the run resumes; so does each question asked as a form; questions asked in words
   * end the turn and wait for the next prompt; a question that asks for a secret fails the turn.
   */
  async drive(first: ProtocolRun, options: DriveOptions = {}): Promise<TurnEnd> {
    let run = first;
    let outcome: ProtocolResult;
    let restartOn = options.restartOn;
    for (;;) {
      await this.stream(run);
      outcome = await run.outcome;
      const again = restartOn?.(outcome);
      if (again) {
        run = again;
        restartOn = undefined;
        continue;
      }
      if (outcome.status !== "interrupted") {
        break;
      }
      const approvals: Array<{ id: string; request: ToolApprovalRequest }> = [];
      const questions: Array<{ interrupt: ProtocolInterrupt; plan: QuestionPlan }> = [];
      const showsForms = this.parts.showsForms();
      for (const interrupt of outcome.interrupts) {
        if (isToolApproval(interrupt.value)) {
          approvals.push({ id: interrupt.id, request: interrupt.value });
        } else {
          questions.push({ interrupt, plan: planQuestion(interrupt, showsForms) });
        }
      }
      // Before anything is asked: a question that may not be asked at all ends the turn.
      const refused = questions.find((question) => question.plan.how === "refused")?.plan;
      if (refused?.how === "refused") {
        return this.finish({ status: "failed", error: refused.error });
      }
      const answers: Record<string, unknown> = {};
      for (const { id, request } of approvals) {
        const answer = await this.approve(request);
        if (answer === "cancelled") {
          return this.finish({ status: "cancelled" });
        }
        answers[id] = answer;
      }
      const inWords: ProtocolInterrupt[] = [];
      for (const { interrupt, plan } of questions) {
        const answer = plan.how === "form" ? await this.askInForm(interrupt, plan.form, plan.message) : undefined;
        if (answer === "cancelled") {
          return this.finish({ status: "cancelled" });
        }
        if (answer === undefined) {
          inWords.push(interrupt);
        } else {
          answers[interrupt.id] = answer;
        }
      }
      if (inWords.length > 0) {
        await this.ask(inWords);
        this.parts.session.waitForAnswers(inWords, answers);
        return this.finish(outcome, inWords.map(questionText));
      }
      if (this.signal.aborted) {
        return this.finish({ status: "cancelled" });
      }
      run = this.parts.graph.resume(answers, this.runOptions());
    }
    if (options.completing && outcome.status === "completed") {
      await options.completing(outcome.output);
    }
    return this.finish(outcome);
  }

  /**
   * Announces a call this editor was never shown (a turn carried on after a crash, whose record
   * missed the call) before asking about it, so what follows about it has a call to update.
   */
  private async announceUnseen(toolCallId: string, toolName: string, input: unknown): Promise<void> {
    const { view, updates } = this.parts;
    if (view.ids.has(toolCallId)) {
      return;
    }
    const announced = toolCallUpdate(view, view.ids.allocate(toolCallId), toolName, input, "pending");
    this.live.noteUpdate(announced);
    await updates.send(announced);
  }

  /**
   * The answer to an approval: a grant's (the project's ledger, or an answer this session kept
   * from before the ledger), or the person's; `cancelled` when the turn was. A ledger that cannot
   * be read answers nothing: the person is asked. An "always" answer becomes a grant for the
   * call's scope; a call that can have none is not offered one. An unattended turn consults no
   * grant: the client's policy answers every call.
   */
  private async approve(request: ToolApprovalRequest): Promise<ToolApprovalAnswer | "cancelled"> {
    const { session, view, logger, ledger } = this.parts;
    if (!this.options.unattended) {
      const remembered = session.remembered(request.toolName);
      if (remembered === false) {
        return { decision: "reject", reason: `The person chose to always reject ${request.toolName}.` };
      }
      if (remembered === true && request.scope === undefined) {
        return { decision: "approve" };
      }
      const known = await ledger.lookup(request);
      if (known.found === "grant") {
        const what = known.grant.scope === WHOLE_TOOL ? request.toolName : `${request.toolName} for ${known.grant.label}`;
        return known.grant.allow ? { decision: "approve" } : { decision: "reject", reason: `The person chose to always reject ${what}.` };
      }
    }
    await this.announceUnseen(request.toolCallId, request.toolName, request.input);
    // What the person approves: the tool's title, files and description of the call (its diff).
    const toolCall = approvalToolCall(view, request);
    this.live.noteToolCall(toolCall);
    const editForm = this.parts.showsForms() ? editFirstForm(request) : undefined;
    const offer: PermissionOffer = { editFirst: editForm !== undefined };
    if (request.scope !== undefined) {
      // What "always" covers: the call's scope, or nothing for a call that can have none (without a scope, the tool).
      offer.always = request.scope === false ? false : request.scope.label;
    }
    const choice = await this.parts.askPermission(toolCall, request.toolName, this.signal, offer);
    switch (choice.decision) {
      case "cancelled":
        return "cancelled";
      case "failed":
        logger.warn("The permission request failed; the tool call is rejected", { sessionId: session.id, error: choice.error });
        return { decision: "reject", reason: "The permission request failed." };
      case "edit":
        return editForm ? this.editFirst(request, toolCall, editForm) : { decision: "reject" };
      case "allow":
      case "reject":
        if (choice.always && request.scope !== false) {
          await ledger.grant(request, choice.decision === "allow");
        }
        if (choice.decision === "allow") {
          return { decision: "approve" };
        }
        return choice.policy === undefined ? { decision: "reject" } : { decision: "reject", by: "policy", reason: choice.policy };
    }
  }

  /**
   * "Edit first": the call's input in a form, filled in; what the person accepts is the input the
   * call runs with. Anything else (declined, dismissed, failed) rejects the call: only an explicit
   * choice lets it run.
   */
  private async editFirst(request: ToolApprovalRequest, toolCall: ToolCallUpdate, form: ElicitationSchema): Promise<ToolApprovalAnswer | "cancelled"> {
    const message = `Edit the input of ${toolCall.title ?? request.toolName} before it runs.`;
    const outcome = await this.parts.askForm({ message, schema: form, toolCallId: toolCall.toolCallId }, this.signal);
    switch (outcome.action) {
      case "withdrawn":
        return "cancelled";
      case "accept":
        return { decision: "edit", input: editedInput(request.input as JsonObject, form, outcome.content) };
      case "failed":
        this.parts.logger.warn("The form to edit a tool call's input failed; the tool call is rejected", { sessionId: this.parts.session.id, error: outcome.error });
        return { decision: "reject", reason: "The form to edit the input failed." };
      case "decline":
      case "cancel":
        return { decision: "reject", reason: "The person chose to edit the input first, then closed the form without running it." };
    }
  }

  /**
   * Asks a question as a form. Its answer for the run (a FormAnswer), `cancelled` when the turn
   * was, or undefined when the form failed and the question is to be asked in words instead.
   */
  private async askInForm(interrupt: ProtocolInterrupt, form: ElicitationSchema, message: string): Promise<unknown> {
    const { view, session, logger } = this.parts;
    const asking = askingToolCall(interrupt);
    const request: FormRequest = { message, schema: form };
    if (asking !== undefined) {
      await this.announceUnseen(asking, isToolQuestion(interrupt.value) ? interrupt.value.toolName : "ask", undefined);
      request.toolCallId = view.ids.of(asking);
    }
    const outcome = await this.parts.askForm(request, this.signal);
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
  private async ask(questions: ProtocolInterrupt[]): Promise<void> {
    const text = questions.map(questionText).join("\n\n");
    const message: AssistantMessage = { id: createMessageId("question"), role: "assistant", parts: [{ type: "text", text }], createdAt: new Date().toISOString() };
    await this.parts.updates.send(textChunk(text, message.id));
    this.parts.transcript.observe({ type: "message", message });
  }

  /** Forwards a run's events as updates and keeps the conversation as each step becomes durable. */
  private async stream(run: ProtocolRun): Promise<void> {
    const { session, updates, transcript, view, usage } = this.parts;
    for await (const event of run) {
      for (const update of eventUpdates(event, view)) {
        this.live.noteUpdate(update);
        const written = updates.send(update);
        if (written) {
          await written;
        }
      }
      if (event.type === "notice") {
        this.parts.logger.info("Notice", { sessionId: session.id, severity: event.severity, title: event.title, description: event.description });
      } else if (event.type === "compaction") {
        this.parts.logger.info("Compaction", { sessionId: session.id, compactionId: event.compactionId, status: event.status, error: event.error });
      }
      usage.observe(event);
      transcript.observe(event);
      if (event.type === "checkpoint") {
        const finished = this.live.dress(transcript.take(event.status !== "interrupted"), view.ids);
        if (finished.length > 0) {
          session.addMessages(finished);
          session.persist().catch(() => undefined);
        }
      }
    }
  }

  /**
   * Ends the turn: the conversation takes what the run finished (a refused prompt leaves it, a
   * failed turn is settled as settleFailedTurn says), the turn is no longer in progress, and the
   * session is written. When that write fails, the prompt is answered with the store's error and
   * taken back unless a tool ran; the store still has the turn in progress (see StoredSession.claim).
   * `waiting`: the questions the turn asked in words, which its end names.
   */
  private async finish(outcome: ProtocolResult, waiting?: string[]): Promise<TurnEnd> {
    const { session, updates, transcript, view, logger, settings } = this.parts;
    // Nobody reads an unattended turn's reply: its failure is the prompt's error.
    const failures = this.options.unattended ? "error" : settings.failures;
    session.addMessages(this.live.dress(transcript.take(outcome.status !== "interrupted"), view.ids));
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
        session.replaceMessagesFrom(this.start, []);
      }
    } else if (outcome.status === "failed") {
      logger.error("The agent's run failed", { sessionId: session.id, error: outcome.error.message });
      const shown = failures === "message" ? outcome.error.message : undefined;
      ran = session.record.history;
      session.replaceHistory(settleFailedTurn(ran, this.start, { error: outcome.error, shown }));
      failureMessage = shown === undefined ? undefined : (session.record.history.at(-1) as AssistantMessage);
    }
    session.endTurn(this.record);
    await updates.flush();
    try {
      await session.persist();
    } catch (error) {
      const failure = storeFailure(error);
      if (notWritten(failure)) {
        session.replaceHistory(settleFailedTurn(ran ?? session.record.history, this.start, { error: failure }));
        session.leaveUnsaved(this.record);
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
}
