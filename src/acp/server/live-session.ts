// One open session: runs its prompts' turns one at a time (or the slash command a prompt names),
// carries on a turn its agent was in the middle of, replays its conversation, and tells the editor
// about itself once the editor knows it. The work is in its parts: the order of turns
// (turn-queue.ts), the record and its writes (stored-session.ts), the updates it sends
// (update-sink.ts, held-updates.ts), its commands, usage and title (session-commands.ts,
// session-usage.ts, session-title.ts), and the turn itself (turn.ts, carry-on.ts);
// session-parts.ts makes them.

import type { SessionUpdate } from "@agentclientprotocol/sdk";

import type { Principal } from "../../types/principal.js";

import { carryOnTurn } from "../turn/carry-on.js";
import { createMessageId } from "../../graph/messages.js";
import type { AcpContentBlock } from "../mapping/content.js";
import type { AcpNotice } from "../editor-bridge.js";
import { noticeUpdate } from "../mapping/notices.js";
import { textChunk } from "../mapping/text-chunk.js";
import { type ConnectionLink, SessionClients } from "../session/session-clients.js";
import type { SessionCommands } from "../surface/session-commands.js";
import type { SessionConfig } from "../surface/session-config.js";
import type { AcpSessionInfo } from "../record/session-store.js";
import { startTurn, type TurnOptions } from "../turn/turn.js";
import { ended as endedWith, failed, type TurnEnd } from "../turn/turn-end.js";
import { TurnQueue } from "../session/turn-queue.js";
import type { UpdateSink } from "../session/update-sink.js";
import { eachReplayUpdate } from "../mapping/replay-updates.js";
import { errorMessage } from "../../errors/error-message.js";
import type { SessionParts } from "./session-parts.js";

export type { AcpStopReason } from "../turn/turn-end.js";

export class LiveSession {
  private readonly queue = new TurnQueue();

  constructor(
    /** The session's parts, which its turns work with. */
    private readonly parts: SessionParts,
    /** The connections the session is open in. */
    readonly clients: SessionClients = new SessionClients(parts.session.id, false),
  ) {}

  get id(): string {
    return this.parts.session.id;
  }

  get info(): AcpSessionInfo {
    return this.parts.session.info;
  }

  /** Who the session's turns run for: the principal of the connection that opened it. */
  get principal(): Principal | undefined {
    return this.parts.settings.principal;
  }

  /** The session's config values and mode (see session-config.ts). */
  get config(): SessionConfig {
    return this.parts.config;
  }

  /** The session's slash commands (see session-commands.ts). */
  get commands(): SessionCommands {
    return this.parts.commands;
  }

  /**
   * Holds back updates about the session itself (its config, commands, usage and title) until
   * `written` settles: the answer that opened the session, which the editor must see first.
   */
  holdUpdatesUntil(written: Promise<void>): void {
    this.parts.held.holdUntil(written);
  }

  /**
   * Tells the editor about the session once it knows it: its commands, its usage, and (for a
   * session it did not just create) its title and update time.
   */
  announce(options: { title: boolean }): void {
    this.parts.commands.announce();
    this.parts.usage.announce();
    if (options.title) {
      this.parts.title.announce();
    }
  }

  /** True while a turn runs or a prompt waits for one. */
  get busy(): boolean {
    return this.queue.busy;
  }

  /**
   * Runs a prompt. Prompts of one session run one after another in the order they arrive; one that
   * comes while a turn runs waits for it (a `session/cancel` also withdraws prompts already
   * waiting). With a store that processes share, the turn first claims the session. `options`
   * shape this turn only (an unattended one, say).
   */
  async prompt(blocks: AcpContentBlock[], requestSignal: AbortSignal, from?: { link: ConnectionLink; shown: readonly SessionUpdate[] }, options: TurnOptions = {}): Promise<TurnEnd> {
    const started = Date.now();
    const ended = (fields: Record<string, unknown>) => ({ sessionId: this.id, ...fields, durationMs: Date.now() - started });
    let end: TurnEnd | "withdrawn";
    try {
      end = await this.queue.run(requestSignal, async (signal) => {
        this.parts.logger.info("Turn started", { sessionId: this.id, blocks: blocks.length });
        this.clients.beginTurn(from?.shown ?? [], (link) => link === from?.link);
        try {
          return await this.runPrompt(blocks, signal, options);
        } finally {
          this.clients.endTurn();
        }
      });
    } catch (error) {
      this.parts.logger.info("Turn ended with an error", ended({ error: errorMessage(error) }));
      throw error;
    }
    const result: TurnEnd = end === "withdrawn" ? { status: "ended", stopReason: "cancelled" } : end;
    // The session was written (the turn's update time), or a title came with it.
    this.parts.title.touched();
    await this.parts.held.flush();
    if (result.status === "failed") {
      this.parts.logger.info("Turn ended with an error", ended({ error: result.error.message }));
    } else {
      this.parts.logger.info("Turn ended", ended({ stopReason: result.stopReason }));
    }
    return result;
  }

