// What tests of the `weft acp` command share: for each test a fresh state directory (so the default
// SQLite sessions file is private) and project directory, agents started from the built bin with
// no model or sessions setting leaking in from the environment, fake model servers, and a check
// after each test that every agent line kept the wire rules. Call it once at the top of a file.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, expect } from "vitest";

import { FakeModelServer, type FakeModelServerOptions, type FakeScript } from "../../src/testing/fake-model-server.js";
import { AgentProcess, type AgentProcessOptions, repoRoot, stopAndCheck } from "./agent-process.js";

export interface WeftAcpHarness {
  /** This test's `XDG_STATE_HOME`. */
  readonly home: string;
  /** This test's `XDG_CONFIG_HOME` (inside `home`, not made until a test writes there). */
  readonly configHome: string;
  /** This test's project directory, for `session/new`. */
  readonly project: string;
  /**
   * Starts `weft acp` with `args`; `env` adds to (or, mapped to undefined, removes from) its
   * environment; `configure` adds client handlers (fs, terminals) to the test editor.
   */
  start(env?: Record<string, string | undefined>, args?: readonly string[], configure?: AgentProcessOptions["configure"]): AgentProcess;
  /** Starts a fake model server for this test, with the environment that points `weft acp` at it. */
  fakeModel(script: FakeScript, options?: FakeModelServerOptions): Promise<{ model: FakeModelServer; env: Record<string, string> }>;
  /**
   * Runs the built `weft` with `args` to its end, with this test's state and config directories,
   * no model setting from the environment, `env` added and `input` on its stdin.
   */
  run(args: readonly string[], env: Record<string, string | undefined>, input: string): Promise<{ status: number | null; stdout: string; stderr: string }>;
  /** Closes `server` (another fake model server, say) after this test, with the agents. */
  closeAfter<Server extends { close(): Promise<void> }>(server: Server): Server;
}

export function weftAcpHarness(): WeftAcpHarness {
  let home = "";
  let project = "";
  const agents: AgentProcess[] = [];
  const servers: Array<{ close(): Promise<void> }> = [];

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "weft-home-"));
    project = mkdtempSync(join(tmpdir(), "weft-project-"));
  });

  afterEach(async () => {
    expect(await stopAndCheck(agents, servers)).toEqual([]);
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });

  return {
    get home() {
      return home;
    },
    get project() {
      return project;
    },
    get configHome() {
      return join(home, "config");
    },
    start(env = {}, args = [], configure) {
      const agent = AgentProcess.start({
        command: process.execPath,
        args: [join(repoRoot, "bin/weft.js"), "acp", ...args],
        env: { XDG_STATE_HOME: home, XDG_CONFIG_HOME: join(home, "config"), WEFT_MODEL: undefined, WEFT_MODELS: undefined, WEFT_BASE_URL: undefined, WEFT_SESSIONS: undefined, WEFT_API_KEY: undefined, OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, ...env },
        ...(configure ? { configure } : {}),
      });
      agents.push(agent);
      return agent;
    },
    async fakeModel(script, options) {
      const model = await FakeModelServer.start(script, options);
      servers.push(model);
      return { model, env: { WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url } };
    },
    run(args, env, input) {
      const child = spawn(process.execPath, [join(repoRoot, "bin/weft.js"), ...args], {
        env: { ...process.env, WEFT_MODEL: undefined, WEFT_MODELS: undefined, WEFT_BASE_URL: undefined, WEFT_API_KEY: undefined, XDG_STATE_HOME: home, XDG_CONFIG_HOME: join(home, "config"), ...env },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.stdin.end(input);
      return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
    },
    closeAfter(server) {
      servers.push(server);
      return server;
    },
  };
}
