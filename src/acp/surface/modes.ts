// A session's modes (ask, code, architect…): how the integrator declares them, and the two ways
// ACP shows them: the legacy `modes` (SessionModeState, session/set_mode, current_mode_update) and
// a select config option of category "mode", which newer clients read instead. Both name the same
// value, which the run sees as `config.mode`.

import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";

/** One mode a session can be in. */
export interface AcpMode {
  /** Its id: what the run sees as `config.mode`. */
  id: string;
  /** Its name in the editor's mode picker. */
  name: string;
  description?: string | undefined;
}

/** The modes a session offers (see AcpOptions.modes). */
export interface AcpModes {
  /** The mode a new session starts in: the id of one of `available`. */
  default: string;
  /** The modes, in the order the editor lists them. */
  available: readonly AcpMode[];
  /** The picker's name, where the editor shows one. Default `Mode`. */
  name?: string | undefined;
  description?: string | undefined;
}

/** The config option that carries the mode, and the key the run reads it under. */
export const MODE_OPTION_ID = "mode";

/** The modes as the config option of category "mode", with `current` selected. */
export function modeOption(modes: AcpModes, current: string): SessionConfigOption {
  const option: SessionConfigOption = {
    type: "select",
    id: MODE_OPTION_ID,
    name: modes.name ?? "Mode",
    category: "mode",
    currentValue: current,
    options: modes.available.map((mode) => (mode.description === undefined ? { value: mode.id, name: mode.name } : { value: mode.id, name: mode.name, description: mode.description })),
  };
  if (modes.description !== undefined) {
    option.description = modes.description;
  }
  return option;
}

/** The modes as the legacy SessionModeState, with `current` selected. */
export function modeState(modes: AcpModes, current: string): SessionModeState {
  return {
    currentModeId: current,
    availableModes: modes.available.map((mode) => (mode.description === undefined ? { id: mode.id, name: mode.name } : { id: mode.id, name: mode.name, description: mode.description })),
  };
}
