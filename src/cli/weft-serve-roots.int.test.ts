// `weft serve --root` holds sessions in the root through links: a session cannot open in a
// directory that leads out (a dangling link, or one not made yet under a link that points out),
// and a session whose directory is swapped for a link out after it opened has its file tools and
// commands refused, with nothing written outside.

import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type Cleanups, connectRemote, type RemoteClient, startWeftServe } from "../../test/support/weft-serve.js";
import type { ChatRequest } from "../testing/fake-model-server.js";
import { repoRoot } from "../../test/support/agent-process.js";
import { FakeModelServer } from "../testing/fake-model-server.js";

const home = realpathSync(mkdtempSync(join(tmpdir(), "weft-serve-roots-home-")));
const root = realpathSync(mkdtempSync(join(tmpdir(), "weft-serve-root-")));
const made: string[] = [home, root];

let model: FakeModelServer;
const cleanups: Cleanups = [];
let client: RemoteClient;

/** The text of a chat message's content. */
function textOf(content: unknown): string {
  return typeof content === "string" ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? "").join("") : "";
}

/** The tool results the model was sent last, in order. */
function toolResults(): string[] {
  const messages = model.requests.at(-1)?.messages ?? [];
  return messages.filter((message) => message.role === "tool").map((message) => textOf(message.content));
}

beforeAll(async () => {
  // The model makes the tool calls a prompt spells out as JSON, then says it is done.
  model = await FakeModelServer.start((request: ChatRequest) => {
    const last = request.messages.at(-1);
    if (last?.role === "tool") {
      return { text: "done" };
    }
    return { toolCalls: JSON.parse(textOf(last?.content)) as Array<{ name: string; arguments: Record<string, unknown> }> };
  });
  const served = await startWeftServe({ home, args: ["--root", root], env: { WEFT_TOKENS: "t-ann:ann", WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_SESSIONS: "memory" }, cleanups });
  client = await connectRemote(served.url, "http", "t-ann", cleanups);
});

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
  await model?.close();
  for (const directory of made) {
    rmSync(directory, { recursive: true, force: true });
  }
});

/** A directory outside the root, empty, for a test to see that nothing was made in it. */
function outsideDirectory(): string {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), "weft-serve-outside-")));
  made.push(directory);
  return directory;
}

/** Runs a turn whose model makes `calls`, and resolves with what each call answered. */
async function turn(sessionId: string, calls: Array<{ name: string; arguments: Record<string, unknown> }>): Promise<string[]> {
  const answer = await client.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: JSON.stringify(calls) }] });
  expect(answer.stopReason).toBe("end_turn");
  return toolResults();
}

const notAllowed = { code: -32602, data: { code: "directory_not_allowed" } };
const refusedOutside = /outside the directories this server lets the session use/;

