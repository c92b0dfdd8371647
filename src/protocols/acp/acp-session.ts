// One open session: runs its prompt turns one at a time, streams each run's events to the editor,
// asks for permissions, keeps the conversation and the turn in progress in the session store, and
// maps the run's outcome to a stop reason.

import { type AgentContext, methods, RequestError } from "@agentclientprotocol/sdk";

import { WeftError } from "../../errors/weft-error.js";
import { isToolApproval, type ToolApprovalAnswer, type ToolApprovalRequest } from "../../agent/tool-approval.js";
import { createMessageId, messageText } from "../../graph/messages.js";
import type { RunFinish } from "../../graph/run-outcome.js";
import type { AssistantMessage, Message } from "../../types/messages.js";
import type { Logger } from "../../types/logger.js";
import type { Principal } from "../../types/principal.js";
import type { ProtocolGraph, ProtocolInterrupt, ProtocolResult, ProtocolRun } from "../shared.js";
import { type AcpContentBlock, promptToMessage } from "./content.js";
import type { AcpEditorBridge } from "./editor-bridge.js";
import { settleFailedTurn } from "./failed-turn.js";
import { requestPermission } from "./permissions.js";
import { fromStore, SessionBusyError, SessionNotFoundError, storeFailure, TurnFailedError } from "./session-errors.js";
import { questionText } from "./questions.js";
import type { AcpSessionClaim, AcpSessionInfo, AcpSessionRecord, AcpSessionStore, AcpTurnRecord } from "./session-store.js";
import { type AcpToolKind, ToolCallIds, toolContent } from "./tool-calls.js";
import { Transcript, turnMessagesOf } from "./transcript.js";
import { type AcpSessionUpdate, eventUpdates, replayUpdates, toolCallUpdate, type UpdateContext } from "./updates.js";

/** Why a prompt's turn ended. */
export type AcpStopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";

/** What every session of one connection shares. */
export interface SessionServices {
  graph: ProtocolGraph;
  client: AgentContext;
  store: AcpSessionStore;
  logger: Logger;
  principal: Principal | undefined;
  editor: AcpEditorBridge | undefined;
  kind: (name: string, args: unknown) => AcpToolKind;
  input: ((prompt: string, session: AcpSessionInfo, history: Message[], blocks: AcpContentBlock[]) => unknown) | undefined;
  answer: ((prompt: string, interrupt: ProtocolInterrupt) => unknown) | undefined;
  contentLimit: number;
  maxPromptBytes: number;
  failures: "error" | "message";
}

/** How many notifications may wait in the write queue before a turn waits for them. */
const WRITE_WINDOW = 256;

export class LiveSession {
  readonly ids = new ToolCallIds();
  private transcript = new Transcript();
  private always: Map<string, boolean>;
  /** The turn running now, and prompts waiting for it. */
  private current: AbortController | undefined;
  private readonly waiting = new Set<AbortController>();
  private queue: Promise<void> = Promise.resolve();
  private persisting: Promise<void> = Promise.resolve();
  private writes = 0;
  private lastWrite: Promise<void> = Promise.resolve();
  /** The turn whose end could not be written (the store was down); the store still has it in progress. */
  private unsaved: AcpTurnRecord | undefined;

  constructor(
    private readonly services: SessionServices,
    public record: AcpSessionRecord,
  ) {
    this.always = new Map(record.always);
  }

  get id(): string {
    return this.record.info.id;
  }

  get info(): AcpSessionInfo {
    return this.record.info;
  }

  get busy(): boolean {
    return this.current !== undefined || this.waiting.size > 0;
  }

  /**
   * Runs a prompt. Prompts of one session run one after another in the order they arrive; one that
   * comes while a turn runs waits for it (a `session/cancel` also withdraws prompts already waiting).
   */
  async prompt(blocks: AcpContentBlock[], requestSignal: AbortSignal): Promise<AcpStopReason> {
    const { logger } = this.services;
    const started = Date.now();
    try {
      const stopReason = await this.exclusive(requestSignal, async (signal) => {
        logger.info("Turn started", { sessionId: this.id, blocks: blocks.length });
        const claim = await this.claimTurn();
        try {
          return await this.runPrompt(blocks, signal);
        } finally {
          await claim?.release();
        }
      });
      logger.info("Turn ended", { sessionId: this.id, stopReason, durationMs: Date.now() - started });
      return stopReason;
    } catch (error) {
      logger.info("Turn ended with an error", { sessionId: this.id, error: error instanceof Error ? error.message : String(error), durationMs: Date.now() - started });
      throw error;
    }
  }

