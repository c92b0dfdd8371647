// /model: shows the session's model and the others it can use, or switches to the one named. It
// works over whatever model picker the agent declares (the select config option of category
// `model`, or with id `model`); without one, it says the model is fixed.

import type { AcpConfigChoice, AcpConfigOption, AcpSelectConfigOption } from "../../acp/surface/config-options.js";
import type { AcpCommand } from "../../acp/surface/slash-commands.js";
import { findChoice, listChoices } from "./choice-names.js";
import type { CommandSettings } from "./command-settings.js";

/** The agent's model picker, if it declares one. */
export function modelOption(options: readonly AcpConfigOption[]): AcpSelectConfigOption | undefined {
  const selects = options.filter((option): option is AcpSelectConfigOption => option.type === "select");
  return selects.find((option) => option.category === "model") ?? selects.find((option) => option.id === "model");
}

/** A select option's values, flattened out of any groups. */
function choicesOf(option: AcpSelectConfigOption): AcpConfigChoice[] {
  return option.options.flatMap((entry) => ("group" in entry ? entry.options : [entry]));
}

/** What /model says when the agent offers no choice of model. */
export const FIXED_MODEL_REPLY = "This agent has no choice of model: it uses the one it was started with (WEFT_MODEL or --model).";

export function modelCommand(settings: CommandSettings): AcpCommand {
  return {
    name: "model",
    description: "Shows the model, or switches to another",
    hint: "a model",
    run: async ({ input, config, session }) => {
      const declared = settings.configOptions;
      const option = modelOption(typeof declared === "function" ? await declared() : declared);
      if (!option) {
        return { reply: FIXED_MODEL_REPLY };
      }
      const choices = choicesOf(option);
      const current = config[option.id];
      const currentName = choices.find((choice) => choice.value === current)?.name ?? String(current);
      if (input === "") {
        return { reply: `The model is ${currentName}. The models:\n${listChoices(choices, current)}\n\nSwitch with /model <model>.` };
      }
      const choice = findChoice(choices, input);
      if (!choice) {
        return { reply: `There is no model "${input}". The models:\n${listChoices(choices, current)}` };
      }
      if (choice.value === current) {
        return { reply: `The model is already ${choice.name}.` };
      }
      await settings.setConfig(session.id, { [option.id]: choice.value });
      return { reply: `Switched to ${choice.name}; the next model call uses it.` };
    },
  };
}
