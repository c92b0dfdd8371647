// session/load's replay over the wire, in one process: a long conversation kept in SQLite comes
// back as exactly its updates, in order, each line the one the SDK would write and valid against
// the ACP schema, all before the load's answer; an update that cannot be JSON is left out and said;
// a question the last turn left open is still answered by the next prompt.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";

import { serveInProcess, type InProcessAgent } from "../../../test/support/in-process.js";
import { ScriptedGraph } from "../../../test/support/scripted-graph.js";
import { SqliteStore } from "../../stores/sqlite/sqlite-store.js";
import type { Logger } from "../../types/logger.js";
import type { Message } from "../../types/messages.js";
import { MemoryAcpSessionStore, type AcpSessionRecord } from "../record/session-store.js";
import { storeAcpSessions } from "../record/store-sessions.js";
import { DEFAULT_CONTENT_LIMIT, guessToolKind, ToolCallIds } from "./tool-calls.js";
import { replayUpdates } from "./replay-updates.js";

const temp = mkdtempSync(join(tmpdir(), "weft-replay-"));
const cwd = "/project";
const opened: InProcessAgent[] = [];
const stores: SqliteStore[] = [];

afterEach(async () => {
  for (const agent of opened.splice(0)) {
    expect(agent.wire.problems).toEqual([]);
    agent.server.close();
  }
  for (const store of stores.splice(0)) {
    await store.close();
  }
});

afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** `turns` coding turns: a question, a read_file call, its result, and an answer. */
function conversation(turns: number): Message[] {
  const history: Message[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    history.push(
      { id: `u${turn}`, role: "user", parts: [{ type: "text", text: `What does word ${turn} mean?` }] },
      { id: `a${turn}`, role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: `notes/${turn}.md` } }] },
      { id: `t${turn}`, role: "tool", parts: [{ type: "tool-result", toolCallId: "call_1", toolName: "read_file", output: `word ${turn}: a thread "woven" across\nthe warp ✓` }] },
      { id: `b${turn}`, role: "assistant", parts: [{ type: "text", text: `Word ${turn} is explained in notes/${turn}.md.` }] },
    );
  }
  return history;
}

function record(sessionId: string, history: Message[]): AcpSessionRecord {
  return { info: { id: sessionId, cwd, mcpServers: [] }, history, always: [], updatedAt: new Date().toISOString() };
}

async function serve(...args: Parameters<typeof serveInProcess>): Promise<InProcessAgent> {
  const agent = await serveInProcess(...args);
  opened.push(agent);
  return agent;
}

const load = (agent: InProcessAgent, sessionId: string) => agent.client.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });

