// update_plan: the coding agent's to-do list for the task at hand. The model sends the whole list
// each time something changes; the editor is shown it as ACP's plan update.

import { z } from "zod";

import { defineTool } from "../agent/tool.js";

const entry = z.object({
  content: z.string().min(1).describe("What the step is, in a few words."),
  priority: z.enum(["high", "medium", "low"]).describe("How much the step matters."),
  status: z.enum(["pending", "in_progress", "completed"]).describe("Where the step is."),
});

/** The plan tool: replaces the plan shown to the person with `entries`, in order. */
export const planTool = defineTool({
  name: "update_plan",
  description:
    "Keep the person's view of your plan up to date: send the whole list of steps each time one starts, finishes or changes (at most one in_progress). Use it for work with several steps; skip it for a one-step answer.",
  input: z.object({ entries: z.array(entry).max(50) }),
  title: ({ entries }) => `Plan: ${entries.length} step${entries.length === 1 ? "" : "s"}`,
  execute: ({ entries }, context) => {
    context.plan(entries);
    const done = entries.filter((step) => step.status === "completed").length;
    return `Plan updated: ${done} of ${entries.length} steps completed.`;
  },
});
