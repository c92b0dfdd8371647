// The wire checker itself: it must fail what ACP gates on a capability the client did not advertise.

import { describe, expect, it } from "vitest";

import { WireChecker } from "./acp-wire.js";

function session(capabilities: unknown): WireChecker {
  const wire = new WireChecker();
  wire.fromClientLine(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: capabilities } }));
  wire.fromClientLine(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/work", mcpServers: [] } }));
  wire.fromAgentLine(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { sessionId: "s1" } }));
  wire.fromClientLine(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] } }));
  return wire;
}

const update = (value: unknown) => JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: value } });
const notice = update({ sessionUpdate: "notice", severity: "warning", title: "Careful" });
const compaction = update({ sessionUpdate: "compaction_update", compactionId: "c1", status: "in_progress" });
const read = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "fs/read_text_file", params: { sessionId: "s1", path: "/work/a.txt" } });
const terminal = JSON.stringify({ jsonrpc: "2.0", id: 8, method: "terminal/create", params: { sessionId: "s1", command: "ls" } });

describe("the wire checker", () => {
  it("fails notices, compactions, fs and terminal requests to a client that did not advertise them", () => {
    const wire = session({ session: { notices: null } });
    for (const line of [notice, compaction, read, terminal]) {
      wire.fromAgentLine(line);
    }
    expect(wire.problems.map((problem) => problem.problem)).toEqual([
      "notice sent to a client that did not advertise session.notices",
      "compaction_update sent to a client that did not advertise session.compaction",
      "fs/read_text_file sent to a client that did not advertise fs.readTextFile",
      "terminal/create sent to a client that did not advertise terminal",
    ]);
  });

  it("lets them through to a client that did", () => {
    const wire = session({ fs: { readTextFile: true }, terminal: true, session: { notices: {}, compaction: {} } });
    for (const line of [notice, compaction, read, terminal]) {
      wire.fromAgentLine(line);
    }
    expect(wire.problems).toEqual([]);
  });
});
