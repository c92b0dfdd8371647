// Declared config options: a declaration that cannot work is refused when the server starts, a
// stored session's values are read against what is declared now, a value is checked with a message
// that says what is wrong, and the wire list is the full one, valid against the SDK's schema, with
// booleans only for an editor that shows them.

import { describe, expect, it } from "vitest";

import { schemaProblems } from "../../../test/support/acp-wire.js";
import { conciseOption as concise, effortOption as effort, modelPicker } from "../../../test/support/declared-options.js";
import { WeftError } from "../../errors/weft-error.js";
import { type AcpConfigOption, ConfigOptions } from "./config-options.js";
import type { AcpModes } from "./modes.js";
import { InvalidConfigValueError } from "../errors/request-errors.js";

const model = modelPicker([
  { group: "openai", name: "OpenAI", options: [{ value: "fast", name: "GPT mini" }, { value: "smart", name: "GPT", description: "Slower, better" }] },
  { group: "local", name: "Local", options: [{ value: "llama", name: "Llama" }] },
]);
const modes: AcpModes = { default: "ask", available: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] };

const declared = () => new ConfigOptions([model, effort, concise], modes);

/** What the constructor throws for `options`, as code and message. */
function refusal(options: readonly AcpConfigOption[], withModes?: AcpModes): { code: string; message: string } | undefined {
  try {
    new ConfigOptions(options, withModes);
    return undefined;
  } catch (error) {
    return WeftError.isInstance(error) ? { code: error.code, message: error.message } : { code: "not a weft error", message: String(error) };
  }
}

/** What `check` throws, as the error's fields. */
function checked(options: ConfigOptions, configId: string, value: string | boolean, booleans = true) {
  try {
    options.check(configId, value, booleans);
    return undefined;
  } catch (error) {
    return InvalidConfigValueError.isInstance(error) ? { code: error.code, configId: error.configId, value: error.value, message: error.message } : error;
  }
}

