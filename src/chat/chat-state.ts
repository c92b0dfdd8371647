// What interactive `weft chat` keeps while it runs: whether a turn runs and what Ctrl-C means at the
// moment (`ChatState`), and the session's surface as the agent last reported it (`SessionSurface`).

import type * as acp from "@agentclientprotocol/sdk";

import type { ChatInput } from "./input/chat-input.js";
import type { Style } from "./render-updates.js";

/** Whether a turn runs, and what Ctrl-C means at the moment. */
export class ChatState {
  running = false;
  input: ChatInput | undefined;
  private cancelAsked = false;
  private lastInterrupt = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly style: Style,
    /** Ends the output's open line (a reply being written), so a notice starts on a line of its own. */
    private readonly breakLine: () => void,
  ) {}

  /** True once Ctrl-C has cancelled the running turn. */
  get cancelling(): boolean {
    return this.cancelAsked;
  }

  startTurn(): void {
    this.running = true;
    this.cancelAsked = false;
  }

  endTurn(): void {
    this.running = false;
    this.cancelAsked = false;
  }

  /** Ctrl-C: cancels a running turn; a second one (or one while idle, twice in a row) leaves. */
  onInterrupt(): "cancel" | "exit" | "hint" {
    const now = Date.now();
    if (this.running && !this.cancelAsked) {
      this.cancelAsked = true;
      this.input?.cancel();
      this.input?.unqueue();
      this.breakLine();
      this.write(this.style.dim("(cancelling; press Ctrl-C again to leave)\n"));
      return "cancel";
    }
    if (this.running || now - this.lastInterrupt < 2_000) {
      this.write("\n");
      return "exit";
    }
    this.lastInterrupt = now;
    this.write(this.style.dim("\n(press Ctrl-C again to leave)\n"));
    return "hint";
  }
}

/** The session's surface as the agent reports it: its commands, modes and config options. */
export class SessionSurface {
  commands: acp.AvailableCommand[] = [];
  modes: acp.SessionModeState | undefined;
  configOptions: acp.SessionConfigOption[] = [];

  /** Keeps what an update says of the surface. */
  remember(update: acp.SessionUpdate): void {
    if (update.sessionUpdate === "available_commands_update") {
      this.commands = update.availableCommands;
    } else if (update.sessionUpdate === "current_mode_update") {
      this.modeSet(update.currentModeId);
    } else if (update.sessionUpdate === "config_option_update") {
      this.configOptions = update.configOptions;
    }
  }

  /** Keeps the modes and config options a session/new or session/load answered with. */
  opened(response: { modes?: acp.SessionModeState | null | undefined; configOptions?: acp.SessionConfigOption[] | null | undefined }): void {
    this.modes = response.modes ?? undefined;
    this.configOptions = response.configOptions ?? this.configOptions;
  }

  /** The session's mode is now `modeId` (when it has modes). */
  modeSet(modeId: string): void {
    if (this.modes) {
      this.modes = { ...this.modes, currentModeId: modeId };
    }
  }
}
