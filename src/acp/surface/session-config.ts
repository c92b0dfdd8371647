// One open session's config values and mode: what its runs see, what new/load/resume answer (the
// options, the legacy modes and, from the model option, the legacy models), and the four ways they
// change (the editor's session/set_config_option, session/set_mode and session/set_model, and the
// agent's own change through AcpServer.setConfig). Every change is checked, written to the
// session's record before it is answered, and shown to the editor both ways: a change of the mode
// as `current_mode_update` for clients that read `modes`, any change an editor did not ask for as
// `config_option_update` with the full list. The updates go out with the session's other updates
// about itself (held-updates.ts): after the answer that opened the session, in the order sent.

import type { LoadSessionResponse, SessionConfigOption, SessionUpdate } from "@agentclientprotocol/sdk";

import type { RunConfig } from "../../graph/run-outcome.js";
import type { AcpConfigValues, ConfigOptions } from "./config-options.js";
import { type AcpModelState, modelOption, modelState } from "./model-state.js";
import { InvalidConfigValueError } from "../errors/request-errors.js";
import { MODE_OPTION_ID } from "./modes.js";
import { fromStore } from "../errors/session-errors.js";
import type { HeldUpdates } from "../session/held-updates.js";
import type { StoredSession } from "../session/stored-session.js";

/**
 * The config, modes and models parts of a new/load/resume answer; empty when the agent offers
 * none. `models` (the unstable model API's field) is there when the options have a model option.
 */
export type ConfigAnnouncement = Pick<LoadSessionResponse, "configOptions" | "modes"> & { models?: AcpModelState | undefined };

export class SessionConfig {
  /** Told after each change that was written, whoever made it. */
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly options: ConfigOptions,
    private readonly session: StoredSession,
    /** Where updates about the session itself go: held until the editor knows the session. */
    private readonly updates: HeldUpdates,
    /** Whether the editor shows boolean options (it said so in `initialize`). */
    private readonly booleans: () => boolean,
  ) {}

  /** The values the session's runs see now, the mode included. */
  values(): RunConfig {
    return this.options.resolve(this.session.record.config);
  }

  /** The full option list the editor sees, with the current values. */
  list(): SessionConfigOption[] {
    return this.options.toWire(this.values(), this.booleans());
  }

  /** What new, load and resume answer with: the option list and the legacy modes, each when there is one. */
  announce(): ConfigAnnouncement {
    const values = this.values();
    const announcement: ConfigAnnouncement = {};
    const list = this.options.toWire(values, this.booleans());
    if (list.length > 0) {
      announcement.configOptions = list;
    }
    const modes = this.options.modeState(values);
    if (modes) {
      announcement.modes = modes;
    }
    const models = modelState(list);
    if (models) {
      announcement.models = models;
    }
    return announcement;
  }

  /**
   * Calls `listener` after each change of the values that was written (by the editor or the
   * agent), once its own updates are queued: what depends on the config (the commands, the
   * context window) follows it.
   */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** session/set_config_option: sets one option and answers the full list; a mode change is also sent as current_mode_update. */
  async setOption(configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
    this.options.check(configId, value, this.booleans(), this.values());
    const changed = await this.apply({ [configId]: value });
    if (changed.includes(MODE_OPTION_ID)) {
      this.send({ sessionUpdate: "current_mode_update", currentModeId: String(value) });
    }
    this.changed(changed);
    return this.list();
  }

  /** session/set_mode: sets the mode; the config option that carries it is sent as config_option_update. */
  async setMode(modeId: string): Promise<void> {
    this.options.checkMode(modeId);
    const changed = await this.apply({ [MODE_OPTION_ID]: modeId });
    if (changed.length > 0) {
      this.send({ sessionUpdate: "config_option_update", configOptions: this.list() });
    }
    this.changed(changed);
  }

  /**
   * session/set_model (the unstable model API): sets the session's model option, as
   * session/set_config_option would, and sends the full list as config_option_update, since the
   * editor asked in a way that does not answer it. A session without a model option refuses.
   */
  async setModel(modelId: string): Promise<void> {
    const option = modelOption(this.list());
    if (!option) {
      throw new InvalidConfigValueError("model", modelId, "This session offers no model to pick.");
    }
    this.options.check(option.id, modelId, this.booleans(), this.values());
    const changed = await this.apply({ [option.id]: modelId });
    if (changed.length > 0) {
      this.send({ sessionUpdate: "config_option_update", configOptions: this.list() });
    }
    this.changed(changed);
  }

  /**
   * The agent's own change of one or more values (AcpServer.setConfig): all checked before any is
   * set, then sent as config_option_update with the full list, and as current_mode_update when the
   * mode changed. Boolean options may be changed even when the editor does not show them.
   */
  async change(values: Readonly<AcpConfigValues>): Promise<void> {
    for (const [configId, value] of Object.entries(values)) {
      this.options.check(configId, value, true);
    }
    const changed = await this.apply(values);
    const shown = new Set(this.list().map((option) => option.id));
    if (changed.some((configId) => shown.has(configId))) {
      this.send({ sessionUpdate: "config_option_update", configOptions: this.list() });
    }
    if (changed.includes(MODE_OPTION_ID)) {
      this.send({ sessionUpdate: "current_mode_update", currentModeId: String(this.values()[MODE_OPTION_ID]) });
    }
    this.changed(changed);
  }

  private changed(ids: readonly string[]): void {
    if (ids.length > 0) {
      for (const listener of this.listeners) {
        listener();
      }
    }
  }

  /**
   * Sets checked values in the record and writes it; resolves with the ids whose value changed.
   * When the write fails, the values are as they were and the store's error is thrown.
   */
  private async apply(values: Readonly<AcpConfigValues>): Promise<string[]> {
    const before = this.values();
    const changed = Object.keys(values).filter((configId) => before[configId] !== values[configId]);
    if (changed.length === 0) {
      return [];
    }
    await fromStore(() => this.session.setConfig({ ...before, ...values }));
    return changed;
  }

  private send(update: SessionUpdate): void {
    this.updates.send(update);
  }
}
