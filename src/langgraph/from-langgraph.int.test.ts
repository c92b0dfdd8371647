// fromLangGraph() on a hand-built LangGraph ReAct graph (a ChatOpenAI model node against the fake
// chat-completions server, and LangGraph's ToolNode), in process: what a run emits and ends with,
// what its nodes and tools are told, and what a thread says of itself (completed, waiting,
// cut mid-run and carried on, stopped at a breakpoint and asked again after a restart, forgotten).

import { tool } from "@langchain/core/tools";
import { type LangGraphRunnableConfig, MemorySaver, MessagesAnnotation, StateGraph, interrupt } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { UnknownInterruptError } from "../graph/graph-errors.js";
import type { RunEvent } from "../graph/events.js";
import type { GraphRun } from "../graph/run-outcome.js";
import type { Message } from "../types/messages.js";
import { FakeModelServer, type FakeScript } from "../testing/fake-model-server.js";
import { fromLangGraph, weftContext, type WeftRunContext } from "./from-langgraph.js";

const servers: FakeModelServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.close();
  }
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A ReAct graph: the model, then its tools, until it answers without calls; `checkpointer` and static breakpoints as given. */
async function reactGraph(
  script: FakeScript,
  look: (path: string, config: LangGraphRunnableConfig) => Promise<string>,
  compile: { checkpointer?: MemorySaver; interruptBefore?: Array<"agent" | "tools">; interruptAfter?: Array<"agent" | "tools"> } = {},
) {
  const server = await FakeModelServer.start(script);
  servers.push(server);
  const lookTool = tool(async ({ path }, config) => look(path, config), { name: "look", description: "Looks at a path.", schema: z.object({ path: z.string() }) });
  const model = new ChatOpenAI({ model: "fake-model", apiKey: "fake-key", configuration: { baseURL: server.url } }).bindTools([lookTool]);
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state, config) => ({ messages: [await model.invoke(state.messages, config)] }))
    .addNode("tools", new ToolNode([lookTool]))
    .addEdge("__start__", "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", "__end__"])
    .addEdge("tools", "agent")
    .compile({ checkpointer: new MemorySaver(), ...compile });
  return { graph, server };
}

async function drain(run: GraphRun): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run) {
    events.push(event);
  }
  return events;
}

const prompt = (text: string): { messages: Message[] } => ({ messages: [{ id: `u-${text}`, role: "user", parts: [{ type: "text", text }] }] });

/** Runs "look" on thread t1 and cancels it while its tool runs (the tool runs again when asked again). */
async function cutMidTool() {
  const entered = deferred();
  let calls = 0;
  const { graph, server } = await reactGraph([{ toolCalls: [{ id: "c1", name: "look", arguments: { path: "a" } }] }, { text: "Seen." }], async (path, config) => {
    calls++;
    if (calls === 1) {
      entered.resolve();
      await new Promise((_resolve, reject) => config.signal?.addEventListener("abort", () => reject(new Error("aborted"))));
    }
    return `saw ${path}`;
  });
  const adapter = fromLangGraph(graph);
  const controller = new AbortController();
  const run = adapter.run(prompt("look"), { threadId: "t1", signal: controller.signal });
  const draining = drain(run);
  await entered.promise;
  controller.abort();
  await draining;
  return { adapter, server, outcome: await run.outcome, calls: () => calls };
}

