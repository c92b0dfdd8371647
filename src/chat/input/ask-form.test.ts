import { describe, expect, it } from "vitest";

import { terminalStyle } from "../render-updates.js";
import { askForm } from "./ask-form.js";

/** Answers the form's questions from a list, recording what was asked and shown. */
function scripted(answers: Array<string | undefined>) {
  const asked: string[] = [];
  let shown = "";
  return {
    asked,
    shown: () => shown,
    ask: (question: string) => {
      asked.push(question);
      return Promise.resolve(answers.shift());
    },
    write: (text: string) => {
      shown += text;
    },
  };
}

const style = terminalStyle(false);
const schema = {
  type: "object" as const,
  properties: {
    name: { type: "string", title: "Name" },
    count: { type: "integer", title: "Count", default: 3 },
    ratio: { type: "number" },
    urgent: { type: "boolean", title: "Urgent" },
    colour: { type: "string", oneOf: [{ const: "r", title: "Red" }, { const: "g", title: "Green" }] },
  },
  required: ["name", "urgent", "colour"],
};

describe("askForm", () => {
  it("asks each field in turn, checks each answer, and returns the content", async () => {
    const person = scripted(["", "Ada", "2.5", "", "", "maybe", "yes", "Green"]);
    const answer = await askForm(schema, "About you", person.ask, person.write, style);
    expect(answer).toEqual({ action: "accept", content: { name: "Ada", count: 3, urgent: true, colour: "g" } });
    expect(person.shown()).toContain("This field is required.");
    expect(person.shown()).toContain("Enter a whole number.");
    expect(person.shown()).toContain("Answer y or n.");
    expect(person.asked.at(-1)).toContain("colour (1) Red  2) Green)");
  });

  it("declines or cancels on /decline, /cancel or a withdrawn question", async () => {
    expect(await askForm(schema, "m", scripted(["/decline"]).ask, () => {}, style)).toEqual({ action: "decline" });
    expect(await askForm(schema, "m", scripted(["Ada", "/cancel"]).ask, () => {}, style)).toEqual({ action: "cancel" });
    expect(await askForm(schema, "m", scripted([undefined]).ask, () => {}, style)).toEqual({ action: "cancel" });
  });
});
