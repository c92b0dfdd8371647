// The packed package installed into an empty directory, as a person or an editor gets it with npx,
// on the Node running the tests. It installs with --ignore-scripts, as pnpm does by default, so
// nothing is compiled: where Node has no node:sqlite (Node 20) that leaves no SQLite driver, and
// the editor must hear so and how to go on.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";

import { FakeModelServer, type FakeScript } from "../../src/testing/fake-model-server.js";
import { AgentProcess, fixturesDir, repoRoot, stopAndCheck } from "../support/agent-process.js";
import { type PackedInstall, currentNode, hasNodeSqlite, installPacked } from "../support/packed-package.js";
import { cleanUpStores, postgresSkip, postgresUrl, uniqueName } from "../support/servers.js";

let install: PackedInstall;
let project: string;
let state: string;
const temporary: string[] = [];
const agents: AgentProcess[] = [];
const servers: FakeModelServer[] = [];

beforeAll(async () => {
  install = await installPacked({ ignoreScripts: true });
}, 900_000);

afterAll(() => install?.remove());

afterEach(async () => {
  expect(await stopAndCheck(agents, servers.splice(0))).toEqual([]);
  for (const dir of temporary.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** `npx weftjs acp` in the installed project, with its model pointed at `model` when given. */
function npxWeftAcp(args: string[], model?: FakeModelServer): AgentProcess {
  project = mkdtempSync(join(tmpdir(), "weft-project-"));
  state = mkdtempSync(join(tmpdir(), "weft-state-"));
  temporary.push(project, state);
  const agent = AgentProcess.start({
    command: "npx",
    args: ["weftjs", "acp", ...args],
    cwd: install.dir,
    env: {
      ...install.env,
      XDG_STATE_HOME: state,
      WEFT_SESSIONS: undefined,
      WEFT_API_KEY: undefined,
      OPENAI_API_KEY: undefined,
      WEFT_MODEL: model ? "openai-compatible:fake-model" : undefined,
      WEFT_BASE_URL: model?.url,
    },
  });
  agents.push(agent);
  return agent;
}

async function fakeModel(script: FakeScript): Promise<FakeModelServer> {
  const server = await FakeModelServer.start(script);
  servers.push(server);
  return server;
}

function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("schema", schema);
  return parsed.toString();
}

describe(`the packed package, installed with --ignore-scripts on Node ${currentNode.version}`, () => {
  it("runs `npx weftjs --help` from an empty directory", async () => {
    const result = await install.run("npx", ["weftjs", "--help"], { timeoutMs: 120_000 });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("weft acp");
  }, 180_000);

  // Installed without scripts on Node 20 there is no SQLite driver, so sessions are kept in
  // memory and the scenarios that restart the agent are left out.
  it("runs `npx weftjs check` against the installed weft acp, which passes", async () => {
    const scenarios = ["initialize", "bad-input", "streaming", "tool-calls", "cancel-streaming", "schema"].flatMap((id) => ["--scenario", id]);
    const weftBin = join(install.dir, "node_modules", "weftjs", "bin", "weft.js");
    const result = await install.run("npx", ["weftjs", "check", "--env", "WEFT_SESSIONS=memory", ...scenarios, "--", process.execPath, weftBin, "acp"], { timeoutMs: 240_000 });
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("6 passed, 0 failed, 0 skipped");
    expect(result.code).toBe(0);
  }, 300_000);

  it("completes a turn of `npx weftjs acp` driven by an editor, with an MCP server's tool, though the MCP SDK is not installed", async () => {
    const model = await fakeModel([{ toolCalls: [{ name: "shouter__shout", arguments: { text: "from the tarball" }, id: "s" }] }, { text: "Shouted it." }]);
    const agent = npxWeftAcp(["--sessions", "memory"], model);
    const init = await agent.initialize();
    expect(init.agentInfo).toMatchObject({ name: "weft" });
    const tsx = join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs");
    const sessionId = await agent.newSession(project, [{ name: "shouter", command: process.execPath, args: ["--import", tsx, `${fixturesDir}mcp-stdio-server.ts`], env: [] }]);
    expect((await agent.prompt(sessionId, "shout it")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Shouted it.");
    expect(model.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe("FROM THE TARBALL");
    expect(agent.stderr).not.toMatch(/Cannot find (package|module)/);
  }, 180_000);

  it("names the package to install for postgres:// sessions, which is not installed with weftjs", async () => {
    const agent = npxWeftAcp(["--sessions", "postgres://127.0.0.1:1/nowhere"]);
    await agent.initialize();
    const failure = await agent.newSession(project).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(acp.RequestError);
    expect((failure as acp.RequestError).message).toContain("postgres:// sessions need the package pg, which is not installed: install it next to weftjs (npm install pg).");
  }, 180_000);

  const sqliteHere = hasNodeSqlite(currentNode.version);
  it.skipIf(sqliteHere)(
    `says, when no SQLite driver loads, so and how to go on with --sessions memory${sqliteHere ? ` (skipped: Node ${currentNode.version} has node:sqlite; the case runs on Node 20, in the first pass of .ci/run)` : ""}`,
    async () => {
      const agent = npxWeftAcp([]);
      await agent.initialize();
      const failure = await agent.newSession(project).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(acp.RequestError);
      const message = (failure as acp.RequestError).message;
      expect(message).toContain("No SQLite driver could load.");
      expect(message).toContain(`node:sqlite: Node ${process.versions.node} does not have it (it comes with Node 22.13 and later).`);
      expect(message).toContain("better-sqlite3: installed, but its native addon was never built, as happens when install scripts are skipped");
      expect(message).toContain("--sessions memory (or WEFT_SESSIONS=memory)");
      expect(message).not.toContain("Could not locate the bindings file");
      expect(agent.stderr).toContain("No SQLite driver could load");
      expect(agent.stderr).toContain("--sessions memory");
    },
    180_000,
  );

  // Last: it adds pg to the shared install.
  it.skipIf(postgresSkip !== undefined)(`keeps postgres:// sessions once pg is installed next to weftjs${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`, async () => {
    const added = await install.run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "pg@^8"], { timeoutMs: 300_000 });
    expect(added.code, added.stderr).toBe(0);
    const sessions = withSchema(postgresUrl as string, uniqueName("weft_packed"));
    // After afterEach has stopped the agents.
    onTestFinished(() => cleanUpStores([sessions]));
    const model = await fakeModel([{ text: "Kept in Postgres." }]);
    const agent = npxWeftAcp(["--sessions", sessions], model);
    await agent.initialize();
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "remember this")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Kept in Postgres.");
    await agent.stop();
    const again = npxWeftAcp(["--sessions", sessions]);
    await again.initialize();
    const listed = await again.agent.request(acp.methods.agent.session.list, {});
    expect(listed.sessions.map((session) => session.sessionId)).toEqual([sessionId]);
  }, 300_000);
});