describe("fromLangGraph on a hand-built ReAct graph", () => {
  it("runs to completion: the conversation as weft messages, each finished message announced once", async () => {
    const { graph } = await reactGraph([{ toolCalls: [{ id: "c1", name: "look", arguments: { path: "a" } }] }, { text: ["Seen ", "a."] }], async (path) => `saw ${path}`);
    const adapter = fromLangGraph(graph, { name: "react" });
    expect(adapter.name).toBe("react");
    expect(await adapter.thread?.("t1")).toBeUndefined();
    const run = adapter.run(prompt("look at a"), { threadId: "t1" });
    const events = await drain(run);
    const outcome = await run.outcome;
    expect(outcome.status).toBe("completed");
    const messages = (outcome as { output: { messages: Message[] } }).output.messages;
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(messages[0]?.id).toBe("u-look at a");
    const announced = events.flatMap((event) => (event.type === "message" ? [event.message.id] : []));
    expect(announced).toEqual(messages.slice(1).map((message) => message.id));
    expect(events.filter((event) => event.type === "tool-end")).toEqual([{ type: "tool-end", toolCallId: "c1", toolName: "look", status: "success", output: "saw a" }]);
    expect(events.at(-1)).toEqual({ type: "run-end", status: "completed" });
    expect(await adapter.thread?.("t1")).toMatchObject({ status: "completed", pending: [] });
  });

  it("hands every node and tool the session's id, directory, principal and settings under configurable.weft", async () => {
    let seen: WeftRunContext | undefined;
    const { graph } = await reactGraph([{ toolCalls: [{ id: "c1", name: "look", arguments: { path: "a" } }] }, { text: "ok" }], async (_path, config) => {
      seen = weftContext(config);
      return "ok";
    });
    const run = fromLangGraph(graph).run(prompt("look"), { threadId: "sess_1", cwd: "/work/project", principal: { id: "ada" }, config: () => ({ model: "fast" }) });
    await drain(run);
    expect((await run.outcome).status).toBe("completed");
    expect(seen).toEqual({ sessionId: "sess_1", cwd: "/work/project", principal: { id: "ada" }, config: { model: "fast" } });
  });

  it("a run cancelled mid-tool ends cancelled, leaves the thread unfinished, and continue() carries it on", async () => {
    const { adapter, server, outcome } = await cutMidTool();
    expect(outcome).toEqual({ status: "cancelled" });
    expect(await adapter.thread?.("t1")).toMatchObject({ status: "unfinished" });
    const carried = adapter.continue?.({ threadId: "t1" });
    if (!carried) {
      throw new Error("continue is missing");
    }
    const events = await drain(carried);
    expect((await carried.outcome).status).toBe("completed");
    expect(events.find((event) => event.type === "tool-end")).toMatchObject({ toolCallId: "c1", status: "success", output: "saw a" });
    // The model was not asked again for the call it had made.
    expect(server.requests).toHaveLength(2);
    expect(await adapter.thread?.("t1")).toMatchObject({ status: "completed" });
  });

  it("a run given input the cut thread already holds (a turn started over after a crash) carries the run on", async () => {
    const { adapter, server, calls } = await cutMidTool();
    const again = adapter.run(prompt("look"), { threadId: "t1" });
    await drain(again);
    expect((await again.outcome).status).toBe("completed");
    expect(server.requests).toHaveLength(2);
    expect(calls()).toBe(2);
  });

  it("continue() on a thread with nothing to carry on fails with nothing_to_continue", async () => {
    const { graph } = await reactGraph([{ text: "hi" }], async () => "");
    const adapter = fromLangGraph(graph);
    await drain(adapter.run(prompt("hi"), { threadId: "t1" }));
    const run = adapter.continue?.({ threadId: "t1" });
    const outcome = await run?.outcome;
    expect(outcome?.status).toBe("failed");
    expect((outcome as { error: { code?: string } }).error.code).toBe("nothing_to_continue");
  });

  it("deleteThread() forgets the thread's checkpoints", async () => {
    const { graph } = await reactGraph([{ text: "hi" }], async () => "");
    const adapter = fromLangGraph(graph);
    await drain(adapter.run(prompt("hi"), { threadId: "t1" }));
    expect(await adapter.thread?.("t1")).toBeDefined();
    await adapter.deleteThread?.("t1");
    expect(await adapter.thread?.("t1")).toBeUndefined();
  });
});

