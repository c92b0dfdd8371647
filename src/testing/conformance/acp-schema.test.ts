// The kit's schema check (acp-schema.ts, on ajv and the SDK's schema.json): the messages agents
// write most pass, and a wrong one is named by the field at fault, not by the union it sits in.

import { describe, expect, it } from "vitest";

import { agentLineProblem, definitionProblem } from "./acp-schema.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const content = { type: "text", text: "hello" };
/** Messages an agent writes, one of each kind the kit sees most. */
const GOOD: Array<{ definition: string; value: Json }> = [
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "user_message_chunk", content: { type: "resource_link", uri: "file:///a", name: "a" } } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "t", title: "Read", kind: "read", status: "pending", locations: [{ path: "/a", line: 2 }], rawInput: { path: "a" } } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed", content: [{ type: "diff", path: "/a", oldText: null, newText: "x" }, { type: "content", content }] } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "plan", entries: [{ content: "a", priority: "high", status: "pending" }] } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "c", description: "d", input: { hint: "h" } }] } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "usage_update", used: 1, size: 10, cost: { amount: 0.1, currency: "USD" } } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "config_option_update", configOptions: [{ id: "m", name: "Model", type: "select", currentValue: "a", options: [{ value: "a", name: "A" }] }] } } },
  { definition: "RequestPermissionRequest", value: { sessionId: "s", toolCall: { toolCallId: "t", title: "Write" }, options: [{ optionId: "allow_once", name: "Allow", kind: "allow_once" }] } },
  { definition: "InitializeResponse", value: { protocolVersion: 1, agentCapabilities: { loadSession: true, promptCapabilities: { image: true }, sessionCapabilities: { list: {}, close: {} } }, authMethods: [], agentInfo: { name: "a", version: "1" } } },
  { definition: "NewSessionResponse", value: { sessionId: "s", modes: { currentModeId: "ask", availableModes: [{ id: "ask", name: "Ask" }] } } },
  { definition: "PromptResponse", value: { stopReason: "end_turn" } },
  { definition: "ListSessionsResponse", value: { sessions: [{ sessionId: "s", cwd: "/p", title: "t", updatedAt: "2026-01-01T00:00:00Z" }] } },
  { definition: "Error", value: { code: -32602, message: "Invalid params", data: { x: 1 } } },
];

describe("the kit's schema check", () => {
  it("accepts the messages agents write most", () => {
    for (const { definition, value } of GOOD) {
      expect(definitionProblem(definition, value), `${definition} ${JSON.stringify(value)}`).toBeUndefined();
    }
  });

  it("names the field at fault in a tagged update", () => {
    const update = (fields: Json) => definitionProblem("SessionNotification", { sessionId: "s", update: fields } as Json);
    expect(update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: 5 } })).toContain("/update/content/text must be string");
    expect(update({ sessionUpdate: "session_info_update", title: { text: "x" } })).toContain("/update/title");
    expect(update({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "done" })).toContain("/update/status");
    expect(update({ sessionUpdate: "no_such_update" })).toMatch(/\/update/);
  });

  it("judges whole lines: not JSON, not JSON-RPC, an unknown method, a result by the method it answers", () => {
    const answered = (id: unknown) => (id === 1 ? "session/prompt" : undefined);
    expect(agentLineProblem("hello", answered)).toMatch(/not JSON/);
    expect(agentLineProblem(JSON.stringify({ id: 1, result: {} }), answered)).toMatch(/jsonrpc/);
    expect(agentLineProblem(JSON.stringify({ jsonrpc: "2.0", method: "no/such", params: {} }), answered)).toMatch(/unknown method no\/such/);
    expect(agentLineProblem(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } }), answered)).toBeUndefined();
    expect(agentLineProblem(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { stopReason: "finished" } }), answered)).toMatch(/PromptResponse: \/stopReason/);
  });
});
