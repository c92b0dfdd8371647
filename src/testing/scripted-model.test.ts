import { describe, expect, it } from "vitest";
import { z } from "zod";

import { createAgent } from "../agent/create-agent.js";
import { defineTool } from "../agent/tool.js";
import type { RunEvent } from "../graph/events.js";
import { userMessage } from "../graph/messages.js";
import { ScriptedModel } from "./scripted-model.js";

describe("ScriptedModel", () => {
  it("drives an agent through a tool call and records what it was sent", async () => {
    const model = new ScriptedModel([{ toolCalls: [{ toolName: "echo", input: { text: "hi" }, toolCallId: "c1" }] }, { text: ["echoed ", "hi"] }]);
    const echo = defineTool({ name: "echo", description: "Echoes.", input: z.object({ text: z.string() }), execute: ({ text }) => text });
    const agent = createAgent({ model, tools: [echo] });
    const run = agent.run({ messages: [userMessage("go")] }, { threadId: "t" });
    const deltas: string[] = [];
    for await (const event of run as AsyncIterable<RunEvent>) {
      if (event.type === "text-delta") {
        deltas.push(event.delta);
      }
    }
    expect(deltas).toEqual(["echoed ", "hi"]);
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]?.prompt.at(-1)).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c1", toolName: "echo", output: { type: "text", value: "hi" } }],
    });
  });

  it("answers from a function of the call and says when a list script runs out", async () => {
    const byFunction = new ScriptedModel((_call, index) => ({ text: `reply ${index}` }));
    const agent = createAgent({ model: byFunction });
    const outcome = await agent.run({ messages: [userMessage("a")] }, { threadId: "t" }).outcome;
    expect(outcome.status === "completed" && outcome.output.messages.at(-1)?.parts).toEqual([{ type: "text", text: "reply 0" }]);
    const empty = createAgent({ model: new ScriptedModel([]) });
    const failed = await empty.run({ messages: [userMessage("a")] }, { threadId: "t" }).outcome;
    expect(failed.status === "failed" && failed.error.message).toContain("has no reply number 1");
  });

  it("stops streaming when the call is aborted", async () => {
    const model = new ScriptedModel([{ text: ["a", "b", "c", "d", "e"], delayMs: 20 }]);
    const agent = createAgent({ model });
    const controller = new AbortController();
    const run = agent.run({ messages: [userMessage("a")] }, { threadId: "t", signal: controller.signal });
    let deltas = 0;
    for await (const event of run) {
      if (event.type === "text-delta" && ++deltas === 2) {
        controller.abort();
      }
    }
    expect(await run.outcome).toEqual({ status: "cancelled" });
    expect(deltas).toBe(2);
  });
});
