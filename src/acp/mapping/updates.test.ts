// A run's events as the editor sees them, and a kept conversation replayed: each event's update,
// tool calls announced once with their final status, and the same ids, kinds and titles either way.

import { describe, expect, it } from "vitest";

import type { RunEvent } from "../../graph/events.js";
import type { Message } from "../../types/messages.js";
import { ToolCallIds } from "./tool-calls.js";
import { replayUpdates } from "./replay-updates.js";
import { type AcpSessionUpdate, eventUpdates, toolCallUpdate, type UpdateContext } from "./updates.js";

const context = (contentLimit = 1000): UpdateContext => ({ cwd: "/project", ids: new ToolCallIds(), kind: (name) => (name === "read_file" ? "read" : "other"), contentLimit });
const all = (events: RunEvent[], given = context()): AcpSessionUpdate[] => events.flatMap((event) => eventUpdates(event, given));

describe("toolCallUpdate", () => {
  it("announces a call with its title, kind, status, input and the files it names", () => {
    expect(toolCallUpdate(context(), "call_1", "read_file", { path: "src/a.ts", line: 2 }, "pending")).toEqual({
      sessionUpdate: "tool_call",
      toolCallId: "call_1",
      title: "read_file src/a.ts",
      kind: "read",
      status: "pending",
      rawInput: { path: "src/a.ts", line: 2 },
      locations: [{ path: "/project/src/a.ts", line: 2 }],
    });
    expect(toolCallUpdate(context(), "call_2", "ping", undefined, "in_progress")).toEqual({ sessionUpdate: "tool_call", toolCallId: "call_2", title: "ping", kind: "other", status: "in_progress", rawInput: null });
  });
});

describe("eventUpdates", () => {
  it("streams text and reasoning as message and thought chunks of their message", () => {
    expect(
      all([
        { type: "text-delta", messageId: "m1", delta: "Hel" },
        { type: "reasoning-delta", messageId: "m1", delta: "hmm" },
      ]),
    ).toEqual([
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" }, messageId: "m1" },
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" }, messageId: "m1" },
    ]);
  });

  it("announces a call when the model has sent it, then updates it as the tool starts, reports and ends", () => {
    const updates = all([
      { type: "tool-call-end", messageId: "m1", toolCallId: "call_1", toolName: "read_file", input: { path: "a.ts" } },
      { type: "tool-start", toolCallId: "call_1", toolName: "read_file", input: { path: "a.ts" }, title: "Read a.ts", locations: [{ path: "/project/a.ts" }] },
      { type: "tool-update", toolCallId: "call_1", display: [{ type: "text", text: "half way" }], locations: [{ path: "/project/a.ts", line: 9 }], title: "Reading a.ts" },
      { type: "tool-end", toolCallId: "call_1", toolName: "read_file", status: "success", output: "the text", locations: [{ path: "/project/a.ts", line: 1 }] },
    ]);
    expect(updates).toEqual([
      { sessionUpdate: "tool_call", toolCallId: "call_1", title: "read_file a.ts", kind: "read", status: "pending", rawInput: { path: "a.ts" }, locations: [{ path: "/project/a.ts" }] },
      { sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "in_progress", title: "Read a.ts", locations: [{ path: "/project/a.ts" }] },
      { sessionUpdate: "tool_call_update", toolCallId: "call_1", content: [{ type: "content", content: { type: "text", text: "half way" } }], locations: [{ path: "/project/a.ts", line: 9 }], title: "Reading a.ts" },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "call_1",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "the text" } }],
        rawOutput: "the text",
        locations: [{ path: "/project/a.ts", line: 1 }],
      },
    ]);
  });

  it("announces a call a plain graph's tool starts without the model having sent it, with the tool's title", () => {
    expect(all([{ type: "tool-start", toolCallId: "call_1", toolName: "deploy", input: { target: "prod" }, title: "Deploy to prod" }])).toEqual([
      { sessionUpdate: "tool_call", toolCallId: "call_1", title: "Deploy to prod", kind: "other", status: "in_progress", rawInput: { target: "prod" }, locations: [{ path: "/project/prod" }] },
    ]);
  });

  it("ends a failed or rejected call as failed, announcing it first when it had not been announced", () => {
    expect(all([{ type: "tool-end", toolCallId: "call_1", toolName: "rm", status: "rejected", output: undefined }])).toEqual([
      { sessionUpdate: "tool_call", toolCallId: "call_1", title: "rm", kind: "other", status: "in_progress", rawInput: null },
      { sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "failed", content: [], rawOutput: null },
    ]);
    const given = context(120);
    const [, error] = all(
      [
        { type: "tool-call-end", messageId: "m1", toolCallId: "call_2", toolName: "run", input: {} },
        { type: "tool-end", toolCallId: "call_2", toolName: "run", status: "error", output: "e".repeat(1000) },
      ],
      given,
    );
    expect(error).toMatchObject({ sessionUpdate: "tool_call_update", toolCallId: "call_2", status: "failed", rawOutput: "e".repeat(1000) });
    // What the editor is shown is bounded; the raw output is not.
    const shown = error?.sessionUpdate === "tool_call_update" && error.content?.[0]?.type === "content" && error.content[0].content.type === "text" ? error.content[0].content.text : "";
    expect(shown.length).toBeLessThanOrEqual(120);
  });

  it("gives a call that reuses an earlier call's id an id of its own, and events about it follow", () => {
    const given = context();
    const updates = all(
      [
        { type: "tool-call-end", messageId: "m1", toolCallId: "call_1", toolName: "ping", input: {} },
        { type: "tool-end", toolCallId: "call_1", toolName: "ping", status: "success", output: "one" },
        { type: "tool-call-end", messageId: "m2", toolCallId: "call_1", toolName: "ping", input: {} },
        { type: "tool-end", toolCallId: "call_1", toolName: "ping", status: "success", output: "two" },
      ],
      given,
    );
    expect(updates.map((update) => ("toolCallId" in update ? `${update.sessionUpdate} ${update.toolCallId}` : update.sessionUpdate))).toEqual([
      "tool_call call_1",
      "tool_call_update call_1",
      "tool_call call_1~2",
      "tool_call_update call_1~2",
    ]);
  });

  it("sends a plan's entries, and nothing for events the editor is not shown", () => {
    expect(all([{ type: "plan", entries: [{ content: "Read the code", priority: "high", status: "in_progress" }] }])).toEqual([
      { sessionUpdate: "plan", entries: [{ content: "Read the code", priority: "high", status: "in_progress" }] },
    ]);
    expect(
      all([
        { type: "run-start", runId: "r", threadId: "t", mode: "run" },
        { type: "node-start", node: "agent", step: 1 },
        { type: "message-start", messageId: "m1" },
        { type: "tool-call-start", messageId: "m1", toolCallId: "c", toolName: "x" },
        { type: "tool-call-delta", toolCallId: "c", delta: "{" },
        { type: "message", message: { id: "m1", role: "assistant", parts: [] } },
        { type: "checkpoint", step: 1, seq: 1, status: "running" },
        { type: "custom", name: "progress", data: 1 },
        { type: "run-end", status: "completed" },
      ]),
    ).toEqual([]);
  });
});

