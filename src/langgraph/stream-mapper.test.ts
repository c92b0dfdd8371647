// How LangGraph stream chunks become weft run events, fed with LangChain's own message classes in
// the shapes LangGraph streams them (`[namespace, mode, payload]`).

import { AIMessage, AIMessageChunk, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";

import type { RunEvent } from "../graph/events.js";
import { StreamMapper } from "./stream-mapper.js";

function mapper(known: string[] = [], rejected: string[] = []): { take: (chunk: unknown) => void; events: RunEvent[]; mapper: StreamMapper } {
  const events: RunEvent[] = [];
  const made = new StreamMapper((event) => events.push(event), new Set(known), new Set(rejected));
  return { take: (chunk) => made.take(chunk), events, mapper: made };
}

const meta = { langgraph_node: "model_request" };

describe("StreamMapper", () => {
  it("streams a reply's chunks as deltas of one message, and its node's update ends and keeps it", () => {
    const { take, events } = mapper();
    take([[], "messages", [new AIMessageChunk({ id: "m1", content: "" }), meta]]);
    take([[], "messages", [new AIMessageChunk({ id: "m1", content: "Hel" }), meta]]);
    take([[], "messages", [new AIMessageChunk({ id: "m1", content: "", additional_kwargs: { reasoning_content: "hmm" } }), meta]]);
    take([[], "messages", [new AIMessageChunk({ id: "m1", content: "lo" }), meta]]);
    take([[], "updates", { model_request: { messages: [new AIMessage({ id: "m1", content: "Hello", response_metadata: { finish_reason: "stop" } })] } }]);
    expect(events.map((event) => event.type)).toEqual(["message-start", "text-delta", "reasoning-delta", "text-delta", "message-end", "message", "checkpoint"]);
    expect(events.filter((event) => event.type === "text-delta").map((event) => event.delta)).toEqual(["Hel", "lo"]);
    expect(events.find((event) => event.type === "message-end")).toEqual({ type: "message-end", messageId: "m1", finishReason: "stop" });
    expect(events.find((event) => event.type === "message")).toMatchObject({ message: { id: "m1", role: "assistant", parts: [{ type: "text", text: "Hello" }], finishReason: "stop" } });
  });

  it("announces a call once from its first chunk, streams its arguments, and ends it with the parsed input", () => {
    const { take, events } = mapper();
    take([[], "messages", [new AIMessageChunk({ id: "m1", content: "", tool_call_chunks: [{ id: "c1", name: "write_file", args: '{"path":', index: 0 }] }), meta]]);
    take([[], "messages", [new AIMessageChunk({ id: "m1", content: "", tool_call_chunks: [{ args: '"a.txt"}', index: 0 }] }), meta]]);
    take([[], "updates", { model_request: { messages: [new AIMessage({ id: "m1", content: "", tool_calls: [{ id: "c1", name: "write_file", args: { path: "a.txt" } }] })] } }]);
    expect(events.filter((event) => event.type.startsWith("tool-call"))).toEqual([
      { type: "tool-call-start", messageId: "m1", toolCallId: "c1", toolName: "write_file" },
      { type: "tool-call-delta", toolCallId: "c1", delta: '{"path":' },
      { type: "tool-call-delta", toolCallId: "c1", delta: '"a.txt"}' },
      { type: "tool-call-end", messageId: "m1", toolCallId: "c1", toolName: "write_file", input: { path: "a.txt" } },
    ]);
  });

  it("a tool run starts and ends from the tools stream, and its message is kept without a second end", () => {
    const { take, events } = mapper();
    take([[], "updates", { model_request: { messages: [new AIMessage({ id: "m1", content: "", tool_calls: [{ id: "c1", name: "read_file", args: { path: "a" } }] })] } }]);
    take([[], "tools", { event: "on_tool_start", toolCallId: "c1", name: "read_file", input: '{"path":"a"}' }]);
    const result = new ToolMessage({ id: "t1", tool_call_id: "c1", name: "read_file", content: "text of a" });
    take([[], "tools", { event: "on_tool_end", toolCallId: "c1", name: "read_file", output: result }]);
    take([[], "updates", { tools: { messages: [result] } }]);
    const tools = events.filter((event) => event.type === "tool-start" || event.type === "tool-end" || event.type === "message");
    expect(tools.map((event) => event.type)).toEqual(["message", "tool-start", "tool-end", "message"]);
    expect(tools[1]).toEqual({ type: "tool-start", toolCallId: "c1", toolName: "read_file", input: { path: "a" } });
    expect(tools[2]).toEqual({ type: "tool-end", toolCallId: "c1", toolName: "read_file", status: "success", output: "text of a" });
    expect(tools[3]).toMatchObject({ message: { id: "t1", role: "tool", parts: [{ type: "tool-result", toolCallId: "c1", output: "text of a" }] } });
  });

  it("a tool that throws ends in error", () => {
    const { take, events } = mapper();
    take([[], "tools", { event: "on_tool_start", toolCallId: "c1", name: "read_file", input: "{}" }]);
    take([[], "tools", { event: "on_tool_error", toolCallId: "c1", name: "read_file", error: new Error("no such file") }]);
    expect(events.at(-1)).toEqual({ type: "tool-end", toolCallId: "c1", toolName: "read_file", status: "error", output: "no such file" });
  });

  it("the result of a rejected call (written by the middleware, no tool run) ends it as rejected", () => {
    const { take, mapper: made, events } = mapper([], ["c1"]);
    made.expect("c1", "write_file");
    take([[], "updates", { "HumanInTheLoopMiddleware.after_model": { messages: [new ToolMessage({ id: "t1", tool_call_id: "c1", name: "write_file", content: "No.", status: "error" })] } }]);
    expect(events.find((event) => event.type === "tool-end")).toEqual({ type: "tool-end", toolCallId: "c1", toolName: "write_file", status: "rejected", output: "No." });
    made.closeOpen();
    expect(events.filter((event) => event.type === "tool-end")).toHaveLength(1);
  });

  it("closes calls a run left open (dropped beside a rejected one) as not run", () => {
    const { mapper: made, events } = mapper([], ["c2"]);
    made.expect("c1", "write_file");
    made.closeOpen();
    expect(events).toEqual([{ type: "tool-end", toolCallId: "c1", toolName: "write_file", status: "rejected", output: "This tool call did not run." }]);
  });

  it("does not announce again a message the conversation has, such as one a middleware revised", () => {
    const { take, events } = mapper(["m1"]);
    take([[], "updates", { "HumanInTheLoopMiddleware.after_model": { messages: [new AIMessage({ id: "m1", content: "again" })] } }]);
    expect(events.filter((event) => event.type !== "checkpoint")).toEqual([]);
  });

  it("a message a node wrote without streaming is told whole", () => {
    const { take, events } = mapper();
    take([[], "updates", { ask: { messages: [new AIMessage({ id: "r1", content: "You chose red." })] } }]);
    expect(events.map((event) => event.type)).toEqual(["message-start", "text-delta", "message-end", "message", "checkpoint"]);
  });

  it("a subgraph's updates are kept but are not a checkpoint of the run", () => {
    const { take, events } = mapper();
    take([["agent:1"], "updates", { model: { messages: [new AIMessage({ id: "s1", content: "inner" })] } }]);
    take([[], "updates", { agent: { messages: [new AIMessage({ id: "s1", content: "inner" })] } }]);
    expect(events.filter((event) => event.type === "message")).toHaveLength(1);
    expect(events.filter((event) => event.type === "checkpoint")).toHaveLength(1);
  });

  it("a custom plan is a plan; any other custom payload a custom event", () => {
    const { take, events } = mapper();
    const entries = [{ content: "Read", priority: "high", status: "pending" }];
    take([[], "custom", { type: "plan", entries }]);
    take([[], "custom", { type: "progress", done: 3 }]);
    take([[], "custom", "plain"]);
    expect(events).toEqual([
      { type: "plan", entries },
      { type: "custom", name: "progress", data: { type: "progress", done: 3 } },
      { type: "custom", name: "custom", data: "plain" },
    ]);
  });
});
