// A reloaded session shows each tool call as the live one ended: its last title, kind, files,
// content and status, over a real child's stdio, on a session kept in SQLite across processes.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, describe, expect, it } from "vitest";

import { AgentProcess } from "../../../test/support/agent-process.js";
import { startedAgents } from "../../../test/support/started-agents.js";
import { FakeModelServer } from "../../testing/fake-model-server.js";

const temp = mkdtempSync(join(tmpdir(), "weft-fidelity-"));
const { agents, servers } = startedAgents();

afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A tool call's state as an editor keeps it: its announcement with each later change folded in. */
function foldToolCall(updates: readonly acp.SessionUpdate[], toolCallId: string): Record<string, unknown> {
  let state: Record<string, unknown> = {};
  for (const update of updates) {
    if ((update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") && update.toolCallId === toolCallId) {
      const { sessionUpdate: _kind, ...fields } = update;
      state = { ...state, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null)) };
    }
  }
  return state;
}

describe("replay fidelity", () => {
  it("replays a tool call retitled and relocated while it ran exactly as the live one ended", async () => {
    const store = join(temp, "fidelity.db");
    const server = await FakeModelServer.start([{ toolCalls: [{ name: "survey", arguments: { path: "plan.md" }, id: "s1" }] }, { text: "Surveyed." }]);
    servers.push(server);
    const first = AgentProcess.start({ fixture: "agent.ts", env: { FAKE_MODEL_URL: server.url, NOTES_DIR: temp, WEFT_TEST_STORE: store } });
    agents.push(first);
    await first.initialize();
    const sessionId = await first.newSession(temp);
    expect((await first.prompt(sessionId, "survey the plan")).stopReason).toBe("end_turn");
    const live = foldToolCall(first.updatesOf(sessionId), "s1");
    expect(live).toMatchObject({ title: "Surveyed plan.md", status: "completed", locations: [{ path: join(temp, "plan.md"), line: 7 }] });
    await first.stop();

    const second = AgentProcess.start({ fixture: "agent.ts", env: { FAKE_MODEL_URL: server.url, NOTES_DIR: temp, WEFT_TEST_STORE: store } });
    agents.push(second);
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] });
    const replayed = second.updatesOf(sessionId).filter((update) => update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update");
    expect(replayed).toHaveLength(1);
    expect(foldToolCall(replayed, "s1")).toEqual(live);
  });
});
