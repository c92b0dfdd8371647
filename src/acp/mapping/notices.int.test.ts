// Notices and compactions, over a child's stdio with the official SDK client: a graph's notice
// becomes a `notice` update for an editor that advertised `session.notices`, and its compaction
// events `compaction_update` / `compaction_summary_chunk` for one that advertised
// `session.compaction`. Any other editor gets warnings and errors as the agent's words and nothing
// else. An MCP server that fails to start is the first notice acpEditor() gives. Every line is
// checked against the SDK's schema, and the wire checker fails any gated update sent to an editor
// that did not advertise it.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { beforeEach, describe, expect, it } from "vitest";

import { AgentProcess } from "../../../test/support/agent-process.js";
import { startedAgents } from "../../../test/support/started-agents.js";
import { FakeModelServer } from "../../testing/fake-model-server.js";

let project: string;

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "weft-notices-"));
});

const { agents, servers } = startedAgents(() => rmSync(project, { recursive: true, force: true }));

const both: acp.ClientCapabilities = { session: { notices: {}, compaction: {} } };

async function graphAgent(capabilities: acp.ClientCapabilities): Promise<AgentProcess> {
  const agent = AgentProcess.start({ fixture: "graph-agent.ts" });
  agents.push(agent);
  await agent.initialize(capabilities);
  return agent;
}

const gated = new Set(["notice", "compaction_update", "compaction_summary_chunk"]);

describe("a graph's notices", () => {
  it("are notice updates for an editor that shows notices, outside the reply and the replay", async () => {
    const agent = await graphAgent(both);
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "notice me")).stopReason).toBe("end_turn");
    expect(agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "notice")).toEqual([
      { sessionUpdate: "notice", severity: "info", title: "Indexed 12 files" },
      { sessionUpdate: "notice", severity: "warning", title: "The context is 90% full", description: "Older turns will be summarised soon." },
      { sessionUpdate: "notice", severity: "error", title: "The search server is down" },
    ]);
    expect(agent.textOf(sessionId)).toBe("Noted.");

    const before = agent.updatesOf(sessionId).length;
    await agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const replay = agent.updatesOf(sessionId).slice(before);
    expect(replay.map((update) => update.sessionUpdate)).toEqual(["user_message_chunk", "agent_message_chunk"]);
    expect(agent.textOf(sessionId, before)).toBe("Noted.");
  });

  it("are said in the agent's words for an editor that does not, warnings and errors only", async () => {
    const agent = await graphAgent({});
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "notice me")).stopReason).toBe("end_turn");
    expect(agent.updatesOf(sessionId).filter((update) => gated.has(update.sessionUpdate))).toEqual([]);
    expect(agent.textOf(sessionId)).toBe("Warning: The context is 90% full\nOlder turns will be summarised soon.\n\nError: The search server is down\n\nNoted.");
    // The words were live only: the conversation keeps the reply.
    const before = agent.updatesOf(sessionId).length;
    await agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    expect(agent.textOf(sessionId, before)).toBe("Noted.");
  });

  it("go to an editor that advertised notices but not compaction, and no compaction does", async () => {
    const agent = await graphAgent({ session: { notices: {} } });
    const sessionId = await agent.newSession(project);
    await agent.prompt(sessionId, "notice me");
    await agent.prompt(sessionId, "compact it");
    expect(agent.updatesOf(sessionId).filter((update) => gated.has(update.sessionUpdate)).map((update) => update.sessionUpdate)).toEqual(["notice", "notice", "notice"]);
  });
});

