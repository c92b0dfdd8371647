// The packed package on Node 24, installed with --ignore-scripts so nothing can be compiled:
// SQLite sessions must still work, on node:sqlite, at the default path.

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { FakeModelServer } from "../../src/testing/fake-model-server.js";
import { AgentProcess, stopAndCheck } from "../support/agent-process.js";
import { type PackedInstall, installPacked, node24 } from "../support/packed-package.js";

const { node, skip } = node24();
let install: PackedInstall | undefined;
const temporary: string[] = [];
const agents: AgentProcess[] = [];
const servers: FakeModelServer[] = [];

beforeAll(async () => {
  if (node) {
    install = await installPacked({ node, ignoreScripts: true });
  }
}, 900_000);

afterAll(() => install?.remove());

afterEach(async () => {
  expect(await stopAndCheck(agents, servers.splice(0))).toEqual([]);
  for (const dir of temporary.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

function temporaryDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

describe.skipIf(!node)(`the packed package on Node 24, installed with --ignore-scripts${skip ? ` (skipped: ${skip})` : ""}`, () => {
  it("keeps sessions in SQLite at the default path with nothing compiled, and loads them in a new process", async () => {
    const packed = install as PackedInstall;
    const state = temporaryDir("weft-state-");
    const project = temporaryDir("weft-project-");
    const model = await FakeModelServer.start([{ text: "Kept in SQLite." }]);
    servers.push(model);
    const start = () => {
      const agent = AgentProcess.start({
        command: "npx",
        args: ["weftjs", "acp"],
        cwd: packed.dir,
        env: {
          ...packed.env,
          XDG_STATE_HOME: state,
          WEFT_SESSIONS: undefined,
          WEFT_API_KEY: undefined,
          OPENAI_API_KEY: undefined,
          WEFT_MODEL: "openai-compatible:fake-model",
          WEFT_BASE_URL: model.url,
        },
      });
      agents.push(agent);
      return agent;
    };

    const first = start();
    await first.initialize();
    const sessionId = await first.newSession(project);
    expect((await first.prompt(sessionId, "remember this")).stopReason).toBe("end_turn");
    expect(first.textOf(sessionId)).toBe("Kept in SQLite.");
    await first.stop();
    expect(existsSync(join(state, "weft", "sessions.db"))).toBe(true);
    // better-sqlite3 is there (an optional dependency) but was never built.
    expect(existsSync(join(packed.dir, "node_modules", "better-sqlite3", "build"))).toBe(false);

    const second = start();
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    expect(second.textOf(sessionId)).toBe("Kept in SQLite.");
    for (const agent of [first, second]) {
      expect(agent.stderr).not.toContain("ExperimentalWarning");
      expect(agent.stderr).not.toContain("SQLite");
    }
  }, 180_000);
});