  /**
   * Carries on the turn the session was in the middle of when its agent stopped (a crash, a kill):
   * the run continues from its last checkpoint, or starts over when it never reached one, and a
   * question or approval it was waiting on is asked again. Resolves when the turn has ended or
   * waits for the person; `session/load` answers after that.
   */
  async carryOn(): Promise<void> {
    if (!this.record.turn) {
      return;
    }
    await this.exclusive(undefined, async (signal) => {
      let claim: AcpSessionClaim | undefined;
      try {
        claim = await this.claimTurn();
      } catch (error) {
        this.services.logger.warn("The interrupted turn was not carried on", { sessionId: this.id, error: String(error) });
        return "end_turn";
      }
      try {
        const turn = this.record.turn;
        if (!turn) {
          return "end_turn";
        }
        const restarted = await this.restart(turn, signal);
        if (!restarted) {
          return "end_turn";
        }
        const started = Date.now();
        this.services.logger.info("Turn carried on", { sessionId: this.id, startedAt: turn.startedAt });
        const turnStart = Math.max(0, this.record.history.findIndex((message) => message.id === turn.user.id));
        const stopReason = await this.drive(restarted.run, turn, turnStart, signal, { recover: true, ...(restarted.startOver ? { startOver: restarted.startOver } : {}) });
        this.services.logger.info("Turn ended", { sessionId: this.id, stopReason, durationMs: Date.now() - started });
        return stopReason;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.services.logger.warn("The interrupted turn could not be finished", { sessionId: this.id, error: message });
        void this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `The turn that was in progress could not be finished: ${message}` } });
        await this.flushWrites();
        return "end_turn";
      } finally {
        await claim?.release();
      }
    });
  }

  /**
   * The run that carries a stopped turn on, or undefined when another process is running it. When
   * the thread was claimed for the turn, the run continues from its last checkpoint, and
   * `startOver` starts the turn again in case the agent died before the run's first checkpoint.
   */
  private async restart(turn: AcpTurnRecord, signal: AbortSignal): Promise<{ run: ProtocolRun; startOver?: (() => ProtocolRun) | undefined } | undefined> {
    const { graph } = this.services;
    const options = this.runOptions(turn, signal);
    const thread = await graph.thread?.(this.id);
    if (thread?.status === "running") {
      return undefined;
    }
    const startOver = (): ProtocolRun => {
      if (turn.kind === "resume" && turn.answers) {
        return graph.resume(turn.answers, options);
      }
      const position = this.record.history.findIndex((message) => message.id === turn.user.id);
      const history = position >= 0 ? this.record.history.slice(0, position) : this.record.history.slice();
      return graph.run(this.input(messageText(turn.user), turn.user, history, turn.blocks ?? []), options);
    };
    if (thread && thread.runId === options.runId && graph.continue) {
      // A resume carries on from the paused step whatever happened; a new turn may have no step yet.
      return turn.kind === "invoke" ? { run: graph.continue(options), startOver } : { run: graph.continue(options) };
    }
    return { run: startOver() };
  }

  /**
   * True when carrying a turn on found no checkpoint of it: the thread has nothing to continue, or
   * (with the default input) its state does not hold the turn's prompt, so the run never began.
   */
  private neverCheckpointed(turn: AcpTurnRecord, outcome: ProtocolResult): boolean {
    if (outcome.status === "failed") {
      return WeftError.isInstance(outcome.error) && outcome.error.code === "nothing_to_continue";
    }
    if (outcome.status !== "completed" || this.services.input) {
      return false;
    }
    return Array.isArray((outcome.output as { messages?: unknown } | undefined)?.messages) && turnMessagesOf(outcome.output, turn.user.id) === undefined;
  }

  /** Runs `work` once every earlier prompt of this session is done, unless cancelled first. */
  private async exclusive(requestSignal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<AcpStopReason>): Promise<AcpStopReason> {
    const controller = new AbortController();
    const onRequestCancel = () => controller.abort();
    requestSignal?.addEventListener("abort", onRequestCancel, { once: true });
    this.waiting.add(controller);
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise((resolve) => {
      release = resolve;
    });
    try {
      await previous;
      this.waiting.delete(controller);
      if (controller.signal.aborted) {
        return "cancelled";
      }
      this.current = controller;
      return await work(controller.signal);
    } finally {
      this.waiting.delete(controller);
      this.current = undefined;
      requestSignal?.removeEventListener("abort", onRequestCancel);
      release();
    }
  }

  /**
   * With a store that processes share: claims the session for this turn and re-reads it, so the
   * turn starts from what any other process last wrote.
   */
  private async claimTurn(): Promise<AcpSessionClaim | undefined> {
    const { store } = this.services;
    if (!store.claim) {
      return undefined;
    }
    const claim = await fromStore(() => store.claim?.(this.id));
    if (!claim) {
      throw new SessionBusyError(this.id);
    }
    try {
      const fresh = await fromStore(() => store.get(this.id));
      if (!fresh) {
        // Another process deleted it since this one opened it.
        throw new SessionNotFoundError(this.id);
      }
      const unsaved = this.unsaved;
      this.unsaved = undefined;
      // Unless the store holds only what this process could not write when the last turn ended.
      if (!unsaved || fresh.turn?.startedAt !== unsaved.startedAt || fresh.turn.user.id !== unsaved.user.id) {
        this.adopt(fresh);
      }
    } catch (error) {
      await claim.release();
      throw error;
    }
    return claim;
  }

  /** Takes the stored record as the truth, keeping this connection's view of the session (cwd, MCP servers). */
  private adopt(fresh: AcpSessionRecord): void {
    this.record = { ...fresh, info: this.record.info };
    this.always = new Map(fresh.always);
  }

  /** Cancels the running turn and the prompts waiting behind it. */
  cancel(): void {
    this.current?.abort();
    for (const waiting of this.waiting) {
      waiting.abort();
    }
  }

  /** Sends the updates that replay the conversation; resolves when they are all written. */
  async replay(): Promise<void> {
    for (const update of replayUpdates(this.record.history, this.updateContext())) {
      await this.send(update);
    }
    await this.flushWrites();
  }

  /** Writes the record (a copy of it as it is now). Writes happen in order; the promise settles with this one. */
  persist(): Promise<void> {
    const snapshot: AcpSessionRecord = { ...this.record, history: this.record.history.slice(), always: [...this.always], updatedAt: new Date().toISOString() };
    this.record.updatedAt = snapshot.updatedAt;
    const write = this.persisting.then(() => this.services.store.put(snapshot));
    this.persisting = write.catch((error: unknown) => {
      this.services.logger.warn("Could not save the session", { sessionId: this.id, error: String(error) });
    });
    return write;
  }

  private async runPrompt(blocks: AcpContentBlock[], signal: AbortSignal): Promise<AcpStopReason> {
    const size = blocks.reduce((total, block) => total + JSON.stringify(block).length, 0);
    if (size > this.services.maxPromptBytes) {
      throw RequestError.invalidParams(
        { size, limit: this.services.maxPromptBytes },
        `The prompt is ${megabytes(size)}; this agent accepts prompts up to ${megabytes(this.services.maxPromptBytes)}.`,
      );
    }
    const prompt = promptToMessage(blocks);
    const history = this.record.history.slice();
    const pending = this.record.pending ?? [];
    const turn: AcpTurnRecord = { kind: pending.length > 0 ? "resume" : "invoke", user: prompt.forHistory, blocks, startedAt: new Date().toISOString() };
    if (pending.length > 0) {
      const answers: Record<string, unknown> = { ...this.record.answered };
      for (const interrupt of pending) {
        answers[interrupt.id] = this.services.answer ? this.services.answer(prompt.text, interrupt) : prompt.text;
      }
      turn.answers = answers;
    }
    this.record.history.push(prompt.forHistory);
    this.record.turn = turn;
    delete this.record.pending;
    delete this.record.answered;
    try {
      await this.persist();
    } catch (error) {
      // Nothing ran: take the prompt back so the session is as it was, and say why.
      this.record.history = history;
      delete this.record.turn;
      if (pending.length > 0) {
        this.record.pending = pending;
      }
      throw storeFailure(error);
    }
    for (const notice of (await this.services.editor?.takeNotices?.(this.id)) ?? []) {
      void this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${notice}\n\n` } });
    }
    const start = (): ProtocolRun =>
      turn.kind === "resume" && turn.answers
        ? this.services.graph.resume(turn.answers, this.runOptions(turn, signal))
        : this.services.graph.run(this.input(prompt.text, prompt.forModel, history, blocks), this.runOptions(turn, signal));
    return this.drive(start(), turn, history.length, signal);
  }

  /** The run id of a turn: the same for every run of the turn, so a restart can tell whose run a thread holds. */
  turnRunId(turn: AcpTurnRecord): string {
    return `turn:${this.id}:${turn.startedAt}`;
  }

  runOptions(turn: AcpTurnRecord, signal: AbortSignal): { threadId: string; runId: string; signal: AbortSignal; principal?: Principal | undefined } {
    const options: { threadId: string; runId: string; signal: AbortSignal; principal?: Principal | undefined } = { threadId: this.id, runId: this.turnRunId(turn), signal };
    if (this.services.principal) {
      options.principal = this.services.principal;
    }
    return options;
  }

  input(text: string, user: Message, history: Message[], blocks: AcpContentBlock[]): unknown {
    return this.services.input ? this.services.input(text, this.info, history, blocks) : { messages: [...history, user] };
  }

  /**
   * Streams runs of a turn until it ends: each approval the graph asks for becomes a permission
   * request and the run resumes; questions end the turn and wait for the next prompt.
   */
  async drive(
    first: ProtocolRun,
    turn: AcpTurnRecord,
    turnStart: number,
    signal: AbortSignal,
    options: { recover?: boolean | undefined; startOver?: (() => ProtocolRun) | undefined } = {},
  ): Promise<AcpStopReason> {
    let run = first;
    let outcome: ProtocolResult;
    let startOver = options.startOver;
    for (;;) {
      await this.stream(run);
      outcome = await run.outcome;
      if (startOver && this.neverCheckpointed(turn, outcome)) {
        this.services.logger.info("The turn's run had no checkpoint yet; it starts over", { sessionId: this.id });
        run = startOver();
        startOver = undefined;
        continue;
      }
      if (outcome.status !== "interrupted") {
        break;
      }
      const approvals = outcome.interrupts.filter((interrupt) => isToolApproval(interrupt.value));
      const questions = outcome.interrupts.filter((interrupt) => !isToolApproval(interrupt.value));
      const answers: Record<string, unknown> = {};
      for (const interrupt of approvals) {
        const answer = await this.approve(interrupt, signal);
        if (answer === "cancelled") {
          return this.finish(turn, turnStart, { status: "cancelled" });
        }
        answers[interrupt.id] = answer;
      }
      if (questions.length > 0) {
        await this.ask(questions);
        this.record.pending = questions;
        if (Object.keys(answers).length > 0) {
          this.record.answered = answers;
        }
        return this.finish(turn, turnStart, outcome);
      }
      if (signal.aborted) {
        return this.finish(turn, turnStart, { status: "cancelled" });
      }
      run = this.services.graph.resume(answers, this.runOptions(turn, signal));
    }
    if (options.recover && outcome.status === "completed") {
      await this.recover(turn, turnStart, outcome.output);
    }
    return this.finish(turn, turnStart, outcome);
  }

  private async approve(interrupt: ProtocolInterrupt, signal: AbortSignal): Promise<ToolApprovalAnswer | "cancelled"> {
    const request = interrupt.value as unknown as ToolApprovalRequest;
    const remembered = this.always.get(request.toolName);
    if (remembered !== undefined) {
      return remembered ? { decision: "approve" } : { decision: "reject", reason: `The person chose to always reject ${request.toolName}.` };
    }
    const context = this.updateContext();
    const { sessionUpdate: _announced, ...toolCall } = toolCallUpdate(context, context.ids.of(request.toolCallId), request.toolName, request.input, "pending");
    // The tool's own description of the call, such as where a path that is a link leads.
    if (request.title) {
      toolCall.title = request.title;
    }
    if (request.display?.length) {
      toolCall.content = toolContent(request.display, undefined, context.contentLimit);
    }
    const choice = await requestPermission(this.services.client, this.id, toolCall, request.toolName, signal);
    switch (choice.decision) {
      case "cancelled":
        return "cancelled";
      case "failed":
        this.services.logger.warn("The permission request failed; the tool call is rejected", { sessionId: this.id, error: choice.error });
        return { decision: "reject", reason: "The permission request failed." };
      case "allow":
      case "reject":
        if (choice.always) {
          this.always.set(request.toolName, choice.decision === "allow");
          void this.persist().catch(() => undefined);
        }
        return choice.decision === "allow" ? { decision: "approve" } : { decision: "reject" };
    }
  }

  /** Asks questions as the agent's message; the message is kept in the conversation. */
  private async ask(questions: ProtocolInterrupt[]): Promise<void> {
    const text = questions.map(questionText).join("\n\n");
    const message: AssistantMessage = { id: createMessageId("question"), role: "assistant", parts: [{ type: "text", text }], createdAt: new Date().toISOString() };
    await this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text }, messageId: message.id });
    this.transcript.observe({ type: "message", message });
  }

  /** Forwards a run's events as updates and keeps the conversation as each step becomes durable. */
  private async stream(run: ProtocolRun): Promise<void> {
    const context = this.updateContext();
    for await (const event of run) {
      for (const update of eventUpdates(event, context)) {
        const written = this.send(update);
        if (written) {
          await written;
        }
      }
      this.transcript.observe(event);
      if (event.type === "checkpoint") {
        const finished = this.transcript.take(event.status !== "interrupted");
        if (finished.length > 0) {
          this.record.history.push(...finished);
          this.persist().catch(() => undefined);
        }
      }
    }
  }

  /**
   * After a turn carried on from a crash: the messages of the turn that the run's final state has
   * and the conversation does not (the agent died after the run's checkpoint and before the
   * session was written) are added to it in the run's order, and shown to the editor.
   */
  private async recover(turn: AcpTurnRecord, turnStart: number, state: unknown): Promise<void> {
    if (this.record.history[turnStart]?.id !== turn.user.id) {
      return;
    }
    this.record.history.push(...this.transcript.take(true));
    const fromRun = turnMessagesOf(state, turn.user.id);
    if (!fromRun) {
      return;
    }
    const kept = this.record.history.slice(turnStart + 1);
    const keptIds = new Set(kept.map((message) => message.id));
    const missing = fromRun.filter((message) => !keptIds.has(message.id));
    if (missing.length === 0) {
      return;
    }
    const runIds = new Set(fromRun.map((message) => message.id));
    const turnMessages = kept.every((message) => runIds.has(message.id)) ? fromRun : [...kept, ...missing];
    this.record.history.splice(turnStart + 1, kept.length, ...turnMessages);
    this.services.logger.info("Recovered the end of a turn from its run", { sessionId: this.id, messages: missing.length });
    for (const update of replayUpdates(missing, this.updateContext())) {
      await this.send(update);
    }
  }

  private async finish(turn: AcpTurnRecord, turnStart: number, outcome: ProtocolResult): Promise<AcpStopReason> {
    this.record.history.push(...this.transcript.take(outcome.status !== "interrupted"));
    const ran = this.record.history;
    let stopReason: AcpStopReason = "end_turn";
    let failureMessage: AssistantMessage | undefined;
    if (outcome.status === "cancelled") {
      stopReason = "cancelled";
    } else if (outcome.status === "completed") {
      stopReason = stopReasonOf(outcome.finish);
      if (stopReason === "refusal") {
        // ACP: a refused prompt is left out of the conversation from now on.
        this.record.history.length = turnStart;
      }
    } else if (outcome.status === "failed") {
      this.services.logger.error("The agent's run failed", { sessionId: this.id, error: outcome.error.message });
      const shown = this.services.failures === "message" ? outcome.error.message : undefined;
      this.record.history = settleFailedTurn(ran, turnStart, { error: outcome.error, shown });
      failureMessage = shown === undefined ? undefined : (this.record.history.at(-1) as AssistantMessage);
    }
    if (this.record.turn === turn) {
      delete this.record.turn;
    }
    await this.flushWrites();
    try {
      await fromStore(() => this.persist());
    } catch (error) {
      if (WeftError.isInstance(error) && error.code === "store_unavailable") {
        // The prompt gets an error, so it is taken back unless a tool ran. The store still says
        // the turn is in progress; the next turn here writes this instead (see claimTurn).
        this.record.history = settleFailedTurn(ran, turnStart, { error });
        this.unsaved = turn;
      }
      throw error;
    }
    if (outcome.status === "failed") {
      if (failureMessage) {
        void this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n\n${outcome.error.message}` }, messageId: failureMessage.id });
        await this.flushWrites();
        return "end_turn";
      }
      throw new TurnFailedError(outcome.error);
    }
    return stopReason;
  }

  updateContext(): UpdateContext {
    return { cwd: this.info.cwd, ids: this.ids, kind: this.services.kind, contentLimit: this.services.contentLimit };
  }

  /**
   * Queues a notification. Returns a promise only every WRITE_WINDOW notifications, for the caller
   * to wait on, so the write queue stays bounded without waiting on every chunk.
   */
  send(update: AcpSessionUpdate): Promise<void> | undefined {
    const written = this.services.client.notify(methods.client.session.update, { sessionId: this.id, update: update as never }).catch((error: unknown) => {
      this.services.logger.debug("A session update could not be written", { sessionId: this.id, error: String(error) });
    });
    this.lastWrite = written;
    this.writes++;
    return this.writes % WRITE_WINDOW === 0 ? written : undefined;
  }

  /** Resolves when every notification queued so far has been written. */
  flushWrites(): Promise<void> {
    return this.lastWrite;
  }
}

function stopReasonOf(finish: RunFinish | undefined): AcpStopReason {
  switch (finish) {
    case "max_steps":
      return "max_turn_requests";
    case "max_tokens":
      return "max_tokens";
    case "refusal":
      return "refusal";
    default:
      return "end_turn";
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
