// A session's title: what `session/list` and the editor's session history show, sent to the editor
// as `session_info_update`. A session gets it at its first prompt: by default the start of the
// prompt's text, or what the integrator's `title()` makes of the prompt (it may ask a model; until
// it answers, and when it fails, the default stands). The record keeps the title, so the list and
// the updates agree, and it comes back on load and resume. Every update carries `updatedAt` too.

import type { RunConfig } from "../../graph/run-outcome.js";
import type { Logger } from "../../types/logger.js";
import type { HeldUpdates } from "../session/held-updates.js";
import { type AcpSessionInfo, sessionTitle, shortTitle } from "../record/session-store.js";
import type { StoredSession } from "../session/stored-session.js";
import { errorMessage } from "../../errors/error-message.js";

/** What `title()` is given: the session's first prompt. */
export interface AcpTitleRequest {
  /** The prompt's text. */
  prompt: string;
  session: AcpSessionInfo;
  /** The session's config values and mode, as its runs see them (the model picked, say). */
  config: RunConfig;
  /** Aborts when the connection closes: stop asking a model then. */
  signal: AbortSignal;
}

/**
 * Makes a new session's title from its first prompt (see AcpOptions.title). Undefined or an empty
 * text leaves the default; a title is put on one line and cut to 80 characters.
 */
export type AcpTitle = (request: AcpTitleRequest) => string | undefined | Promise<string | undefined>;

export class SessionTitle {
  /** The integrator's title() while it runs for this session. */
  private asking: Promise<void> | undefined;
  /** The update time last sent, so an unchanged one is not sent again. */
  private sentAt: string | undefined;

  constructor(
    private readonly session: StoredSession,
    private readonly updates: HeldUpdates,
    private readonly title: AcpTitle | undefined,
    private readonly logger: Logger,
    /** Aborts when the connection closes. */
    private readonly signal: AbortSignal,
    /** The session's config values now. */
    private readonly config: () => RunConfig = () => ({}),
  ) {}

  /** The session's title, if it has one yet: the record's, or for a record without one the start of its first prompt. */
  current(): string | undefined {
    return this.session.record.title ?? sessionTitle(this.session.record.history);
  }

  /**
   * Called once a prompt is in the conversation and written: a session without a title gets one.
   * The default is set at once (and written with the turn); the integrator's `title()` runs in the
   * background, for the session's first prompt only, and its title is written when it comes.
   */
  prompted(): void {
    const record = this.session.record;
    if (record.title !== undefined || this.asking) {
      return;
    }
    const fallback = sessionTitle(record.history);
    if (fallback === undefined) {
      return;
    }
    const prompts = record.history.filter((message) => message.role === "user");
    if (!this.title || prompts.length > 1) {
      this.set(fallback);
      return;
    }
    const prompt = prompts[0]?.parts.map((part) => (part.type === "text" ? part.text : "")).join(" ") ?? "";
    this.asking = this.ask(this.title, prompt, fallback).finally(() => {
      this.asking = undefined;
    });
  }

  /** Sends the title and update time, after a load or resume: the editor may have neither. */
  announce(): void {
    const title = this.current();
    this.sentAt = this.session.record.updatedAt;
    this.updates.send(title === undefined ? { sessionUpdate: "session_info_update", updatedAt: this.sentAt } : { sessionUpdate: "session_info_update", title, updatedAt: this.sentAt });
  }

  /** Sends the update time when the session was written since it was last sent (after a turn). */
  touched(): void {
    const updatedAt = this.session.record.updatedAt;
    if (updatedAt !== this.sentAt) {
      this.sentAt = updatedAt;
      this.updates.send({ sessionUpdate: "session_info_update", updatedAt });
    }
  }

  /** Resolves when the integrator's title() has answered and its title was written, if it runs. */
  async settled(): Promise<void> {
    await this.asking;
  }

  private async ask(title: AcpTitle, prompt: string, fallback: string): Promise<void> {
    let made: string | undefined;
    try {
      const answer = await title({ prompt, session: this.session.info, config: this.config(), signal: this.signal });
      made = typeof answer === "string" ? shortTitle(answer) : undefined;
    } catch (error) {
      this.logger.warn("title() failed; the session keeps the start of its first prompt as its title", { sessionId: this.session.id, error: errorMessage(error) });
    }
    if (this.session.record.title !== undefined) {
      return;
    }
    // Written first, so the update carries the time of the write that keeps the title.
    const kept = made ?? fallback;
    this.session.setTitle(kept);
    const written = this.session.persist().catch(() => undefined);
    this.set(kept);
    await written;
  }

  private set(title: string): void {
    this.session.setTitle(title);
    this.sentAt = this.session.record.updatedAt;
    this.updates.send({ sessionUpdate: "session_info_update", title, updatedAt: this.sentAt });
  }
}
