// A turn's tool calls as they were last shown, kept with their results: a replay of the kept
// conversation shows each call exactly as the live updates left it, and the graph's messages are
// not changed.

import { describe, expect, it } from "vitest";

import type { RunEvent } from "../../graph/events.js";
import type { Message } from "../../types/messages.js";
import { LiveToolCalls } from "./live-tool-calls.js";
import { ToolCallIds } from "../mapping/tool-calls.js";
import { Transcript } from "./transcript.js";
import { replayUpdates } from "../mapping/replay-updates.js";
import { type AcpSessionUpdate, eventUpdates, type UpdateContext } from "../mapping/updates.js";

const context = (): UpdateContext => ({ cwd: "/project", ids: new ToolCallIds(), kind: (name) => (name === "edit_file" ? "edit" : "other"), contentLimit: 1000 });

/** A tool call as an editor keeps it: its announcement with each later change folded in. */
function folded(updates: readonly AcpSessionUpdate[], toolCallId: string): Record<string, unknown> {
  let state: Record<string, unknown> = {};
  for (const update of updates) {
    if ((update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") && update.toolCallId === toolCallId) {
      const { sessionUpdate: _kind, ...fields } = update;
      state = { ...state, ...fields };
    }
  }
  return state;
}

describe("LiveToolCalls", () => {
  it("keeps each call's last title, kind and files with its result, so its replay equals its live end", () => {
    const events: RunEvent[] = [
      { type: "tool-call-end", messageId: "a1", toolCallId: "call_1", toolName: "edit_file", input: { path: "src/app.js" } },
      { type: "tool-start", toolCallId: "call_1", toolName: "edit_file", input: { path: "src/app.js" }, title: "Edit src/app.js", locations: [{ path: "/project/src/app.js", line: 4 }] },
      { type: "tool-update", toolCallId: "call_1", title: "Edited src/app.js", display: [{ type: "text", text: "halfway" }], locations: [{ path: "/project/src/app.js", line: 9 }] },
      { type: "tool-end", toolCallId: "call_1", toolName: "edit_file", status: "success", output: "done", display: [{ type: "diff", path: "/project/src/app.js", oldText: "a", newText: "b" }] },
      // A plain graph's tool: started without the model's call, retitled, ended as failed.
      { type: "tool-start", toolCallId: "call_2", toolName: "deploy", input: { target: "prod" }, title: "Deploy to prod" },
      { type: "tool-end", toolCallId: "call_2", toolName: "deploy", status: "error", output: "refused" },
    ];
    const view = context();
    const live = new LiveToolCalls();
    const transcript = new Transcript();
    const sent: AcpSessionUpdate[] = [];
    for (const event of events) {
      for (const update of eventUpdates(event, view)) {
        live.noteUpdate(update);
        sent.push(update);
      }
      transcript.observe(event);
    }
    const taken = transcript.take(true);
    const before = structuredClone(taken);
    const kept = live.dress(taken, view.ids);
    expect(taken).toEqual(before);

    const replayed = replayUpdates(kept, context());
    expect(replayed.map((update) => (update.sessionUpdate === "tool_call" ? update.toolCallId : update.sessionUpdate))).toEqual(["call_1", "call_2"]);
    const { rawInput: _liveInput, ...deployed } = folded(sent, "call_2");
    const { rawInput: _keptInput, ...deployReplayed } = folded(replayed, "call_2");
    expect(folded(replayed, "call_1")).toEqual(folded(sent, "call_1"));
    // The call a plain graph's tool started has no input kept with it (the model never sent one).
    expect(deployReplayed).toEqual(deployed);
  });

  it("retitles a call as its permission request showed it, and leaves messages of calls it never saw as they are", () => {
    const view = context();
    const live = new LiveToolCalls();
    live.noteUpdate(eventUpdates({ type: "tool-call-end", messageId: "a1", toolCallId: "call_1", toolName: "edit_file", input: { path: "src/app.js" } }, view)[0] as AcpSessionUpdate);
    live.noteToolCall({ toolCallId: "call_1", title: "Edit src/app.js", locations: [{ path: "/project/src/app.js", line: 2 }] });
    const other: Message = { id: "t0", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_0", toolName: "ping", output: "pong" }] };
    const rejected: Message = { id: "t1", role: "tool", parts: [{ type: "tool-result", toolCallId: "call_1", toolName: "edit_file", output: "declined", isError: true }] };
    const [untouched, dressed] = live.dress([other, rejected], view.ids);
    expect(untouched).toBe(other);
    expect(dressed).toEqual({
      id: "t1",
      role: "tool",
      parts: [{ type: "tool-result", toolCallId: "call_1", toolName: "edit_file", output: "declined", isError: true, title: "Edit src/app.js", kind: "edit", locations: [{ path: "/project/src/app.js", line: 2 }] }],
    });
  });
});
