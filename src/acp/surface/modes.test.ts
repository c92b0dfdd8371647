// The modes both ways ACP shows them: as the config option of category "mode" and as the legacy
// SessionModeState, each valid against the SDK's schema and naming the same current mode.

import { describe, expect, it } from "vitest";

import { schemaProblems } from "../../../test/support/acp-wire.js";
import { type AcpModes, modeOption, modeState } from "./modes.js";

const modes: AcpModes = {
  default: "ask",
  available: [
    { id: "ask", name: "Ask", description: "Answers, changes nothing" },
    { id: "code", name: "Code" },
  ],
};

describe("modes", () => {
  it("as a config option: a select of category mode, id mode, one value per mode", () => {
    const option = modeOption(modes, "code");
    expect(option).toEqual({
      type: "select",
      id: "mode",
      name: "Mode",
      category: "mode",
      currentValue: "code",
      options: [
        { value: "ask", name: "Ask", description: "Answers, changes nothing" },
        { value: "code", name: "Code" },
      ],
    });
    expect(schemaProblems("SessionConfigOption", option)).toEqual([]);
  });

  it("as a config option, with the picker's own name and description when given", () => {
    expect(modeOption({ ...modes, name: "Agent", description: "How the agent works" }, "ask")).toMatchObject({ name: "Agent", description: "How the agent works" });
  });

  it("as the legacy mode state: the same modes, the same one current", () => {
    const state = modeState(modes, "code");
    expect(state).toEqual({
      currentModeId: "code",
      availableModes: [
        { id: "ask", name: "Ask", description: "Answers, changes nothing" },
        { id: "code", name: "Code" },
      ],
    });
    expect(schemaProblems("SessionModeState", state)).toEqual([]);
  });
});