describe("replayUpdates", () => {
  const history: Message[] = [
    { id: "s0", role: "system", parts: [{ type: "text", text: "be brief" }] },
    {
      id: "u1",
      role: "user",
      parts: [
        { type: "text", text: "look at these" },
        { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
        { type: "file", uri: "file:///notes.md", mediaType: "text/markdown", text: "# notes" },
        { type: "file", uri: "file:///data.bin", data: "AAAA" },
        { type: "link", uri: "file:///spec.md", name: "spec.md", title: "The spec", mediaType: "text/markdown" },
      ],
    },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "reasoning", text: "they want a summary" },
        { type: "text", text: "Reading." },
        { type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: "notes.md" } },
        { type: "tool-call", toolCallId: "call_2", toolName: "run", input: { command: "make" } },
        { type: "tool-call", toolCallId: "call_3", toolName: "run", input: { command: "sleep 99" } },
      ],
    },
    {
      id: "t1",
      role: "tool",
      parts: [
        { type: "tool-result", toolCallId: "call_1", toolName: "read_file", output: "# notes", locations: [{ path: "/project/notes.md", line: 1 }] },
        { type: "tool-result", toolCallId: "call_2", toolName: "run", output: "make: error", isError: true, display: [{ type: "terminal", terminalId: "term_1" }] },
        // A result whose call the conversation does not have (a plain graph's tool).
        { type: "tool-result", toolCallId: "call_4", toolName: "deploy", output: "ok" },
      ],
    },
  ];

  it("replays the person's blocks, the agent's text and thoughts, and each tool call once with its final status", () => {
    expect(replayUpdates(history, context())).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "look at these" }, messageId: "u1" },
      { sessionUpdate: "user_message_chunk", content: { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }, messageId: "u1" },
      { sessionUpdate: "user_message_chunk", content: { type: "resource", resource: { uri: "file:///notes.md", mimeType: "text/markdown", text: "# notes" } }, messageId: "u1" },
      { sessionUpdate: "user_message_chunk", content: { type: "resource", resource: { uri: "file:///data.bin", blob: "AAAA" } }, messageId: "u1" },
      { sessionUpdate: "user_message_chunk", content: { type: "resource_link", uri: "file:///spec.md", name: "spec.md", title: "The spec", mimeType: "text/markdown" }, messageId: "u1" },
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "they want a summary" }, messageId: "a1" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Reading." }, messageId: "a1" },
      {
        sessionUpdate: "tool_call",
        toolCallId: "call_1",
        title: "read_file notes.md",
        kind: "read",
        status: "completed",
        rawInput: { path: "notes.md" },
        locations: [{ path: "/project/notes.md", line: 1 }],
        content: [{ type: "content", content: { type: "text", text: "# notes" } }],
        rawOutput: "# notes",
      },
      { sessionUpdate: "tool_call", toolCallId: "call_2", title: "run make", kind: "other", status: "failed", rawInput: { command: "make" }, content: [{ type: "terminal", terminalId: "term_1" }], rawOutput: "make: error" },
      {
        sessionUpdate: "tool_call",
        toolCallId: "call_3",
        title: "run sleep 99",
        kind: "other",
        status: "failed",
        rawInput: { command: "sleep 99" },
        content: [{ type: "content", content: { type: "text", text: "This tool call did not finish." } }],
      },
      { sessionUpdate: "tool_call", toolCallId: "call_4", title: "deploy", kind: "other", status: "completed", rawInput: null, content: [{ type: "content", content: { type: "text", text: "ok" } }], rawOutput: "ok" },
    ]);
  });

  it("replays a call as it was last shown when its result kept that, and one kept before results did as its input makes it", () => {
    const kept: Message[] = [
      { id: "a1", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_1", toolName: "survey", input: { path: "plan.md" } }] },
      {
        id: "t1",
        role: "tool",
        parts: [{ type: "tool-result", toolCallId: "call_1", toolName: "survey", output: "12 lines", title: "Surveyed plan.md", kind: "read", locations: [{ path: "/project/plan.md", line: 7 }] }],
      },
      { id: "a2", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_2", toolName: "survey", input: { path: "old.md" } }] },
      { id: "t2", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_2", toolName: "survey", output: "3 lines" }] },
      // Kept with a title and no files: the call was last shown with none, whatever its input names.
      { id: "a3", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_3", toolName: "survey", input: { path: "gone.md" } }] },
      { id: "t3", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_3", toolName: "survey", output: "none", title: "Nothing to survey" }] },
    ];
    expect(replayUpdates(kept, context())).toEqual([
      {
        sessionUpdate: "tool_call",
        toolCallId: "call_1",
        title: "Surveyed plan.md",
        kind: "read",
        status: "completed",
        rawInput: { path: "plan.md" },
        locations: [{ path: "/project/plan.md", line: 7 }],
        content: [{ type: "content", content: { type: "text", text: "12 lines" } }],
        rawOutput: "12 lines",
      },
      {
        sessionUpdate: "tool_call",
        toolCallId: "call_2",
        title: "survey old.md",
        kind: "other",
        status: "completed",
        rawInput: { path: "old.md" },
        locations: [{ path: "/project/old.md" }],
        content: [{ type: "content", content: { type: "text", text: "3 lines" } }],
        rawOutput: "3 lines",
      },
      {
        sessionUpdate: "tool_call",
        toolCallId: "call_3",
        title: "Nothing to survey",
        kind: "other",
        status: "completed",
        rawInput: { path: "gone.md" },
        content: [{ type: "content", content: { type: "text", text: "none" } }],
        rawOutput: "none",
      },
    ]);
  });

  it("gives replayed calls the same ids live calls of the session would get", () => {
    const given = context();
    const twice: Message[] = [
      { id: "a1", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_1", toolName: "ping", input: {} }] },
      { id: "t1", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_1", toolName: "ping", output: "one" }] },
      { id: "a2", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_1", toolName: "ping", input: {} }] },
    ];
    const replayed = replayUpdates(twice, given).map((update) => ("toolCallId" in update ? update.toolCallId : ""));
    expect(replayed).toEqual(["call_1", "call_1~2"]);
    // A live call after the replay does not take an id the replay gave.
    expect(eventUpdates({ type: "tool-call-end", messageId: "a3", toolCallId: "call_1", toolName: "ping", input: {} }, given)).toMatchObject([{ toolCallId: "call_1~3" }]);
  });

  it("shows each call its own result when a model reuses an id, and a call left without one as not finished", () => {
    const reused: Message[] = [
      { id: "a1", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_1", toolName: "ping", input: { host: "one" } }] },
      { id: "t1", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_1", toolName: "ping", output: "first" }] },
      { id: "a2", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_1", toolName: "ping", input: { host: "two" } }] },
      { id: "t2", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_1", toolName: "ping", output: "second", isError: true }] },
      { id: "a3", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_1", toolName: "ping", input: { host: "three" } }] },
      // A result no call before it waits for is shown as a call of its own.
      { id: "t3", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_9", toolName: "ping", output: "stray" }] },
    ];
    expect(replayUpdates(reused, context()).map((update) => (update.sessionUpdate === "tool_call" ? [update.toolCallId, update.status, update.rawOutput] : []))).toEqual([
      ["call_1", "completed", "first"],
      ["call_1~2", "failed", "second"],
      ["call_1~3", "failed", undefined],
      ["call_9", "completed", "stray"],
    ]);
  });
});
