// `weft acp`'s permission ledger as an editor sees it: the built command as a child process, driven
// by the SDK client, its model the fake OpenAI-compatible server asking to run the command each
// prompt names. "Always" answers cover a command's prefix, never a compound command, and a write's
// directory inside the project; `/permissions` lists and revokes them; they last across restarts in
// the project's directory only; and a ledger that cannot be read asks.

import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";

import type { AgentProcess } from "../../test/support/agent-process.js";
import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import { SqliteStore } from "../stores/sqlite/sqlite-store.js";
import type { ChatRequest, FakeModelServer, FakeReply } from "../testing/fake-model-server.js";

const harness = weftAcpHarness();

const others: string[] = [];
afterEach(() => {
  for (const directory of others.splice(0)) {
    rmSync(directory, { recursive: true, force: true });
  }
});

/** A project directory whose `npm test` only prints. */
function project(directory: string): string {
  writeFileSync(join(directory, "package.json"), JSON.stringify({ name: "p", version: "1.0.0", scripts: { test: "echo tested" } }));
  return directory;
}

/** The model: a prompt `run: <command>` asks to run the command, `write: <path>` to write the file; the tool's result gets "done". */
function runsCommands(request: ChatRequest, index: number): FakeReply {
  const last = request.messages.at(-1);
  if (last?.role === "tool") {
    return { text: "done" };
  }
  const text = typeof last?.content === "string" ? last.content : ((last?.content ?? []) as Array<{ text?: string }>).map((part) => part.text ?? "").join("");
  const write = /^write: (.*)$/s.exec(text)?.[1];
  if (write !== undefined) {
    return { toolCalls: [{ id: `call_${index}`, name: "write_file", arguments: { path: write, content: "written\n" } }] };
  }
  const command = /^run: (.*)$/s.exec(text)?.[1];
  return command === undefined ? { text: "nothing to run" } : { toolCalls: [{ id: `call_${index}`, name: "run_command", arguments: { command } }] };
}

/** What "always" on a file at the top of the project is named. */
const PROJECT_LABEL = "Always allow writes anywhere in the project (`.git/`, `.env*` and weft's own files still ask)";

const choose = (optionId: string) => (): acp.RequestPermissionResponse => ({ outcome: { outcome: "selected", optionId } });

/** Runs `command` (or writes a file) through the model; the permission requests it made, and what the turn said. */
async function run(agent: AgentProcess, sessionId: string, command: string, verb: "run" | "write" = "run"): Promise<{ asked: acp.RequestPermissionRequest[]; text: string }> {
  const before = agent.permissions.length;
  const mark = agent.updatesOf(sessionId).length;
  expect((await agent.prompt(sessionId, `${verb}: ${command}`)).stopReason).toBe("end_turn");
  return { asked: agent.permissions.slice(before), text: agent.textOf(sessionId, mark) };
}

/** The reply to a slash command. */
async function command(agent: AgentProcess, sessionId: string, text: string): Promise<string> {
  const mark = agent.updatesOf(sessionId).length;
  expect((await agent.prompt(sessionId, text)).stopReason).toBe("end_turn");
  return agent.textOf(sessionId, mark);
}

/** The tool results the model was sent last. */
const lastToolResult = (requests: readonly ChatRequest[]) => JSON.stringify(requests.at(-1)?.messages.filter((message) => message.role === "tool").at(-1)?.content ?? "");

/** `weft acp` with `env`, initialized. */
async function started(env: Record<string, string>): Promise<AgentProcess> {
  const agent = harness.start(env);
  await agent.initialize();
  return agent;
}

/** `weft acp` over the `runsCommands` model, with a session open in the project. */
async function projectSession(): Promise<{ fake: { model: FakeModelServer; env: Record<string, string> }; agent: AgentProcess; sessionId: string }> {
  const fake = await harness.fakeModel(runsCommands);
  const agent = await started(fake.env);
  return { fake, agent, sessionId: await agent.newSession(project(harness.project)) };
}