describe("fromLangGraph and interrupts", () => {
  const colour = { type: "object" as const, properties: { colour: { type: "string" as const } } };

  function askingGraph() {
    return new StateGraph(MessagesAnnotation)
      .addNode("ask", () => {
        const answer = interrupt<string, { colour: string }>("Which colour?", { responseSchema: colour });
        return { messages: [{ id: "reply", role: "assistant", content: `chose ${answer.colour}` }] };
      })
      .addEdge("__start__", "ask")
      .compile();
  }

  it("a graph compiled without a checkpointer gets one, pauses with the typed question, and resumes with the answer", async () => {
    const adapter = fromLangGraph(askingGraph());
    const run = adapter.run(prompt("go"), { threadId: "t1" });
    const events = await drain(run);
    const outcome = await run.outcome;
    if (outcome.status !== "interrupted") {
      throw new Error(`expected an interrupt, got ${outcome.status}`);
    }
    const [asked] = outcome.interrupts;
    expect(asked).toMatchObject({ value: "Which colour?", node: "ask", schema: colour });
    expect(asked?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(events.filter((event) => event.type === "interrupt")).toHaveLength(1);
    expect(await adapter.thread?.("t1")).toMatchObject({ status: "interrupted", pending: [asked] });
    const resumed = adapter.resume({ [asked?.id ?? ""]: { action: "accept", content: { colour: "red" } } }, { threadId: "t1" });
    const after = await drain(resumed);
    expect((await resumed.outcome).status).toBe("completed");
    expect(after.find((event) => event.type === "message")).toMatchObject({ message: { id: "reply", parts: [{ type: "text", text: "chose red" }] } });
  });

  it("a resume naming an interrupt the thread does not wait on fails with UnknownInterruptError and changes nothing", async () => {
    const adapter = fromLangGraph(askingGraph());
    await drain(adapter.run(prompt("go"), { threadId: "t1" }));
    const outcome = await adapter.resume({ nope: "x" }, { threadId: "t1" }).outcome;
    expect(outcome.status).toBe("failed");
    expect(UnknownInterruptError.isInstance((outcome as { error: unknown }).error)).toBe(true);
    expect(await adapter.thread?.("t1")).toMatchObject({ status: "interrupted" });
  });
});

describe("fromLangGraph and static breakpoints", () => {
  it("a stop after the model's step (interruptAfter) is an approval of each call it holds, kept across a restart, never carried on unasked", async () => {
    const checkpointer = new MemorySaver();
    let looked = 0;
    const look = async (path: string) => {
      looked++;
      return `saw ${path}`;
    };
    const { graph } = await reactGraph([{ toolCalls: [{ id: "c1", name: "look", arguments: { path: "a" } }] }, { text: "Seen." }], look, { checkpointer, interruptAfter: ["agent"] });
    const run = fromLangGraph(graph).run(prompt("look"), { threadId: "t1" });
    await drain(run);
    const outcome = await run.outcome;
    if (outcome.status !== "interrupted") {
      throw new Error(`expected the stop to ask, got ${outcome.status}`);
    }
    expect(outcome.interrupts).toEqual([
      {
        id: "breakpoint:c1",
        // The node the graph stopped after.
        node: "agent",
        value: {
          kind: "tool-approval",
          toolCallId: "c1",
          toolName: "look",
          input: { path: "a" },
          title: 'look(path: "a")',
          display: [{ type: "text", text: 'The graph stopped after its step "agent" (a breakpoint) before this call runs.\n\nArguments:\n```json\n{\n  "path": "a"\n}\n```' }],
        },
      },
    ]);
    // A process started again over the same checkpoints: still waiting, and continue() asks again instead of running the call.
    const restarted = fromLangGraph((await reactGraph([{ text: "Seen." }], look, { checkpointer, interruptAfter: ["agent"] })).graph);
    expect(await restarted.thread?.("t1")).toMatchObject({ status: "interrupted", pending: outcome.interrupts });
    const carried = restarted.continue?.({ threadId: "t1" });
    expect((await carried?.outcome)?.status).toBe("interrupted");
    expect(looked).toBe(0);
    const resumed = restarted.resume({ "breakpoint:c1": { decision: "approve" } }, { threadId: "t1" });
    const events = await drain(resumed);
    expect((await resumed.outcome).status).toBe("completed");
    expect(looked).toBe(1);
    expect(events.find((event) => event.type === "tool-end")).toMatchObject({ toolCallId: "c1", status: "success", output: "saw a" });
    expect(await restarted.thread?.("t1")).toMatchObject({ status: "completed" });
  });

  it("a graph without breakpoints cut mid-run is still carried on, not asked about", async () => {
    const { adapter, outcome } = await cutMidTool();
    expect(outcome).toEqual({ status: "cancelled" });
    expect(await adapter.thread?.("t1")).toMatchObject({ status: "unfinished", pending: [] });
  });
});
