// createAgent() with a context window, against a scripted model: older turns are summarised by the
// model before a call that would not fit, repeatedly (each summary folding in the last), a failed
// summary falls back to leaving out the oldest turns, `compact: true` summarises on demand, and no
// call is ever sent more than the window allows.

import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import type { RunEvent } from "../graph/events.js";
import { userMessage } from "../graph/messages.js";
import type { GraphRun } from "../graph/run-outcome.js";
import { MemoryStore } from "../store-core/memory-store.js";
import { ScriptedModel, type ScriptedReply } from "../testing/scripted-model.js";
import type { Message } from "../types/messages.js";
import type { Compaction } from "./compaction.js";
import { estimatePrompt, promptLimit } from "./context-window.js";
import { createAgent } from "./create-agent.js";
import { defineTool } from "./tool.js";
import { DEFAULT_SUMMARY_INSTRUCTIONS } from "./summarize-conversation.js";

async function collect(run: GraphRun): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run) {
    events.push(event);
  }
  return events;
}

const isSummaryCall = (call: LanguageModelV3CallOptions) => call.prompt[0]?.role === "system" && call.prompt[0].content === DEFAULT_SUMMARY_INSTRUCTIONS;
const textOf = (call: LanguageModelV3CallOptions) => JSON.stringify(call.prompt);
const words = (count: number, word: string) => Array.from({ length: count }, () => word).join(" ");

const WINDOW = 1200;
const LIMIT = promptLimit(WINDOW, undefined, undefined);

/** A model whose replies are long, and whose summaries are short and numbered. */
function talkativeModel(options: { failSummaries?: boolean } = {}) {
  let summaries = 0;
  return new ScriptedModel((call): ScriptedReply => {
    if (isSummaryCall(call)) {
      summaries++;
      return options.failSummaries ? { error: new Error("the summariser is down") } : { text: [`Summary ${summaries}: `, "they talked about fruit."] };
    }
    return { text: `Reply: ${words(60, "banana")}` };
  });
}

/** Runs `turns` prompts on one thread, each with the conversation so far, as a protocol server does. */
async function converse(agent: ReturnType<typeof createAgent>, turns: number, threadId = "t1") {
  let messages: Message[] = [];
  const events: RunEvent[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const run = agent.run({ messages: [...messages, userMessage(`Question ${turn}: ${words(30, "apple")}`)] }, { threadId });
    events.push(...(await collect(run)));
    const outcome = await run.outcome;
    expect(outcome.status).toBe("completed");
    messages = (outcome as { output: { messages: Message[] } }).output.messages;
  }
  return { messages, events };
}

/** `inner`, reporting the input tokens `count` gives for each call instead of its own. */
function countingAs(inner: ScriptedModel, count: (call: LanguageModelV3CallOptions) => number): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: {},
    doGenerate: (options) => inner.doGenerate(options),
    doStream: async (options) => {
      const { stream } = await inner.doStream(options);
      const recount = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        transform: (part, controller) => {
          controller.enqueue(part.type === "finish" ? { ...part, usage: { ...part.usage, inputTokens: { ...part.usage.inputTokens, total: count(options) } } } : part);
        },
      });
      return { stream: stream.pipeThrough(recount) };
    },
  };
}

