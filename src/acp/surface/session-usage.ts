// One open session's usage: after each model call of its turns (a `message-end` event with token
// counts) the record's usage is brought up to date (written with the turn's next write, so the
// cost counted so far survives a restart) and the editor is sent `usage_update`; after a new, load
// or resume answer, the usage as it stands; after a config change that changes the window (another
// model), the usage again. `used` never goes over `size`: a conversation larger than the window
// (after a switch to a smaller model) shows as a full window.

import type { SessionUpdate } from "@agentclientprotocol/sdk";

import type { RunEvent } from "../../graph/events.js";
import type { Logger } from "../../types/logger.js";
import type { HeldUpdates } from "../session/held-updates.js";
import type { SessionConfig } from "./session-config.js";
import type { StoredSession } from "../session/stored-session.js";
import { type AcpUsageOptions, addCall, contextWindowFor, pricesFor } from "./usage.js";
import { errorMessage } from "../../errors/error-message.js";

export class SessionUsage {
  /** The window last sent, so a config change that keeps it sends nothing. */
  private sentSize: number | undefined;

  constructor(
    /** Undefined when the integrator did not ask for usage: nothing is counted or sent. */
    private readonly options: AcpUsageOptions | undefined,
    private readonly session: StoredSession,
    private readonly config: SessionConfig,
    private readonly updates: HeldUpdates,
    private readonly logger: Logger,
  ) {}

  /** Counts a model call's tokens and cost, and sends the usage, when `event` ends one that reported them. */
  observe(event: RunEvent): void {
    if (!this.options || event.type !== "message-end" || !event.usage) {
      return;
    }
    const added = addCall(this.session.record.usage, event.usage, this.ask("prices", () => pricesFor(this.options as AcpUsageOptions, this.config.values())));
    if (!added) {
      return;
    }
    if (added.mismatch) {
      this.logger.warn(added.mismatch, { sessionId: this.session.id });
    }
    this.session.setUsage(added.usage);
    this.send();
  }

  /**
   * Sends the usage as it stands, after a new, load or resume answer: nothing used for a session
   * with no conversation yet, the last call's for one that has it, and nothing when it is not known
   * (a conversation from before usage was counted).
   */
  announce(): void {
    if (this.session.record.usage || this.session.record.history.length === 0) {
      this.send();
    }
  }

  /** After a config change: the usage again when the change gave the session another window. */
  configChanged(): void {
    if (!this.options || (!this.session.record.usage && this.session.record.history.length > 0)) {
      return;
    }
    const size = this.size();
    if (size !== this.sentSize) {
      this.send();
    }
  }

  private send(): void {
    const size = this.size();
    if (size === undefined) {
      return;
    }
    const usage = this.session.record.usage;
    const update: SessionUpdate = { sessionUpdate: "usage_update", used: Math.min(usage?.used ?? 0, size), size };
    if (usage?.cost) {
      update.cost = { amount: usage.cost.amount, currency: usage.cost.currency };
    }
    this.sentSize = size;
    this.updates.send(update);
  }

  private size(): number | undefined {
    const options = this.options;
    return options && this.ask("contextWindow", () => contextWindowFor(options, this.config.values()));
  }

  /** What one of the integrator's functions answers; one that fails is logged and taken as not known. */
  private ask<T>(name: string, question: () => T | undefined): T | undefined {
    try {
      return question();
    } catch (error) {
      this.logger.warn(`usage.${name} failed; the session's usage is shown without it`, { sessionId: this.session.id, error: errorMessage(error) });
      return undefined;
    }
  }
}