describe("a graph's compactions", () => {
  it("are compaction updates and summary chunks, by id, for an editor that shows them", async () => {
    const agent = await graphAgent(both);
    const sessionId = await agent.newSession(project);
    await agent.prompt(sessionId, "hello");
    expect((await agent.prompt(sessionId, "compact it")).stopReason).toBe("end_turn");
    const sent = agent.updatesOf(sessionId).filter((update) => gated.has(update.sessionUpdate));
    const compactionId = (sent[0] as { compactionId: string }).compactionId;
    expect(compactionId).toMatch(/^compaction-\d+$/);
    expect(sent).toEqual([
      { sessionUpdate: "compaction_update", compactionId, status: "in_progress" },
      { sessionUpdate: "compaction_summary_chunk", compactionId, content: { type: "text", text: "Older turns: " } },
      { sessionUpdate: "compaction_summary_chunk", compactionId, content: { type: "text", text: "a greeting." } },
      { sessionUpdate: "compaction_update", compactionId, status: "completed", summary: [{ type: "text", text: "Older turns: a greeting." }] },
    ]);
    expect(agent.textOf(sessionId)).toContain("Compacted.");
  });

  it("end failed with the reason when the compaction fails", async () => {
    const agent = await graphAgent(both);
    const sessionId = await agent.newSession(project);
    await agent.prompt(sessionId, "compact-fail now");
    expect(agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "compaction_update")).toEqual([
      { sessionUpdate: "compaction_update", compactionId: "compaction-1", status: "in_progress" },
      { sessionUpdate: "compaction_update", compactionId: "compaction-1", status: "failed", error: "the summary model is down" },
    ]);
  });

  it("send nothing to an editor that did not advertise compaction, and the turn goes on", async () => {
    const agent = await graphAgent({ session: { compaction: null } });
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "compact it")).stopReason).toBe("end_turn");
    expect(agent.updatesOf(sessionId).filter((update) => gated.has(update.sessionUpdate))).toEqual([]);
    expect(agent.textOf(sessionId)).toBe("Compacted.");
  });
});

describe("an MCP server that fails to start, through acpEditor()", () => {
  const broken: acp.McpServer[] = [{ name: "broken", command: "/nonexistent/mcp-server", args: [], env: [] }];

  async function codingAgent(capabilities: acp.ClientCapabilities): Promise<AgentProcess> {
    const model = await FakeModelServer.start([{ text: "Ready." }, { text: "Still ready." }]);
    servers.push(model);
    const agent = AgentProcess.start({ fixture: "coding-agent.ts", env: { FAKE_MODEL_URL: model.url } });
    agents.push(agent);
    await agent.initialize(capabilities);
    return agent;
  }

  it("is a warning notice as soon as it failed, after the session/new answer, and not in the reply", async () => {
    const agent = await codingAgent({ session: { notices: {} } });
    const sessionId = await agent.newSession(project, broken);
    await agent.waitFor(() => agent.updatesOf(sessionId).some((update) => update.sessionUpdate === "notice"), "the notice");
    const [notice] = agent.updatesOf(sessionId);
    expect(notice).toMatchObject({ sessionUpdate: "notice", severity: "warning", title: 'The MCP server "broken" is not available' });
    expect(notice).toHaveProperty("description", expect.stringMatching(/^.+\. Carrying on without its tools\.$/));
    // The wire checker saw the answer that opened the session before the notice.
    const lines = agent.wire.fromAgent;
    const answered = lines.findIndex((message) => (message.result as { sessionId?: string } | undefined)?.sessionId === sessionId);
    const noticed = lines.findIndex((message) => message.method === "session/update");
    expect(answered).toBeGreaterThanOrEqual(0);
    expect(noticed).toBeGreaterThan(answered);

    await agent.prompt(sessionId, "hi");
    await agent.prompt(sessionId, "again");
    expect(agent.textOf(sessionId)).toBe("Ready.Still ready.");
    expect(agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "notice")).toHaveLength(1);
  });

  it("is today's text at the start of the next turn for an editor that does not show notices", async () => {
    const agent = await codingAgent({});
    const sessionId = await agent.newSession(project, broken);
    await agent.prompt(sessionId, "hi");
    await agent.prompt(sessionId, "again");
    expect(agent.textOf(sessionId)).toMatch(/^The MCP server "broken" is not available \(.+\); carrying on without its tools\.\n\nReady\.Still ready\.$/);
  });
});
