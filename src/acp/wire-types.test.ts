// The ACP layer speaks the wire in the SDK's own types: a misspelled update or a status ACP does not
// have is a compile error (each `@ts-expect-error` below fails `npm run typecheck` if the line
// compiles), and the editor's answers to ACP's own requests come back typed.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, expectTypeOf, it } from "vitest";

import { serveInProcess } from "../../test/support/in-process.js";
import { START, StateGraph } from "../graph/state-graph.js";
import type { AcpConnection, AcpEditorBridge } from "./editor-bridge.js";
import { ToolCallIds } from "./mapping/tool-calls.js";
import { type AcpSessionUpdate, toolCallUpdate, type UpdateContext } from "./mapping/updates.js";

const context: UpdateContext = { cwd: "/project", ids: new ToolCallIds(), kind: () => "read", contentLimit: 1000 };

describe("the wire's types", () => {
  it("an update is one that ACP defines, with the fields ACP gives it", () => {
    const chunk: AcpSessionUpdate = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } };
    // @ts-expect-error: no update is called agent_mesage_chunk
    const misspelled: AcpSessionUpdate = { sessionUpdate: "agent_mesage_chunk", content: { type: "text", text: "hi" } };
    // @ts-expect-error: a message chunk carries content, not text
    const wrongField: AcpSessionUpdate = { sessionUpdate: "agent_message_chunk", text: "hi" };
    // @ts-expect-error: content has no block of type "markdown"
    const wrongBlock: AcpSessionUpdate = { sessionUpdate: "agent_message_chunk", content: { type: "markdown", text: "hi" } };
    expect([chunk, misspelled, wrongField, wrongBlock].map((update) => update.sessionUpdate)).toEqual(["agent_message_chunk", "agent_mesage_chunk", "agent_message_chunk", "agent_message_chunk"]);
  });

  it("a tool call's status is one of ACP's", () => {
    const announced = toolCallUpdate(context, "call_1", "read_file", { path: "a.ts" }, "pending");
    expectTypeOf(announced.status).toEqualTypeOf<acp.ToolCallStatus | undefined>();
    // @ts-expect-error: "running" is not a tool call status
    const running = toolCallUpdate(context, "call_2", "read_file", { path: "a.ts" }, "running");
    // @ts-expect-error: nor is "done", in an update of a call
    const done: AcpSessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "done" };
    // @ts-expect-error: nor is "switch-mode" a tool kind (ACP's is switch_mode)
    const kind: AcpSessionUpdate = { sessionUpdate: "tool_call", toolCallId: "call_3", title: "mode", kind: "switch-mode" };
    expect([announced.status, running.status, done.sessionUpdate, kind.sessionUpdate]).toEqual(["pending", "running", "tool_call_update", "tool_call"]);
  });

  it("the editor's answer to fs/read_text_file is typed, and so are the params", async () => {
    const attached: { connection?: AcpConnection } = {};
    const bridge: AcpEditorBridge = { attach: (connection) => (attached.connection = connection) };
    const graph = new StateGraph({ name: "idle", channels: {} }).addNode("idle", () => ({})).addEdge(START, "idle").compile();
    const agent = await serveInProcess(graph, { editor: bridge }, (app) =>
      app.onRequest(acp.methods.client.fs.readTextFile, ({ params }) => ({ content: `the text of ${params.path}` })),
    );
    try {
      const sessionId = await agent.newSession("/project");
      const connection = attached.connection as AcpConnection;
      const answer = await connection.request("fs/read_text_file", { sessionId, path: "/project/a.ts" });
      expectTypeOf(answer).toEqualTypeOf<acp.ReadTextFileResponse>();
      // @ts-expect-error: the content is a string
      const length: number = answer.content;
      expect(length).toBe("the text of /project/a.ts");
      const exit = async () => connection.request("terminal/wait_for_exit", { sessionId, terminalId: "term_1" });
      expectTypeOf(exit).returns.resolves.toEqualTypeOf<acp.WaitForTerminalExitResponse>();
      // A method ACP does not define still takes and answers anything.
      expectTypeOf(connection.request("_vendor/ping", { any: "thing" })).resolves.toBeUnknown();
    } finally {
      agent.server.close();
    }
  });
});
