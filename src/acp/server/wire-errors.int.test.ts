// What the editor is told when a request cannot be served, over real stdio: a session that is not
// there is "not found" on every method, and a session another process changed is a conflict, each
// with its own message and `data`. (Store outages are in store-outage.int.test.ts.)

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, describe, expect, it } from "vitest";

import { AgentProcess } from "../../../test/support/agent-process.js";
import { startedAgents } from "../../../test/support/started-agents.js";
import { FakeModelServer } from "../../testing/fake-model-server.js";

const temp = mkdtempSync(join(tmpdir(), "weft-wire-errors-"));
const { agents, servers } = startedAgents();
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function start(fixture: string, env: Record<string, string>): AgentProcess {
  const agent = AgentProcess.start({ fixture, env });
  agents.push(agent);
  return agent;
}

describe("errors over stdio", () => {
  it("answers -32002 not found for a missing or empty session id on every session method", async () => {
    const store = join(temp, "not-found.db");
    const agent = start("agent.ts", { WEFT_TEST_STORE: store, NOTES_DIR: temp });
    await agent.initialize();
    for (const sessionId of ["", "sess_missing"]) {
      const notFound = { code: -32002, message: "Resource not found", data: { sessionId } };
      await expect(agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] })).rejects.toMatchObject(notFound);
      await expect(agent.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: temp })).rejects.toMatchObject(notFound);
      await expect(agent.prompt(sessionId, "hello")).rejects.toMatchObject(notFound);
    }
    // The SDK client treats not found on close and delete as done, so read the raw answers.
    agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "close", method: "session/close", params: { sessionId: "" } }));
    agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: "delete", method: "session/delete", params: { sessionId: "" } }));
    expect(await agent.rawResponse("close")).toMatchObject({ error: { code: -32002, data: { sessionId: "" } } });
    expect(await agent.rawResponse("delete")).toMatchObject({ error: { code: -32002, data: { sessionId: "" } } });
    expect(agent.stderr).not.toContain("unavailable");
  });

  it("answers not found to a prompt for a session another process deleted", async () => {
    const store = join(temp, "deleted.db");
    const model = await FakeModelServer.start(() => ({ text: "hi" }));
    servers.push(model);
    const env = { WEFT_TEST_STORE: store, NOTES_DIR: temp, FAKE_MODEL_URL: model.url };
    const first = start("agent.ts", env);
    const second = start("agent.ts", env);
    await first.initialize();
    await second.initialize();
    const sessionId = await first.newSession(temp);
    expect((await first.prompt(sessionId, "one")).stopReason).toBe("end_turn");
    await second.agent.request(acp.methods.agent.session.delete, { sessionId });
    await expect(first.prompt(sessionId, "two")).rejects.toMatchObject({ code: -32002, data: { sessionId } });
    expect(model.requests).toHaveLength(1);
  });

  it("answers a conflict, not an outage, when another process took the session over from a stalled one", async () => {
    const store = join(temp, "conflict.db");
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Only the stalled turn's own request is held (a later prompt may come in the same user message).
    const model = await FakeModelServer.start((request) =>
      request.messages.at(-1)?.content === "stalled turn" ? { text: ["slow ", "reply"], beforeChunk: (index) => (index === 2 ? held : undefined) } : { text: "quick reply" },
    );
    servers.push(model);
    const env = { WEFT_TEST_STORE: store, FAKE_MODEL_URL: model.url, WEFT_TEST_LEASE_MS: "300" };
    const stalled = start("session-agent.ts", env);
    const other = start("session-agent.ts", env);
    await stalled.initialize();
    await other.initialize();
    const sessionId = await stalled.newSession(temp);
    const answer = stalled.prompt(sessionId, "stalled turn").then(
      (response) => ({ response }),
      (error: unknown) => ({ error }),
    );
    await stalled.waitFor(() => stalled.textOf(sessionId) === "slow ", "the slow reply to start");
    stalled.child.kill("SIGSTOP");
    try {
      await other.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: temp });
      // Busy until the stalled process's claims run out; then the other process takes the session.
      let taken: acp.PromptResponse | undefined;
      while (!taken) {
        taken = await other.prompt(sessionId, "take over").catch((error: unknown) => {
          expect(error).toMatchObject({ data: { code: expect.stringMatching(/^(session_busy|thread_busy)$/) } });
          return new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100));
        });
      }
      expect(taken.stopReason).toBe("end_turn");
    } finally {
      stalled.child.kill("SIGCONT");
    }
    release();
    expect(await answer).toMatchObject({
      error: { code: -32603, message: `Session ${sessionId} was changed by another agent process; reload it and try again.`, data: { code: "session_conflict", sessionId } },
    });
    // The stalled process reads the session afresh for its next turn and goes on from there.
    expect((await stalled.prompt(sessionId, "and now?")).stopReason).toBe("end_turn");
  });
});
