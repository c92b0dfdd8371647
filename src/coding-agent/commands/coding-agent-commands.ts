// The coding agent's slash commands, assembled in one list with /help first. A command of another
// part of the agent joins by being passed in `more`, and /help lists it with the rest.

import type { AcpCommand } from "../../acp/surface/slash-commands.js";
import type { CommandSettings } from "./command-settings.js";
import { helpCommand } from "./help-command.js";
import { initCommand } from "./init-command.js";
import { modeCommand } from "./mode-command.js";
import { modelCommand } from "./model-command.js";

/** /help, /mode, /model and /init, then `more` in the order given. */
export function codingAgentCommands(settings: CommandSettings, more: readonly AcpCommand[] = []): AcpCommand[] {
  const commands: AcpCommand[] = [];
  commands.push(helpCommand(() => commands), modeCommand(settings), modelCommand(settings), initCommand, ...more);
  return commands;
}