describe("weft serve --root", () => {
  it("refuses a session whose cwd or other directory is a dangling link, or not made yet under a link out, on session/new, load and resume", async () => {
    const outside = outsideDirectory();
    const base = join(root, "opening");
    mkdirSync(join(base, "project"), { recursive: true });
    symlinkSync(join(outside, "not-yet"), join(base, "dangling"));
    symlinkSync(outside, join(base, "out"));
    const project = join(base, "project");

    for (const leadsOut of [join(base, "dangling"), join(base, "out", "not-yet"), join(base, "dangling", "deeper")]) {
      await expect(client.agent.request(acp.methods.agent.session.new, { cwd: leadsOut, mcpServers: [] })).rejects.toMatchObject({ ...notAllowed, data: { ...notAllowed.data, directory: leadsOut } });
      await expect(client.agent.request(acp.methods.agent.session.new, { cwd: project, additionalDirectories: [leadsOut], mcpServers: [] })).rejects.toMatchObject(notAllowed);
    }
    const refusal = await client.agent.request(acp.methods.agent.session.new, { cwd: join(base, "dangling"), mcpServers: [] }).catch((error: unknown) => error);
    // It says which directories are allowed, in words and in `data`.
    expect(String((refusal as { message?: unknown }).message)).toContain(`is outside the directories this server lets you open sessions in: ${root}.`);
    expect((refusal as { data?: unknown }).data).toEqual({ code: "directory_not_allowed", directory: join(base, "dangling"), allowed: [root] });

    // Directories that exist inside, and ones not made yet whose real parent is inside, open.
    const { sessionId } = await client.agent.request(acp.methods.agent.session.new, { cwd: project, additionalDirectories: [join(base, "not-yet")], mcpServers: [] });
    expect(sessionId).toMatch(/^sess_/);
    await expect(client.agent.request(acp.methods.agent.session.new, { cwd: join(project, "new", "deeper"), mcpServers: [] })).resolves.toMatchObject({ sessionId: expect.stringMatching(/^sess_/) });

    // A load or a resume of that session into such a directory is refused too.
    await expect(client.agent.request(acp.methods.agent.session.load, { sessionId, cwd: join(base, "dangling"), mcpServers: [] })).rejects.toMatchObject(notAllowed);
    await expect(client.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, additionalDirectories: [join(base, "out", "not-yet")], mcpServers: [] })).rejects.toMatchObject(notAllowed);
    await expect(client.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: join(base, "out", "not-yet") })).rejects.toMatchObject(notAllowed);
    await expect(client.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project, additionalDirectories: [join(base, "dangling")] })).rejects.toMatchObject(notAllowed);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("refuses the file tools and the command of a session whose directory was swapped for a link out after it opened", async () => {
    const outside = outsideDirectory();
    const cwd = join(root, "swapped");
    mkdirSync(cwd);
    const { sessionId } = await client.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    rmSync(cwd, { recursive: true });
    symlinkSync(outside, cwd);

    const results = await turn(sessionId, [
      { name: "write_file", arguments: { path: "escaped.txt", content: "out\n" } },
      { name: "write_file", arguments: { path: join(cwd, "absolute.txt"), content: "out\n" } },
      { name: "run_command", arguments: { command: "touch made-by-command" } },
      { name: "list_files", arguments: {} },
    ]);
    expect(results).toHaveLength(4);
    for (const result of results) {
      expect(result).toMatch(refusedOutside);
    }
    expect(readdirSync(outside)).toEqual([]);
  });

  it("refuses a write in a session whose directory, not made yet when it opened, is then made under a link out", async () => {
    const outside = outsideDirectory();
    const later = join(root, "later");
    const { sessionId: made } = await client.agent.request(acp.methods.agent.session.new, { cwd: join(later, "made"), mcpServers: [] });
    const { sessionId: notMade } = await client.agent.request(acp.methods.agent.session.new, { cwd: join(later, "not-made"), mcpServers: [] });
    // Its parent becomes a link out, and the session's directory is made there.
    symlinkSync(outside, later);
    mkdirSync(join(outside, "made"));

    for (const sessionId of [made, notMade]) {
      const [result] = await turn(sessionId, [{ name: "write_file", arguments: { path: "escaped.txt", content: "out\n" } }]);
      expect(result).toMatch(refusedOutside);
    }
    expect(readdirSync(outside)).toEqual(["made"]);
    expect(readdirSync(join(outside, "made"))).toEqual([]);
  });

  it("refuses a write in another directory of a session once it is swapped for a link out, and goes on writing in the rest", async () => {
    // Not under the temporary directory, which a confined command gets a fresh one of: the place
    // must exist inside its sandbox for a write there to show.
    const cache = join(repoRoot, "node_modules", ".cache");
    mkdirSync(cache, { recursive: true });
    const outside = realpathSync(mkdtempSync(join(cache, "weft-serve-outside-")));
    made.push(outside);
    const project = join(root, "with-shared", "project");
    const shared = join(root, "with-shared", "shared");
    mkdirSync(project, { recursive: true });
    mkdirSync(shared);
    const { sessionId } = await client.agent.request(acp.methods.agent.session.new, { cwd: project, additionalDirectories: [shared], mcpServers: [] });
    rmSync(shared, { recursive: true });
    symlinkSync(outside, shared);

    const [outward, inward, command] = await turn(sessionId, [
      { name: "write_file", arguments: { path: join(shared, "escaped.txt"), content: "out\n" } },
      { name: "write_file", arguments: { path: "kept.txt", content: "in\n" } },
      // A confined command is not given the place the link leads to as a directory it may write.
      { name: "run_command", arguments: { command: `touch ${join(shared, "by-command.txt")} || touch ${join(outside, "by-command.txt")}` } },
    ]);
    expect(outward).toMatch(/Refused/);
    expect(inward).not.toMatch(/Refused/);
    expect(command).toMatch(/Exit code [1-9]|Refused/);
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(project)).toEqual(["kept.txt"]);
  });
});
