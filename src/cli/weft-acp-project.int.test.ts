// `weft acp` and the person's project, over stdio with the SDK client: the AGENTS.md files that
// reach the model, session titles from a side call to the model, and ask_user as a form or a
// message depending on what the editor shows.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import type { AgentProcess } from "../../test/support/agent-process.js";
import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import { TITLE_INSTRUCTIONS } from "../coding-agent/session-title-model.js";
import type { ChatRequest } from "../testing/fake-model-server.js";

const harness = weftAcpHarness();

const systemOf = (request: ChatRequest | undefined) => String(request?.messages.find((message) => message.role === "system")?.content ?? "");
const toolResultsOf = (request: ChatRequest | undefined) => (request?.messages ?? []).filter((message) => message.role === "tool").map((message) => String(message.content));

function titleUpdates(agent: AgentProcess, sessionId: string): string[] {
  return agent.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "session_info_update" && typeof update.title === "string" ? [update.title] : []));
}

describe("AGENTS.md", () => {
  it("gives the model the AGENTS.md files from the repository root down to the session, outermost first, and an edit on the next turn", async () => {
    // outside/AGENTS.md is above the repository root, so it does not count.
    const outside = join(harness.project, "outside");
    const repository = join(outside, "repo");
    const session = join(repository, "packages", "app");
    mkdirSync(join(repository, ".git"), { recursive: true });
    mkdirSync(session, { recursive: true });
    writeFileSync(join(outside, "AGENTS.md"), "OUTSIDE: never seen.\n");
    writeFileSync(join(repository, "AGENTS.md"), "ROOT: run npm test from the root.\n");
    writeFileSync(join(session, "AGENTS.md"), "APP: use tabs in this package.\n");
    const { model, env } = await harness.fakeModel([{ text: "first" }, { text: "second" }]);
    const agent = harness.start(env);
    await agent.initialize();
    const sessionId = await agent.newSession(session);
    await agent.prompt(sessionId, "hello");
    const first = systemOf(model.requests[0]);
    expect(first).toContain("ROOT: run npm test from the root.");
    expect(first).toContain("APP: use tabs in this package.");
    expect(first.indexOf("ROOT:")).toBeLessThan(first.indexOf("APP:"));
    expect(first).not.toContain("OUTSIDE");
    // The instructions are still weft's own, with the project's after them.
    expect(first.indexOf("You are weft")).toBeLessThan(first.indexOf("ROOT:"));

    writeFileSync(join(session, "AGENTS.md"), "APP: use spaces now.\n");
    await agent.prompt(sessionId, "again");
    const second = systemOf(model.requests[1]);
    expect(second).toContain("APP: use spaces now.");
    expect(second).not.toContain("use tabs");
    expect(second).toContain("ROOT: run npm test from the root.");
  });

  it("reads only the session directory's AGENTS.md outside a repository", async () => {
    const session = join(harness.project, "work");
    mkdirSync(session);
    writeFileSync(join(harness.project, "AGENTS.md"), "PARENT: not part of this session.\n");
    writeFileSync(join(session, "AGENTS.md"), "HERE: this one counts.\n");
    const { model, env } = await harness.fakeModel([{ text: "ok" }]);
    const agent = harness.start(env);
    await agent.initialize();
    await agent.prompt(await agent.newSession(session), "hello");
    expect(systemOf(model.requests[0])).toContain("HERE: this one counts.");
    expect(systemOf(model.requests[0])).not.toContain("PARENT");
  });
});

describe("session titles", () => {
  it("titles a session from a side call to its model, in session_info_update and session/list, without a turn of its own", async () => {
    const { model, env } = await harness.fakeModel([{ text: "Looking at the login page." }], { sideCalls: [{ text: '"Fix the login bug."' }] });
    const agent = harness.start(env);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "users cannot sign in on the login page, please have a look")).stopReason).toBe("end_turn");
    await agent.waitFor(() => titleUpdates(agent, sessionId).includes("Fix the login bug"), "the model's title");
    const listed = await agent.agent.request(acp.methods.agent.session.list, {});
    expect(listed.sessions.find((entry) => entry.sessionId === sessionId)?.title).toBe("Fix the login bug");
    // One side call, with the prompt and the title instructions; the turn's request is the only other.
    expect(model.sideRequests).toHaveLength(1);
    expect(systemOf(model.sideRequests[0])).toBe(TITLE_INSTRUCTIONS);
    expect(JSON.stringify(model.sideRequests[0]?.messages)).toContain("users cannot sign in on the login page");
    expect(model.requests).toHaveLength(1);
    // Nothing of the side call shows as the agent's message or a tool call.
    expect(agent.textOf(sessionId)).toBe("Looking at the login page.");
    expect(agent.updatesOf(sessionId).some((update) => update.sessionUpdate === "tool_call")).toBe(false);
  });

  it("keeps the start of the first prompt as the title when the side call fails", async () => {
    const { model, env } = await harness.fakeModel([{ text: "On it." }], { sideCalls: [{ status: 500, error: "title model is down" }] });
    const agent = harness.start(env);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    await agent.prompt(sessionId, "refactor the parser so it streams");
    await agent.waitFor(() => titleUpdates(agent, sessionId).length > 0, "a title");
    expect(titleUpdates(agent, sessionId)).toEqual(["refactor the parser so it streams"]);
    const listed = await agent.agent.request(acp.methods.agent.session.list, {});
    expect(listed.sessions.find((entry) => entry.sessionId === sessionId)?.title).toBe("refactor the parser so it streams");
    expect(model.sideRequests).toHaveLength(1);
    expect(agent.textOf(sessionId)).toBe("On it.");
  });
});

describe("ask_user", () => {
  const question = { toolCalls: [{ name: "ask_user", arguments: { question: "Which database should I use?", choices: ["sqlite", "postgres"] }, id: "q" }] };

  it("asks with a form (elicitation/create) when the editor shows forms, and the answer reaches the model in the same turn", async () => {
    const { model, env } = await harness.fakeModel([question, { text: "Using postgres." }]);
    const agent = harness.start(env);
    agent.answerForm = () => ({ action: "accept", content: { answer: "postgres" } });
    await agent.initialize({ elicitation: { form: {} } });
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "set up the database")).stopReason).toBe("end_turn");
    expect(agent.forms).toHaveLength(1);
    const form = agent.forms[0] as acp.CreateElicitationRequest & { message: string; requestedSchema: { properties: Record<string, unknown> } };
    expect(form.message).toContain("Which database should I use?");
    expect(form.requestedSchema.properties.answer).toMatchObject({ type: "string", enum: ["sqlite", "postgres"] });
    expect(toolResultsOf(model.requests[1])).toEqual(["The person answered: postgres"]);
    expect(agent.textOf(sessionId)).toBe("Using postgres.");
  });

  it("asks as the agent's message when the editor shows no forms, and the next prompt answers it", async () => {
    const { model, env } = await harness.fakeModel([question, { text: "Using sqlite." }]);
    const agent = harness.start(env);
    await agent.initialize();
    const sessionId = await agent.newSession(harness.project);
    expect((await agent.prompt(sessionId, "set up the database")).stopReason).toBe("end_turn");
    expect(agent.forms).toEqual([]);
    expect(agent.textOf(sessionId)).toContain("Which database should I use?");
    expect(model.requests).toHaveLength(1);
    const seen = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "sqlite")).stopReason).toBe("end_turn");
    expect(toolResultsOf(model.requests[1])).toEqual(["The person answered: sqlite"]);
    expect(agent.textOf(sessionId, seen)).toBe("Using sqlite.");
  });
});
