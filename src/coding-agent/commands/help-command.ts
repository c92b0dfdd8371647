// /help: lists the coding agent's slash commands, answered at once without the model.

import type { AcpCommand } from "../../acp/surface/slash-commands.js";

/** The /help command over `commands` (asked when it runs, so it lists whatever the list holds then, itself included). */
export function helpCommand(commands: () => readonly AcpCommand[]): AcpCommand {
  return {
    name: "help",
    description: "Lists the commands",
    run: () => {
      const lines = commands().map((command) => `- /${command.name}${command.hint ? ` <${command.hint}>` : ""}: ${command.description}`);
      return { reply: `Commands:\n${lines.join("\n")}\n\nAnything else you type goes to the agent.` };
    },
  };
}