describe("session/load replay", () => {
  it("replays 1,000 turns kept in SQLite as exactly 3,000 updates, in order, each the SDK's line and valid ACP, before the answer", async () => {
    const sqlite = new SqliteStore({ path: join(temp, "long.db") });
    stores.push(sqlite);
    const sessions = storeAcpSessions(sqlite);
    const history = conversation(1000);
    await sessions.put(record("sess_long", history));
    const agent = await serve(new ScriptedGraph([]), { sessions });
    const written = agent.wire.fromAgent.length;

    await load(agent, "sess_long");
    const seenAtAnswer = agent.updates.length;

    const expected = replayUpdates(history, { cwd, ids: new ToolCallIds(), kind: guessToolKind, contentLimit: DEFAULT_CONTENT_LIMIT });
    expect(expected).toHaveLength(3000);
    expect(seenAtAnswer).toBe(3000);
    expect(agent.updates.map((notification) => notification.sessionId)).toEqual(expected.map(() => "sess_long"));
    expect(agent.updates.map((notification) => notification.update)).toEqual(expected);
    // Ids made unique within the session, as live calls would be (call_1, call_1~2, …), each call with its own turn's result.
    const calls = expected.flatMap((update) => (update.sessionUpdate === "tool_call" ? [update] : []));
    expect(calls.map((call) => call.toolCallId)).toEqual(calls.map((_, index) => (index === 0 ? "call_1" : `call_1~${index + 1}`)));
    expect(calls.map((call) => call.rawOutput)).toEqual(calls.map((_, index) => `word ${index + 1}: a thread "woven" across\nthe warp ✓`));
    // On the wire: the 3,000 notifications, each with the keys in the SDK's order, then the answer.
    const lines = agent.wire.fromAgent.slice(written);
    expect(lines).toHaveLength(3001);
    expect(lines.slice(0, 3000).map((line) => JSON.stringify(line))).toEqual(expected.map((update) => JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "sess_long", update } })));
    expect(lines[3000]).toMatchObject({ jsonrpc: "2.0", result: {} });
  });

  it("replays the same updates after a restart, and a second load of the open session gives new ids", async () => {
    const path = join(temp, "twice.db");
    const first = new SqliteStore({ path });
    stores.push(first);
    await storeAcpSessions(first).put(record("sess_twice", conversation(3)));
    const agent = await serve(new ScriptedGraph([]), { sessions: storeAcpSessions(first) });
    await load(agent, "sess_twice");
    const once = agent.updates.map((notification) => notification.update);
    expect(once).toHaveLength(9);

    const second = new SqliteStore({ path });
    stores.push(second);
    const again = await serve(new ScriptedGraph([]), { sessions: storeAcpSessions(second) });
    await load(again, "sess_twice");
    expect(again.updates.map((notification) => notification.update)).toEqual(once);
  });

  it("leaves out a kept update that cannot be JSON, says so, and replays the rest in order", async () => {
    const logs: string[] = [];
    const log = (message: string) => void logs.push(message);
    const logger: Logger = { debug: log, info: log, warn: log, error: log };
    const sessions = new MemoryAcpSessionStore();
    const history = conversation(3);
    // A tool call's input in memory may hold what JSON cannot: this call cannot be sent.
    history[5] = { id: "a2", role: "assistant", parts: [{ type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: "notes/2.md", bytes: 12n } }] };
    sessions.put(record("sess_odd", history));
    const agent = await serve(new ScriptedGraph([]), { sessions, logger });
    await load(agent, "sess_odd");
    const kinds = agent.updates.map((notification) => `${notification.update.sessionUpdate}${"toolCallId" in notification.update ? ` ${notification.update.toolCallId}` : ""}`);
    expect(kinds).toEqual(["user_message_chunk", "tool_call call_1", "agent_message_chunk", "user_message_chunk", "agent_message_chunk", "user_message_chunk", "tool_call call_1~3", "agent_message_chunk"]);
    expect(logs.filter((message) => message.includes("could not be written as JSON"))).toEqual([expect.stringContaining("notification session/update")]);
  });

  it("replays a session whose last turn asked a question, and the next prompt answers it", async () => {
    const sessions = new MemoryAcpSessionStore();
    const asked: AcpSessionRecord = record("sess_ask", [
      { id: "u1", role: "user", parts: [{ type: "text", text: "paint the shed" }] },
      { id: "a1", role: "assistant", parts: [{ type: "text", text: "Which colour?" }] },
    ]);
    asked.pending = [{ id: "colour", value: { question: "Which colour?" }, node: "ask" }];
    sessions.put(asked);
    const graph = new ScriptedGraph([{ events: [{ type: "text-delta", messageId: "a2", delta: "Blue it is." }], outcome: { status: "completed", output: {} } }]);
    const agent = await serve(graph, { sessions });
    await load(agent, "sess_ask");
    expect(agent.updatesOf("sess_ask")).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "paint the shed" }, messageId: "u1" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Which colour?" }, messageId: "a1" },
    ]);
    expect((await agent.prompt("sess_ask", "blue")).stopReason).toBe("end_turn");
    expect(graph.calls.map((call) => ({ kind: call.kind, answers: call.answers }))).toEqual([{ kind: "resume", answers: { colour: "blue" } }]);
    expect(agent.textOf("sess_ask", 2)).toBe("Blue it is.");
  });
});
