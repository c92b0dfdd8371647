// ask_user: the coding agent's way to ask the person something it cannot find out itself. The
// question carries a schema for its answer, so an editor that shows forms asks with one (with the
// choices as a pick list); any other editor shows the question as the agent's message and the
// person's next prompt answers it.

import { z } from "zod";

import { defineTool } from "../agent/tool.js";
import type { FormAnswer } from "../graph/interrupt.js";
import type { JsonObject } from "../types/json.js";

/** The answer's schema: one text field, or one choice among `choices` when there are any. */
function answerSchema(choices: readonly string[] | undefined): JsonObject {
  const field: JsonObject = choices?.length ? { type: "string", title: "Answer", enum: [...choices] } : { type: "string", title: "Answer" };
  return { type: "object", properties: { answer: field }, required: ["answer"] };
}

/** What the model is told of the person's answer. */
function describeAnswer(answer: FormAnswer | string): string {
  if (typeof answer === "string") {
    return `The person answered: ${answer}`;
  }
  switch (answer.action) {
    case "accept":
      return `The person answered: ${String(answer.content.answer ?? JSON.stringify(answer.content))}`;
    case "reply":
      return `The person answered: ${answer.text}`;
    case "decline":
      return "The person declined to answer. Carry on without it, or stop and say what you need.";
    case "cancel":
      return "The person dismissed the question without answering. Carry on without it, or stop and say what you need.";
  }
}

/** The question tool: pauses the run until the person answers. */
export const askUserTool = defineTool({
  name: "ask_user",
  description:
    "Ask the person a question you cannot answer from the project yourself (a choice between approaches, a missing detail). Give `choices` when the answer is one of a few options. Ask only when it matters; the run waits for the answer.",
  input: z.object({
    question: z.string().min(1).describe("The question, on its own: the person sees only this."),
    choices: z.array(z.string().min(1)).max(10).optional().describe("The answers to choose from, if it is a choice."),
  }),
  title: ({ question }) => `Question: ${question.length > 60 ? `${question.slice(0, 59)}…` : question}`,
  execute: ({ question, choices }, context) => {
    // The choices go beside the question, not into it: a form lists them as its pick list, and a
    // question asked in words adds them as a line of its own (questions.ts).
    const asked = choices?.length ? { question, choices: [...choices] } : question;
    const answer = context.ask<FormAnswer | string>(asked, { schema: answerSchema(choices) });
    return describeAnswer(answer);
  },
});