describe("createAgent with a context window", () => {
  it("summarises older turns before a call that would not fit, again and again, and never sends more than the limit", async () => {
    const model = talkativeModel();
    const agent = createAgent({ model, instructions: "Be brief.", context: { window: WINDOW } });
    const { messages, events } = await converse(agent, 12);

    // The conversation is kept whole; the calls were not.
    expect(messages).toHaveLength(24);
    expect(estimatePrompt([{ role: "system", content: "Be brief." }, ...messages.map((message) => ({ role: "user" as const, content: [{ type: "text" as const, text: JSON.stringify(message) }] }))], undefined)).toBeGreaterThan(WINDOW);
    for (const call of model.calls) {
      expect(estimatePrompt(call.prompt, undefined)).toBeLessThanOrEqual(LIMIT);
      expect(estimatePrompt(call.prompt, undefined) + (call.maxOutputTokens ?? 0)).toBeLessThanOrEqual(WINDOW);
    }
    const compactions = events.filter((event) => event.type === "compaction");
    expect(compactions.filter((event) => event.status === "completed").length).toBeGreaterThanOrEqual(2);
    expect(compactions.slice(0, 2)).toEqual([
      { type: "compaction", compactionId: expect.stringMatching(/^compaction_/), status: "in_progress" },
      { type: "compaction", compactionId: compactions[0]?.compactionId, status: "completed", summary: expect.stringMatching(/^Summary \d+: they talked about fruit\.$/) },
    ]);
    const first = compactions[1] as { compactionId: string; summary: string };
    // The summary streams as it is written (the last pass of it, when it took more than one).
    const deltas = events.filter((event) => event.type === "compaction-delta" && event.compactionId === first.compactionId).map((event) => (event as { delta: string }).delta);
    expect(deltas.join("")).toBe(first.summary);
    // A later compaction folds in the summary before it.
    const second = model.calls.filter(isSummaryCall).find((call) => textOf(call).includes(`<summary-so-far>\\n${first.summary}`) && textOf(call).includes("Question 6"));
    expect(second).toBeDefined();
    // The summary call is counted, with what is left in the context after it.
    const summaryEnds = events.filter((event) => event.type === "message-end" && event.messageId.startsWith("summary_"));
    expect(summaryEnds[0]).toMatchObject({ usage: { inputTokens: 10, outputTokens: 5, contextTokens: expect.any(Number) } });
    // The summary's text is not the reply's.
    expect(events.some((event) => event.type === "text-delta" && event.delta.includes("Summary"))).toBe(false);

    // The last reply call was sent the latest summary, then the recent turns.
    const last = model.calls.at(-1) as LanguageModelV3CallOptions;
    const latest = (compactions.filter((event) => event.status === "completed").at(-1) as { summary: string }).summary;
    expect(last.prompt[1]).toMatchObject({ role: "user", content: expect.arrayContaining([{ type: "text", text: expect.stringContaining(latest) }]) });
    expect(textOf(last)).toContain("Question 11");
    expect(textOf(last)).not.toContain("Question 0");
  });

  it("believes a provider that counts more tokens than characters/4, and compacts sooner for it", async () => {
    const firstCompaction = async (factor: number) => {
      const scripted = talkativeModel();
      const counted: number[] = [];
      const model = countingAs(scripted, (call) => {
        const tokens = Math.ceil(estimatePrompt(call.prompt, undefined) * factor);
        counted.push(tokens);
        return tokens;
      });
      const { events } = await converse(createAgent({ model, context: { window: WINDOW } }), 8);
      const turn = events.filter((event) => event.type === "run-start" || (event.type === "compaction" && event.status === "completed")).findIndex((event) => event.type === "compaction");
      return { turn, counted, calls: scripted.calls };
    };
    const honest = await firstCompaction(1);
    const dense = await firstCompaction(1.5);
    expect(honest.turn).toBeGreaterThan(0);
    expect(dense.turn).toBeGreaterThan(0);
    expect(dense.turn).toBeLessThan(honest.turn);
    // Every prompt the dense provider counted fit the window, the reply's room eaten into at most.
    expect(Math.max(...dense.counted)).toBeLessThanOrEqual(WINDOW);
  });

  it("keeps the compaction in the state of the thread, for the next run and the next process", async () => {
    const shared = new MemoryStore();
    const first = createAgent({ model: talkativeModel(), context: { window: WINDOW }, store: shared });
    const { messages } = await converse(first, 7, "kept");
    const state = await first.state("kept");
    expect(state?.compaction).toMatchObject({ summary: expect.stringMatching(/^Summary \d+/), covered: expect.any(Number) });

    // Another agent on the same store: the first call it makes already starts with the summary.
    const model = talkativeModel();
    const second = createAgent({ model, context: { window: WINDOW }, store: shared });
    const run = second.run({ messages: [...messages, userMessage("And now?")] }, { threadId: "kept" });
    await collect(run);
    expect((await run.outcome).status).toBe("completed");
    expect(model.calls.filter(isSummaryCall)).toHaveLength(0);
    expect(textOf(model.calls[0] as LanguageModelV3CallOptions)).toContain(state?.compaction?.summary);
  });

  it("tells of a failed summary and leaves out the oldest whole turns instead, still within the limit", async () => {
    const model = talkativeModel({ failSummaries: true });
    const agent = createAgent({ model, context: { window: WINDOW } });
    const { events } = await converse(agent, 6);
    const failed = events.find((event) => event.type === "compaction" && event.status === "failed");
    expect(failed).toMatchObject({ error: expect.stringContaining("the summariser is down") });
    expect(events.some((event) => event.type === "notice" && event.title.includes("left out"))).toBe(true);
    for (const call of model.calls) {
      expect(estimatePrompt(call.prompt, undefined)).toBeLessThanOrEqual(LIMIT);
    }
    expect(textOf(model.calls.at(-1) as LanguageModelV3CallOptions)).toContain("Question 5");
  });

  it("compacts inside one long run of tool calls without ever parting a call from its result", async () => {
    const read = defineTool({ name: "read", description: "Reads a file.", input: z.object({ path: z.string() }), execute: ({ path }) => `${path}: ${words(50, "const")}` });
    let step = 0;
    const model = new ScriptedModel((call): ScriptedReply => {
      if (isSummaryCall(call)) {
        return { text: "Summary: read files 0 to some." };
      }
      step++;
      return step <= 12 ? { toolCalls: [{ toolName: "read", input: { path: `file${step}.ts` }, toolCallId: `call-${step}` }] } : { text: "Done." };
    });
    const agent = createAgent({ model, tools: [read], context: { window: WINDOW } });
    const run = agent.run({ messages: [userMessage("Read every file.")] }, { threadId: "tools" });
    const events = await collect(run);
    expect((await run.outcome).status).toBe("completed");
    expect(events.filter((event) => event.type === "compaction" && event.status === "completed").length).toBeGreaterThanOrEqual(1);
    const replies = model.calls.filter((call) => !isSummaryCall(call));
    expect(replies).toHaveLength(13);
    for (const call of replies) {
      const tools = call.tools ?? [];
      expect(estimatePrompt(call.prompt, tools.filter((tool) => tool.type === "function"))).toBeLessThanOrEqual(LIMIT);
      // Every call sent has its result right after it, and every result its call.
      call.prompt.forEach((message, index) => {
        if (message.role === "assistant") {
          const ids = message.content.flatMap((part) => (part.type === "tool-call" ? [part.toolCallId] : []));
          const next = call.prompt[index + 1];
          const answered = next?.role === "tool" ? next.content.flatMap((part) => (part.type === "tool-result" ? [part.toolCallId] : [])) : [];
          expect(answered).toEqual(ids);
        }
        if (message.role === "tool") {
          expect(call.prompt[index - 1]?.role).toBe("assistant");
        }
      });
      expect(textOf(call)).not.toContain("was not run");
    }
    expect(textOf(replies.at(-1) as LanguageModelV3CallOptions)).not.toContain("file1.ts");
    // No result was lost on the way: each reply call was sent every result so far, or a summary call before it was.
    const summarised: string[] = [];
    let results = 0;
    for (const call of model.calls) {
      if (isSummaryCall(call)) {
        summarised.push(textOf(call));
        continue;
      }
      for (let file = 1; file <= results; file++) {
        expect(textOf(call).includes(`file${file}.ts: const`) || summarised.some((text) => text.includes(`Result of read: file${file}.ts: const`))).toBe(true);
      }
      results++;
    }
  });

  it("ends a summary the run's cancel stops as a cancelled compaction, and the run as cancelled", async () => {
    const model = new ScriptedModel((call): ScriptedReply => (isSummaryCall(call) ? { text: ["Summary", " never ends"], delayMs: 60_000 } : { text: `Reply: ${words(60, "banana")}` }));
    const agent = createAgent({ model, context: { window: WINDOW } });
    let messages: Message[] = [];
    let stopped = false;
    for (let turn = 0; turn < 20 && !stopped; turn++) {
      const controller = new AbortController();
      const run = agent.run({ messages: [...messages, userMessage(`Question ${turn}: ${words(30, "apple")}`)] }, { threadId: "stopped", signal: controller.signal });
      const events: RunEvent[] = [];
      for await (const event of run) {
        events.push(event);
        if (event.type === "compaction" && event.status === "in_progress") {
          controller.abort();
        }
      }
      const outcome = await run.outcome;
      if (outcome.status === "completed") {
        messages = outcome.output.messages;
        continue;
      }
      expect(outcome.status).toBe("cancelled");
      expect(events.filter((event) => event.type === "compaction").map((event) => (event as { status: string }).status)).toEqual(["in_progress", "cancelled"]);
      stopped = true;
    }
    expect(stopped).toBe(true);
  });

  it("fails the run rather than send more than the window when not even the latest step fits", async () => {
    const model = talkativeModel();
    const agent = createAgent({ model, instructions: words(2000, "rule"), context: { window: WINDOW } });
    const run = agent.run({ messages: [userMessage("Hello")] }, { threadId: "huge" });
    await collect(run);
    expect(await run.outcome).toMatchObject({ status: "failed", error: { message: expect.stringContaining("does not fit the model's context window of 1200 tokens") } });
    expect(model.calls).toHaveLength(0);
  });

  it("summarises everything on demand with compact: true, and makes no reply", async () => {
    const model = talkativeModel();
    // No window: only asking compacts.
    const agent = createAgent({ model });
    const { messages } = await converse(agent, 2, "asked");
    const calls = model.calls.length;
    const run = agent.run({ messages, compact: true }, { threadId: "asked" });
    const events = await collect(run);
    const outcome = await run.outcome;
    expect(outcome.status).toBe("completed");
    expect(model.calls).toHaveLength(calls + 1);
    expect(isSummaryCall(model.calls.at(-1) as LanguageModelV3CallOptions)).toBe(true);
    expect(events.filter((event) => event.type === "compaction").map((event) => (event as { status: string }).status)).toEqual(["in_progress", "completed"]);
    expect(events.some((event) => event.type === "message")).toBe(false);
    expect((outcome as { output: { messages: Message[]; compaction: Compaction } }).output.compaction).toMatchObject({ covered: 4 });

    // A tool call left without its result (a turn cut short) is not run by a compaction.
    const cutShort: Message = { id: "cut-short", role: "assistant", parts: [{ type: "tool-call", toolCallId: "left", toolName: "read", input: {} }], createdAt: new Date().toISOString() };
    const again = agent.run({ messages: [...messages, userMessage("Read it."), cutShort], compact: true }, { threadId: "cut-short" });
    const againEvents = await collect(again);
    expect((await again.outcome).status).toBe("completed");
    expect(againEvents.some((event) => event.type === "node-start" && event.node === "tools")).toBe(false);

    const next = agent.run({ messages: [...messages, userMessage("Go on.")] }, { threadId: "asked" });
    await collect(next);
    const sent = model.calls.at(-1) as LanguageModelV3CallOptions;
    expect(sent.prompt.map((message) => message.role)).toEqual(["user"]);
    expect(textOf(sent)).toContain("Summary 1");
    expect(textOf(sent)).toContain("Go on.");
    expect(textOf(sent)).not.toContain("Question 0");
  });
});
