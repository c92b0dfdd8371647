// The session config options that tests and test agents declare: a model picker over the choices
// each test names, and the effort and concise switches, written once here.

import type { AcpBooleanConfigOption, AcpSelectConfigOption } from "../../src/acp/surface/config-options.js";

/**
 * The select option `model` (category "model", "fast" by default) over `choices`; `changes` sets
 * any other field, such as another default or no category.
 */
export function modelPicker(choices: AcpSelectConfigOption["options"], changes: Partial<Omit<AcpSelectConfigOption, "type" | "id">> = {}): AcpSelectConfigOption {
  return { type: "select", id: "model", name: "Model", category: "model", default: "fast", options: choices, ...changes };
}

/** The select option `effort` (a thought level), low or high, low by default. */
export const effortOption: AcpSelectConfigOption = {
  type: "select",
  id: "effort",
  name: "Effort",
  category: "thought_level",
  default: "low",
  options: [
    { value: "low", name: "Low" },
    { value: "high", name: "High" },
  ],
};

/** The switch `concise`, off by default, in the agent's own category `_style`. */
export const conciseOption: AcpBooleanConfigOption = { type: "boolean", id: "concise", name: "Concise replies", category: "_style", default: false };
