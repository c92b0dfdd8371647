// A turn under way: streams its runs until the turn ends, resuming after each approval the person
// gave and each question answered in a form, stopping at questions asked in words, and finishing
// (finish-turn.ts). Each job is a file of its own, given only what it uses: streaming
// (stream-run.ts), approvals (approve-call.ts), questions (ask-questions.ts), the end
// (finish-turn.ts). Starting a turn is turn.ts; carrying one on after a crash, carry-on.ts.

import { isToolApproval, type ToolApprovalRequest } from "../../agent/tool-approval.js";
import type { ProtocolGraph, ProtocolInterrupt, ProtocolResult, ProtocolRun, ProtocolRunOptions } from "../../graph/protocol-graph.js";
import type { Message } from "../../types/messages.js";
import type { Principal } from "../../types/principal.js";
import { planQuestion, type QuestionPlan, questionText } from "../asking/questions.js";
import type { AcpContentBlock } from "../mapping/content.js";
import type { AcpSessionInfo, AcpTurnRecord } from "../record/session-store.js";
import type { StoredSession } from "../session/stored-session.js";
import type { SessionConfig } from "../surface/session-config.js";
import { type ApproveInputs, approveCall } from "./approve-call.js";
import { askInForm, type AskInputs, askInWords } from "./ask-questions.js";
import { type FinishInputs, finishTurn } from "./finish-turn.js";
import { LiveToolCalls } from "./live-tool-calls.js";
import { type StreamInputs, streamRun } from "./stream-run.js";
import type { TurnEnd } from "./turn-end.js";

/** The integrator's choices that shape a turn (see AcpOptions). */
export interface TurnSettings {
  principal: Principal | undefined;
  input: ((prompt: string, session: AcpSessionInfo, history: Message[], blocks: AcpContentBlock[]) => unknown) | undefined;
  answer: ((prompt: string, interrupt: ProtocolInterrupt) => unknown) | undefined;
  failures: "error" | "message";
  maxPromptBytes: number;
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

/** What a turn under way works with: what each of its jobs takes, the graph, and the integrator's choices. */
export type DriveInputs = StreamInputs &
  ApproveInputs &
  AskInputs &
  FinishInputs & {
    graph: ProtocolGraph;
    /** The session's id and info, and the questions the turn leaves open. */
    session: Pick<StoredSession, "id" | "info" | "waitForAnswers">;
    /** The session's config values and mode, which its runs see. */
    config: Pick<SessionConfig, "values">;
    settings: TurnSettings;
  };

export class Turn {
  /** How the turn's tool calls were last shown, kept with their results. */
  private readonly live = new LiveToolCalls();

  constructor(
    private readonly inputs: DriveInputs,
    /** The turn as the session keeps it while it is in progress. */
    readonly record: Readonly<AcpTurnRecord>,
    /** Where the turn's prompt is in the conversation. */
    readonly start: number,
    private readonly signal: AbortSignal,
    private readonly options: TurnOptions = {},
  ) {}

  /** Whether this turn showed the editor the call (by its session id) completed or failed. */
  showedEnd(toolCallId: string): boolean {
    return this.live.hasEnded(toolCallId);
  }

  /** The run id of the turn: the same for every run of it, so a restart can tell whose run a thread holds. */
  get runId(): string {
    return `turn:${this.inputs.session.id}:${this.record.startedAt}`;
  }

  /** The options of each run of the turn; its config is read again before each step, so a change made mid-turn applies from the next. */
  runOptions(): ProtocolRunOptions & { runId: string } {
    const { config, session, settings } = this.inputs;
    const options: ProtocolRunOptions & { runId: string } = {
      threadId: session.id,
      runId: this.runId,
      signal: this.signal,
      config: () => config.values(),
      cwd: session.info.cwd,
    };
    if (settings.principal) {
      options.principal = settings.principal;
    }
    return options;
  }

  /** The graph's input for the prompt: a slash command's, the integrator's `input`, or the conversation with the prompt. */
  input(text: string, user: Message, history: Message[], blocks: AcpContentBlock[]): unknown {
    if (this.record.input !== undefined) {
      return this.record.input;
    }
    const { input } = this.inputs.settings;
    return input ? input(text, this.inputs.session.info, history, blocks) : { messages: [...history, user] };
  }

  /**
   * Streams runs of the turn until it ends: each approval the graph asks for becomes a permission
   * request and the run resumes; so does each question asked as a form; questions asked in words
   * end the turn and wait for the next prompt; a question that asks for a secret fails the turn.
   */
  async drive(first: ProtocolRun, options: DriveOptions = {}): Promise<TurnEnd> {
    const { inputs, live, signal } = this;
    const unattended = Boolean(this.options.unattended);
    let run = first;
    let outcome: ProtocolResult;
    let restartOn = options.restartOn;
    for (;;) {
      await streamRun(run, inputs, live);
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
      const showsForms = inputs.showsForms();
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
        const answer = await approveCall(request, inputs, { live, signal, unattended });
        if (answer === "cancelled") {
          return this.finish({ status: "cancelled" });
        }
        answers[id] = answer;
      }
      const inWords: ProtocolInterrupt[] = [];
      for (const { interrupt, plan } of questions) {
        const answer = plan.how === "form" ? await askInForm(interrupt, plan.form, plan.message, inputs, live, signal) : undefined;
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
        await askInWords(inWords, inputs);
        inputs.session.waitForAnswers(inWords, answers);
        return this.finish(outcome, inWords.map(questionText));
      }
      if (signal.aborted) {
        return this.finish({ status: "cancelled" });
      }
      run = inputs.graph.resume(answers, this.runOptions());
    }
    if (options.completing && outcome.status === "completed") {
      await options.completing(outcome.output);
    }
    return this.finish(outcome);
  }

  private finish(outcome: ProtocolResult, waiting?: string[]): Promise<TurnEnd> {
    // Nobody reads an unattended turn's reply: its failure is the prompt's error.
    const failures = this.options.unattended ? "error" : this.inputs.settings.failures;
    return finishTurn(outcome, this.inputs, { record: this.record, start: this.start, live: this.live, failures }, waiting);
  }
}