describe("ConfigOptions", () => {
  it("starts a session with every default, the mode under mode", () => {
    expect(declared().defaults()).toEqual({ mode: "ask", model: "fast", effort: "low", concise: false });
    expect(new ConfigOptions().offered).toBe(false);
    expect(declared().offered).toBe(true);
  });

  it("reads a stored session against what is declared now: kept values stay, stale or missing ones take the default, undeclared ones go", () => {
    expect(declared().resolve({ mode: "code", model: "retired-model", concise: "yes", gone: "x" })).toEqual({ mode: "code", model: "fast", effort: "low", concise: false });
    expect(declared().resolve(undefined)).toEqual(declared().defaults());
  });

  it("refuses declarations that cannot work, saying what is wrong", () => {
    expect(refusal([model, model])).toEqual({ code: "invalid_option", message: 'Config option ids must be unique: "model" is declared twice.' });
    expect(refusal([{ ...effort, default: "medium" }])?.message).toBe('Config option "effort" defaults to "medium", which is not one of its values (low, high).');
    expect(refusal([{ ...effort, options: [] }])?.message).toBe('Config option "effort" has no values to choose from.');
    expect(refusal([{ ...effort, options: [{ value: "low", name: "Low" }, { value: "low", name: "Lower" }] }])?.message).toBe('Config option "effort" has the value "low" twice.');
    expect(refusal([{ ...effort, id: "" }])?.message).toBe("A config option has an empty id.");
    expect(refusal([{ ...effort, id: "mode" }])?.message).toContain("declare modes with serveAcp's `modes` option");
    expect(refusal([{ ...effort, category: "mode" as never }])?.message).toContain("declare modes with serveAcp's `modes` option");
    expect(refusal([{ ...effort, category: "speed" as never }])?.message).toBe('Config option "effort" has category "speed"; use model, model_config, thought_level, or a name of your own starting with "_".');
    expect(refusal([{ ...concise, default: "no" as never }])?.message).toBe('Config option "concise" is a boolean option; its default must be true or false.');
    expect(refusal([{ ...effort, options: [{ value: "low", name: "Low" }, { group: "g", name: "G", options: [] }] as never }])?.message).toBe('Config option "effort" mixes values and groups; give either values or groups of them.');
    expect(refusal([], { ...modes, default: "plan" })?.message).toBe('modes.default is "plan", which is not one of the modes (ask, code).');
    expect(refusal([], { default: "ask", available: [] })?.message).toBe("modes.available is empty; declare at least one mode, or no modes.");
    expect(refusal([], { default: "ask", available: [{ id: "ask", name: "Ask" }, { id: "ask", name: "Ask again" }] })?.message).toBe('Mode ids must be unique: "ask" is declared twice.');
    expect(refusal([model, effort, concise], modes)).toBeUndefined();
  });

  it("accepts a value the option offers, of the option's type", () => {
    const options = declared();
    expect(checked(options, "model", "llama")).toBeUndefined();
    expect(checked(options, "concise", true)).toBeUndefined();
    expect(checked(options, "mode", "code")).toBeUndefined();
  });

  it("refuses an unknown option, an unknown value and a value of the wrong type, saying which", () => {
    const options = declared();
    expect(checked(options, "temperature", "hot")).toEqual({
      code: "invalid_config_value",
      configId: "temperature",
      value: "hot",
      message: 'This session has no config option "temperature"; its options are mode, model, effort, concise.',
    });
    expect(checked(options, "model", "huge")).toMatchObject({ configId: "model", value: "huge", message: 'Config option "model" has no value "huge"; its values are fast, smart, llama.' });
    expect(checked(options, "model", true)).toMatchObject({ message: 'Config option "model" is a select option: set it to one of its values (fast, smart, llama), not to true.' });
    expect(checked(options, "concise", "yes")).toMatchObject({ message: 'Config option "concise" is a boolean option: set it with type "boolean" and true or false, not "yes".' });
    expect(checked(options, "mode", "plan")).toMatchObject({ configId: "mode", message: 'Config option "mode" has no value "plan"; its values are ask, code.' });
  });

  it("treats a boolean option as unknown to an editor that does not show booleans", () => {
    expect(checked(declared(), "concise", true, false)).toMatchObject({ message: 'This session has no config option "concise"; its options are mode, model, effort.' });
  });

  it("checks a mode by its id", () => {
    expect(() => declared().checkMode("code")).not.toThrow();
    expect(() => declared().checkMode("plan")).toThrow('There is no mode "plan"; the modes are ask, code.');
    expect(() => new ConfigOptions([effort]).checkMode("ask")).toThrow("This agent has no modes.");
  });

  it("lists every option on the wire in order, the mode first, with the session's values, valid against the schema", () => {
    const list = declared().toWire({ mode: "code", model: "smart", effort: "high", concise: true }, true);
    expect(list).toEqual([
      { type: "select", id: "mode", name: "Mode", category: "mode", currentValue: "code", options: [{ value: "ask", name: "Ask" }, { value: "code", name: "Code" }] },
      {
        type: "select",
        id: "model",
        name: "Model",
        category: "model",
        currentValue: "smart",
        options: [
          { group: "openai", name: "OpenAI", options: [{ value: "fast", name: "GPT mini" }, { value: "smart", name: "GPT", description: "Slower, better" }] },
          { group: "local", name: "Local", options: [{ value: "llama", name: "Llama" }] },
        ],
      },
      { type: "select", id: "effort", name: "Effort", category: "thought_level", currentValue: "high", options: [{ value: "low", name: "Low" }, { value: "high", name: "High" }] },
      { type: "boolean", id: "concise", name: "Concise replies", category: "_style", currentValue: true },
    ]);
    for (const option of list) {
      expect(schemaProblems("SessionConfigOption", option)).toEqual([]);
    }
  });

  it("leaves boolean options out of the list for an editor that does not show them", () => {
    expect(declared().toWire(declared().defaults(), false).map((option) => option.id)).toEqual(["mode", "model", "effort"]);
  });

  it("offers an option with `when` only while the session's values allow it, and keeps its value meanwhile", () => {
    const thinking: AcpConfigOption = { ...effort, when: (values) => values.model === "smart" };
    const options = new ConfigOptions([model, thinking]);
    const fast = options.resolve({ model: "fast", effort: "high" });
    expect(options.toWire(fast, true).map((option) => option.id)).toEqual(["model"]);
    expect(fast.effort).toBe("high");
    expect(() => options.check("effort", "high", true, fast)).toThrow(InvalidConfigValueError);
    const smart = options.resolve({ model: "smart" });
    expect(options.toWire(smart, true).map((option) => option.id)).toEqual(["model", "effort"]);
    expect(() => options.check("effort", "high", true, smart)).not.toThrow();
    // The agent's own change (no values given) may set it even while it is hidden.
    expect(() => options.check("effort", "high", true)).not.toThrow();
  });

  it("gives the legacy mode state only when there are modes", () => {
    expect(declared().modeState({ mode: "code" })).toEqual({ currentModeId: "code", availableModes: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] });
    expect(new ConfigOptions([effort]).modeState({})).toBeUndefined();
  });
});
