// One open session's slash commands: the list it offers (the integrator's, made for the session and
// its config, or one the agent set for it with AcpServer.setCommands), sent as
// `available_commands_update` once the editor knows the session and again whenever the list
// changes; and running the command a prompt names.

import type { Logger } from "../../types/logger.js";
import type { AcpContentBlock } from "../mapping/content.js";
import type { HeldUpdates } from "../session/held-updates.js";
import { PermissionLedger } from "../asking/permission-ledger.js";
import type { SessionConfig } from "./session-config.js";
import type { StoredSession } from "../session/stored-session.js";
import { type AcpCommand, type AcpCommands, type AcpPermissions, checkCommands, checkResult, CommandFailedError, commandPrompt, toAvailableCommands } from "./slash-commands.js";
import { errorMessage } from "../../errors/error-message.js";

/**
 * What a command made of a turn: its reply (the turn's whole answer), the prompt blocks to run
 * (with the graph's input when the command gave one), or why it failed.
 */
export type CommandOutcome = { reply: string } | { blocks: AcpContentBlock[]; input?: unknown } | { error: CommandFailedError };

export class SessionCommands {
  /** The list the agent set for this session, over the declared ones. */
  private own: readonly AcpCommand[] | undefined;
  /** The list last sent, as JSON, so an unchanged one is not sent again. */
  private sent: string | undefined;

  constructor(
    /** The integrator's commands; undefined when the agent has none. */
    private readonly declared: AcpCommands | undefined,
    private readonly session: StoredSession,
    private readonly config: SessionConfig,
    private readonly updates: HeldUpdates,
    private readonly logger: Logger,
    /** The project's permission grants, for commands to list and revoke. */
    private readonly permissions: AcpPermissions = new PermissionLedger({ get: () => undefined, put: () => undefined }, session.info.cwd, logger),
  ) {}

  /** The session's commands now. A function that throws or gives a bad list is logged, and offers none. */
  list(): readonly AcpCommand[] {
    if (this.own) {
      return this.own;
    }
    if (typeof this.declared !== "function") {
      return this.declared ?? [];
    }
    try {
      const made = this.declared({ session: this.session.info, config: this.config.values() });
      checkCommands(made);
      return made;
    } catch (error) {
      this.logger.warn("commands() failed; the session offers no commands", { sessionId: this.session.id, error: errorMessage(error) });
      return [];
    }
  }

  /** Sends the list once the editor knows the session (after new, load or resume), when the agent has commands. */
  announce(): void {
    this.sent = undefined;
    this.refresh();
  }

  /** Sends the list again if it changed (after a config change, when it depends on the config). */
  refresh(): void {
    if (this.declared === undefined && this.own === undefined) {
      return;
    }
    const available = toAvailableCommands(this.list());
    const json = JSON.stringify(available);
    if (json !== this.sent) {
      this.sent = json;
      this.updates.send({ sessionUpdate: "available_commands_update", availableCommands: available });
    }
  }

  /**
   * Sets the session's commands (AcpServer.setCommands): checked first (a WeftError says what is
   * wrong), then sent. Undefined goes back to the declared ones.
   */
  set(commands: readonly AcpCommand[] | undefined): void {
    if (commands) {
      checkCommands(commands);
    }
    this.own = commands && [...commands];
    this.refresh();
  }

  /** The command a prompt runs, if it names one of the session's (an unknown `/word` is a plain prompt). */
  match(blocks: readonly AcpContentBlock[]): { command: AcpCommand; input: string; attachments: AcpContentBlock[] } | undefined {
    const named = commandPrompt(blocks);
    const command = named && this.list().find((each) => each.name === named.name);
    return command && named ? { command, input: named.input, attachments: named.attachments } : undefined;
  }

  /** Runs a matched command. Never rejects: one that throws or answers with something else is a CommandFailedError. */
  async run(matched: { command: AcpCommand; input: string; attachments: AcpContentBlock[] }, blocks: AcpContentBlock[], signal: AbortSignal): Promise<CommandOutcome> {
    const { command } = matched;
    let result;
    try {
      result = await command.run({
        input: matched.input,
        attachments: matched.attachments,
        session: this.session.info,
        config: this.config.values(),
        history: this.session.record.history.slice(),
        signal,
        permissions: this.permissions,
      });
    } catch (error) {
      return { error: new CommandFailedError(command.name, errorMessage(error), { cause: error }) };
    }
    const checked = checkResult(result);
    if (!checked) {
      return { error: new CommandFailedError(command.name, "it must answer with one of { reply: text }, { prompt: text } or { input }.") };
    }
    if ("reply" in checked) {
      return { reply: checked.reply };
    }
    if ("prompt" in checked) {
      return { blocks: [{ type: "text", text: checked.prompt }, ...matched.attachments] };
    }
    return { blocks, input: checked.input };
  }
}