describe("weft acp permission ledger", () => {
  it("an always answer for `npm test` covers that prefix, never another command or a compound one; /permissions lists it and revoking it asks again", async () => {
    const { fake, agent, sessionId } = await projectSession();

    agent.answerPermission = choose("allow_always");
    const first = await run(agent, sessionId, "npm test");
    expect(first.asked).toHaveLength(1);
    expect(first.asked[0]?.options.map((option) => [option.kind, option.name])).toEqual([
      ["allow_once", "Allow once"],
      ["allow_always", "Always allow `npm test …`"],
      ["reject_once", "Reject"],
      ["reject_always", "Always reject `npm test …`"],
    ]);
    expect(lastToolResult(fake.model.requests)).toContain("tested");

    // Covered by the grant: it runs without asking.
    const watch = await run(agent, sessionId, "npm test -- --watch");
    expect(watch.asked).toHaveLength(0);
    expect(lastToolResult(fake.model.requests)).toContain("tested --watch");

    agent.answerPermission = choose("reject_once");
    const remove = await run(agent, sessionId, "rm -rf x");
    expect(remove.asked).toHaveLength(1);
    expect(remove.asked[0]?.options.find((option) => option.kind === "allow_always")?.name).toBe("Always allow `rm -rf x`");

    // A compound command is asked about every time, with no "always" to choose.
    const compound = await run(agent, sessionId, "npm test && rm -rf x");
    expect(compound.asked).toHaveLength(1);
    expect(compound.asked[0]?.options.map((option) => option.kind)).toEqual(["allow_once", "reject_once"]);
    agent.answerPermission = choose("allow_always");
    expect((await run(agent, sessionId, "npm test && rm -rf x")).asked).toHaveLength(1);
    expect((await run(agent, sessionId, "npm test | sh")).asked).toHaveLength(1);

    // "Always reject" is scoped the same way.
    agent.answerPermission = choose("reject_always");
    expect((await run(agent, sessionId, "git status")).asked).toHaveLength(1);
    expect((await run(agent, sessionId, "git status --short")).asked).toHaveLength(0);
    expect(lastToolResult(fake.model.requests)).toContain("always reject");
    agent.answerPermission = choose("reject_once");
    expect((await run(agent, sessionId, "git log")).asked).toHaveLength(1);

    const listed = await command(agent, sessionId, "/permissions");
    expect(listed).toContain(`Answers in ${harness.project}:`);
    expect(listed).toContain("1. Always allow run_command: `npm test …`");
    expect(listed).toContain("2. Always reject run_command: `git status …`");
    expect(listed).not.toContain("rm -rf");

    expect(await command(agent, sessionId, "/permissions revoke 1")).toContain("Revoked: Always allow run_command: `npm test …`");
    expect(await command(agent, sessionId, "/permissions revoke 7")).toContain("There is no answer 7.");
    const after = await command(agent, sessionId, "/permissions");
    expect(after).toContain("1. Always reject run_command: `git status …`");
    expect(after).not.toContain("npm test");

    agent.answerPermission = choose("allow_once");
    expect((await run(agent, sessionId, "npm test")).asked).toHaveLength(1);
  });

  it("an always answer for a write covers the file's directory and those under it, not the project's top or a path outside it", async () => {
    const { agent, sessionId } = await projectSession();
    mkdirSync(join(harness.project, "src", "lib"), { recursive: true });

    agent.answerPermission = choose("allow_always");
    const first = await run(agent, sessionId, "src/a.txt", "write");
    expect(first.asked[0]?.options.find((option) => option.kind === "allow_always")?.name).toBe("Always allow writes in `src/` and below");
    expect((await run(agent, sessionId, "src/b.txt", "write")).asked).toHaveLength(0);
    expect((await run(agent, sessionId, "src/lib/c.txt", "write")).asked).toHaveLength(0);
    expect(existsSync(join(harness.project, "src", "lib", "c.txt"))).toBe(true);

    agent.answerPermission = choose("reject_once");
    const top = await run(agent, sessionId, "notes.txt", "write");
    expect(top.asked[0]?.options.find((option) => option.kind === "allow_always")?.name).toBe(PROJECT_LABEL);
    expect((await run(agent, sessionId, "src/../notes.txt", "write")).asked).toHaveLength(1);
    expect(existsSync(join(harness.project, "notes.txt"))).toBe(false);
    // Through a link that leads out of the project: not covered by the grant for src/, and no "always" for it.
    const outside = mkdtempSync(join(tmpdir(), "weft-outside-"));
    others.push(outside);
    symlinkSync(outside, join(harness.project, "src", "out"));
    agent.answerPermission = choose("allow_always");
    const linked = await run(agent, sessionId, "src/out/x.txt", "write");
    expect(linked.asked).toHaveLength(1);
    expect(linked.asked[0]?.options.map((option) => option.kind)).toEqual(["allow_once", "reject_once"]);
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
  });

  it("an always answer for a file at the top of the project covers the project, but never .git/, .env files or weft's own files", async () => {
    const { agent, sessionId } = await projectSession();
    mkdirSync(join(harness.project, ".git"));
    mkdirSync(join(harness.project, "docs"));

    agent.answerPermission = choose("allow_always");
    const first = await run(agent, sessionId, "a.txt", "write");
    expect(first.asked[0]?.options.filter((option) => option.kind.endsWith("_always")).map((option) => option.name)).toEqual([PROJECT_LABEL, PROJECT_LABEL.replace("allow", "reject")]);
    // The next new file, at the top or anywhere under it, is not asked about again.
    expect((await run(agent, sessionId, "b.txt", "write")).asked).toHaveLength(0);
    expect((await run(agent, sessionId, "docs/c.md", "write")).asked).toHaveLength(0);
    expect(existsSync(join(harness.project, "b.txt")) && existsSync(join(harness.project, "docs", "c.md"))).toBe(true);
    expect(await command(agent, sessionId, "/permissions")).toContain("writes anywhere in the project");

    // Protected paths ask every time, with no "always" to choose.
    agent.answerPermission = choose("reject_once");
    for (const path of [".env", "docs/.env.local", ".git/config"]) {
      const asked = await run(agent, sessionId, path, "write");
      expect(asked.asked.map((request) => request.options.map((option) => option.kind)), path).toEqual([["allow_once", "reject_once"]]);
      expect(existsSync(join(harness.project, path)), path).toBe(false);
    }
  });

  it("keeps a grant across a restart for every session in the project's directory, and only there", async () => {
    const { fake, agent: first, sessionId: granted } = await projectSession();
    first.answerPermission = choose("allow_always");
    expect((await run(first, granted, "npm test")).asked).toHaveLength(1);
    await first.stop();

    const second = await started(fake.env);
    const sameDirectory = await second.newSession(harness.project);
    second.answerPermission = choose("allow_once");
    expect((await run(second, sameDirectory, "npm test")).asked).toHaveLength(0);
    expect(lastToolResult(fake.model.requests)).toContain("tested");

    const elsewhere = project(mkdtempSync(join(tmpdir(), "weft-other-project-")));
    others.push(elsewhere);
    const otherDirectory = await second.newSession(elsewhere);
    expect((await run(second, otherDirectory, "npm test")).asked).toHaveLength(1);
    expect(await command(second, otherDirectory, "/permissions")).toContain(`No always-allow or always-reject answers in ${elsewhere}.`);
  });

  it("asks when the ledger cannot be read, rather than allowing", async () => {
    const { fake, agent: first, sessionId } = await projectSession();
    first.answerPermission = choose("allow_always");
    expect((await run(first, sessionId, "npm test")).asked).toHaveLength(1);
    await first.stop();

    // Damage what the sessions file holds for the project's ledger.
    const file = new SqliteStore({ path: join(harness.home, "weft", "sessions.db") });
    try {
      const items = await file.search(["weft", "acp", "ledger"], { limit: 10 });
      expect(items).toHaveLength(1);
      for (const item of items) {
        await file.put(["weft", "acp", "ledger"], item.key, { cwd: harness.project, grants: "all of them" });
      }
    } finally {
      await file.close();
    }

    const second = await started(fake.env);
    const again = await second.newSession(harness.project);
    second.answerPermission = choose("reject_once");
    expect((await run(second, again, "npm test")).asked).toHaveLength(1);
    expect(second.stderr).toContain("The permission ledger could not be read; the person is asked");
  });
});
