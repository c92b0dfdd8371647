// What the coding agent's slash commands need beyond the call itself: the modes and config options
// the agent declares, and a way to change a session's values (AcpServer.setConfig).

import type { AcpConfigOption, AcpConfigValues } from "../../acp/surface/config-options.js";
import type { AcpModes } from "../../acp/surface/modes.js";

export interface CommandSettings {
  /** The modes sessions offer. */
  modes: AcpModes;
  /**
   * The config options sessions offer (a model picker among them, when there is one): the same
   * value serveAcp is given, a list or a function that gives one (a catalog's, which can grow
   * with the models a server lists).
   */
  configOptions: readonly AcpConfigOption[] | (() => readonly AcpConfigOption[] | Promise<readonly AcpConfigOption[]>);
  /** Changes a session's values as the agent's own choice, and shows the editor (AcpServer.setConfig). */
  setConfig(sessionId: string, values: Readonly<AcpConfigValues>): Promise<void>;
}
