// How a question is asked: as a form, in words or not at all, and the run's answer for each way.

import { describe, expect, it } from "vitest";

import type { ProtocolInterrupt } from "../../graph/protocol-graph.js";
import { answerInWords, askingToolCall, formAnswer, planQuestion, questionText } from "./questions.js";

const schema = { type: "object", properties: { branch: { type: "string" } } };
const plain: ProtocolInterrupt = { id: "q1", node: "ask", value: { question: "Which branch?" } };
const withSchema: ProtocolInterrupt = { ...plain, schema };
const fromTool: ProtocolInterrupt = { id: "ask:c1:0", node: "tools", value: { kind: "question", toolCallId: "c1", toolName: "ask_user", question: "Which branch?" }, schema };

describe("planQuestion", () => {
  it("asks a question with a flat schema as a form only when the editor shows forms", () => {
    expect(planQuestion(withSchema, true)).toEqual({ how: "form", form: { type: "object", properties: { branch: { type: "string" } } }, message: "Which branch?" });
    expect(planQuestion(withSchema, false)).toEqual({ how: "words" });
    expect(planQuestion(plain, true)).toEqual({ how: "words" });
    expect(planQuestion({ ...plain, schema: { type: "object", properties: { where: { type: "object" } } } }, true)).toEqual({ how: "words" });
  });

  it("refuses a schema that asks for a secret, with or without forms", () => {
    for (const showsForms of [true, false]) {
      const plan = planQuestion({ ...plain, schema: { type: "object", properties: { password: { type: "string" } } } }, showsForms);
      expect(plan).toMatchObject({ how: "refused", error: { code: "secret_in_form", interruptId: "q1", field: "password" } });
    }
  });
});

describe("a question's text, tool call and answers", () => {
  it("shows a tool's question in words and names the call that asked", () => {
    expect(questionText(fromTool)).toBe("Which branch?");
    expect(askingToolCall(fromTool)).toBe("c1");
    expect(askingToolCall(withSchema)).toBeUndefined();
  });

  it("answers a form with its action (and content when accepted), and words with a reply only when there was a schema", () => {
    expect(formAnswer({ action: "accept", content: { branch: "main" } })).toEqual({ action: "accept", content: { branch: "main" } });
    expect(formAnswer({ action: "decline" })).toEqual({ action: "decline" });
    expect(formAnswer({ action: "cancel" })).toEqual({ action: "cancel" });
    expect(answerInWords(withSchema, "main")).toEqual({ action: "reply", text: "main" });
    expect(answerInWords(plain, "main")).toBe("main");
  });
});