  /** A prompt's turn, or the slash command it names, once it is the session's turn. */
  private async runPrompt(blocks: AcpContentBlock[], signal: AbortSignal, options: TurnOptions): Promise<TurnEnd> {
    let prompt: { blocks: AcpContentBlock[]; input?: unknown } = { blocks };
    const matched = this.parts.commands.match(blocks);
    if (matched) {
      this.parts.logger.info("Command run", { sessionId: this.id, command: matched.command.name });
      const outcome = await this.parts.commands.run(matched, blocks, signal);
      if (signal.aborted) {
        return endedWith("cancelled");
      }
      if ("error" in outcome) {
        return failed(outcome.error);
      }
      if ("reply" in outcome) {
        await this.reply(outcome.reply);
        return endedWith("end_turn");
      }
      prompt = outcome;
    }
    const claim = await this.parts.session.claim();
    if (!claim.claimed) {
      return failed(claim.error);
    }
    try {
      return await startTurn(this.parts, prompt.blocks, signal, prompt.input, options);
    } finally {
      await claim.release();
    }
  }

  /**
   * Carries on the turn the session was in the middle of when its agent stopped (see
   * carry-on.ts). Resolves when the turn has ended or waits for the person; `session/load`
   * answers after that. Never rejects.
   */
  async carryOn(): Promise<void> {
    if (!this.parts.session.record.turn) {
      return;
    }
    await this.queue.run(undefined, async (signal) => {
      const { turn } = this.parts.session.record;
      // The connection that loads the session has seen the turn's prompt in the replay; one that joins later sees it too.
      this.clients.beginTurn(turn ? [...eachReplayUpdate([turn.user], this.parts.view)] : [], () => true);
      try {
        await this.carryOnClaimed(signal);
      } finally {
        this.clients.endTurn();
      }
    });
  }

  private async carryOnClaimed(signal: AbortSignal): Promise<void> {
    const claim = await this.parts.session.claim();
    if (!claim.claimed) {
      this.parts.logger.warn("The interrupted turn was not carried on", { sessionId: this.id, error: String(claim.error) });
      return;
    }
    try {
      await carryOnTurn(this.parts, signal);
    } finally {
      await claim.release();
    }
  }

  /** Cancels the running turn and the prompts waiting behind it. */
  cancel(): void {
    this.queue.cancel();
  }

  /** Sends the updates that replay the conversation to one connection; resolves when they are all written. */
  async replay(to: UpdateSink): Promise<void> {
    const { session, view } = this.parts;
    const { history, turn } = session.record;
    const runningFrom = turn ? history.findIndex((message) => message.id === turn.user.id) : -1;
    await to.sendAll(eachReplayUpdate(history, view, runningFrom >= 0 ? { runningFrom } : {}));
  }

  /**
   * Opens the session, open already, in one more connection: replays the conversation to it and,
   * while a turn goes on, what the turn has sent so far, then sends it what comes next, so it sees
   * every update once. Resolves once it is open there.
   */
  async join(link: ConnectionLink, to: UpdateSink): Promise<void> {
    const { session, view } = this.parts;
    let sent = 0;
    for (;;) {
      const { history, turn } = session.record;
      const soFar = this.clients.turnSoFar();
      const running = soFar && turn ? history.findIndex((message) => message.id === turn.user.id) : -1;
      // The conversation before the turn going on does not change while it runs; a turn that ends
      // while it is written is then written from the conversation too.
      const upTo = soFar ? (running >= 0 ? running : history.length) : history.length;
      if (upTo > sent) {
        await to.sendAll(eachReplayUpdate(history.slice(sent, upTo), view));
        sent = upTo;
        continue;
      }
      // From here to the attach nothing else runs, so no update falls between them.
      for (const update of soFar ?? []) {
        void to.send(update);
      }
      this.clients.attach(link);
      return;
    }
  }

  /** Resolves once no turn runs and no prompt waits. */
  async settled(): Promise<void> {
    while (this.queue.busy) {
      await this.queue.run(undefined, () => Promise.resolve());
    }
  }

  /**
   * Reads the session again from a store other processes share, unless a turn runs here: a load
   * that joins it here then shows what another process did with it. See StoredSession.refresh.
   */
  async refresh(): Promise<void> {
    if (!this.busy) {
      await this.parts.session.refresh();
    }
  }

  /** True when the record holds a turn in progress: one cut when its process stopped, or running in another. */
  get turnInProgress(): boolean {
    return this.parts.session.record.turn !== undefined;
  }

  /** Writes the session's record; see StoredSession.persist. */
  persist(): Promise<void> {
    return this.parts.session.persist();
  }

  /** A command's reply: the turn's answer, as the agent's message; resolves when it is written. */
  private async reply(text: string): Promise<void> {
    void this.parts.updates.send(textChunk(text, createMessageId("command")));
    await this.parts.updates.flush();
  }

  /**
   * Shows the person a notice once the editor knows the session; false, sending nothing, when the
   * editor does not show notices.
   */
  notice(notice: AcpNotice): boolean {
    if (!this.parts.view.shows?.().notices) {
      return false;
    }
    this.parts.held.send(noticeUpdate(notice));
    return true;
  }

  /** Shows the person a message outside any turn's reply; resolves when it is written. */
  async say(text: string): Promise<void> {
    void this.parts.updates.send(textChunk(text));
    await this.parts.updates.flush();
  }
}
