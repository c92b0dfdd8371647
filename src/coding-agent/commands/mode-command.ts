// /mode: shows the session's mode and the others, or switches to the one named (as the editor's
// mode picker would, through AcpServer.setConfig so the editor's picker follows).

import { MODE_OPTION_ID } from "../../acp/surface/modes.js";
import type { AcpCommand } from "../../acp/surface/slash-commands.js";
import { findChoice, listChoices, type NamedChoice } from "./choice-names.js";
import type { CommandSettings } from "./command-settings.js";

export function modeCommand(settings: CommandSettings): AcpCommand {
  const choices: NamedChoice[] = settings.modes.available.map((mode) => ({ value: mode.id, name: mode.name, description: mode.description }));
  return {
    name: "mode",
    description: "Shows the mode, or switches to another",
    hint: "a mode",
    run: async ({ input, config, session }) => {
      const current = config[MODE_OPTION_ID];
      if (input === "") {
        return { reply: `The mode is ${String(current)}. The modes:\n${listChoices(choices, current)}\n\nSwitch with /mode <mode>.` };
      }
      const choice = findChoice(choices, input);
      if (!choice) {
        return { reply: `There is no mode "${input}". The modes:\n${listChoices(choices, current)}` };
      }
      if (choice.value === current) {
        return { reply: `The mode is already ${choice.value}.` };
      }
      await settings.setConfig(session.id, { [MODE_OPTION_ID]: choice.value });
      return { reply: `Switched to ${choice.value} mode${choice.description ? `: ${choice.description}` : "."}` };
    },
  };
}
