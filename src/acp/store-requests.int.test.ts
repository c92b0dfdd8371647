// Session requests that reach the store together or with ids no store can hold, over real stdio
// on every store (memory, SQLite, Postgres, Redis): a session/delete that comes in while a
// session/list { cwd } is reading the sessions succeeds, and so does the list; an id with a NUL in
// it is "not found" on every method, never a store outage.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { AgentProcess } from "../../test/support/agent-process.js";
import { restartHarness } from "../../test/support/restart-harness.js";
import { storesUnderTest } from "../../test/support/servers.js";

const { temp, specs, agents } = restartHarness("weft-store-requests-");

const stores = [{ name: "memory", skip: undefined, spec: () => "memory" }, ...storesUnderTest(() => temp)];

async function agentOn(store: string): Promise<AgentProcess> {
  const agent = AgentProcess.start({ fixture: "agent.ts", env: { NOTES_DIR: temp, WEFT_TEST_STORE: store } });
  agents.push(agent);
  await agent.initialize();
  return agent;
}

describe.each(stores)("session requests on the $name store", ({ skip, spec }) => {
  const fresh = () => {
    const created = spec();
    specs.push(created);
    return created;
  };
  const skipped = skip ? ` (skipped: ${skip})` : "";

  it.skipIf(skip !== undefined)(`answers a session/delete sent during a session/list { cwd }, and the list, ten times in ten${skipped}`, async () => {
    const agent = await agentOn(fresh());
    const others = [await agent.newSession(temp), await agent.newSession(temp), await agent.newSession(temp)];
    for (let round = 0; round < 10; round++) {
      const doomed = await agent.newSession(temp);
      // Written in the same tick, so the agent reads both before either is answered.
      const [listed, deleted] = await Promise.allSettled([
        agent.agent.request(acp.methods.agent.session.list, { cwd: temp }),
        agent.agent.request(acp.methods.agent.session.delete, { sessionId: doomed }),
      ]);
      expect(deleted).toEqual({ status: "fulfilled", value: {} });
      expect(listed.status).toBe("fulfilled");
      const ids = listed.status === "fulfilled" ? listed.value.sessions.map((session) => session.sessionId) : [];
      // The deleted session may or may not be in the list read alongside; every other one is.
      expect(ids.filter((id) => id !== doomed).sort()).toEqual([...others].sort());
      const after = await agent.agent.request(acp.methods.agent.session.list, { cwd: temp });
      expect(after.sessions.map((session) => session.sessionId).sort()).toEqual([...others].sort());
    }
    expect(agent.stderr).not.toContain("unavailable");
  });

  it.skipIf(skip !== undefined)(`answers -32002 not found for a session id with a NUL in it on load, resume, prompt, close and delete${skipped}`, async () => {
    const agent = await agentOn(fresh());
    const kept = await agent.newSession(temp);
    for (const sessionId of ["\u0000", `${kept}\u0000`]) {
      const notFound = { code: -32002, message: "Resource not found", data: { sessionId } };
      await expect(agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: temp, mcpServers: [] })).rejects.toMatchObject(notFound);
      await expect(agent.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: temp })).rejects.toMatchObject(notFound);
      await expect(agent.prompt(sessionId, "hello")).rejects.toMatchObject(notFound);
      // The SDK client treats not found on close and delete as done, so read the raw answers.
      const id = JSON.stringify(sessionId);
      agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: `close ${id}`, method: "session/close", params: { sessionId } }));
      agent.writeRaw(JSON.stringify({ jsonrpc: "2.0", id: `delete ${id}`, method: "session/delete", params: { sessionId } }));
      expect(await agent.rawResponse(`close ${id}`)).toMatchObject({ error: { code: -32002, data: { sessionId } } });
      expect(await agent.rawResponse(`delete ${id}`)).toMatchObject({ error: { code: -32002, data: { sessionId } } });
    }
    // The session whose id the second one extends is untouched.
    const listed = await agent.agent.request(acp.methods.agent.session.list, {});
    expect(listed.sessions.map((session) => session.sessionId)).toEqual([kept]);
    expect(agent.stderr).not.toContain("unavailable");
  });
});
