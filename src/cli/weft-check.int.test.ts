// `weft check`: the conformance kit from the command line, against `weft acp` (which passes every
// scenario), against an agent that writes a line that is not ACP (exit 1, the line quoted), and
// with bad usage (exit 2).

import { spawn } from "node:child_process";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { repoRoot } from "../../test/support/agent-process.js";
import type { CheckReport } from "../testing/conformance/index.js";
import { SCENARIO_IDS } from "../testing/conformance/index.js";

const weftBin = join(repoRoot, "bin/weft.js");

/** Runs `weft check` with `args`: as `node bin/weft.js check`, or as the README says, `npx weftjs check` (the package is its own dev dependency, so its bin is linked in a clone). */
function weftCheck(args: readonly string[], how: "node" | "npx" = "node"): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const [command, leading] = how === "npx" ? ["npx", ["--no-install", "weftjs", "check"]] : [process.execPath, [weftBin, "check"]];
  const child = spawn(command, [...leading, ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started })));
}

describe("weft check", () => {
  it("npx weftjs check passes weft acp on every scenario and exits 0", { timeout: 240_000 }, async () => {
    const result = await weftCheck(["--", "node", "bin/weft.js", "acp"], "npx");
    process.stderr.write(`npx weftjs check -- node bin/weft.js acp took ${(result.ms / 1000).toFixed(1)} s\n${result.stdout}`);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    for (const id of SCENARIO_IDS) {
      expect(result.stdout).toMatch(new RegExp(`^  pass  ${id} +(core|session|product) +\\d+\\.\\d s$`, "m"));
    }
    expect(result.stdout).toMatch(/^ {2}tier +passed +failed +skipped +noted\n {2}core +\d+ +0 +0 +0$/m);
    expect(result.stdout).toContain(`${SCENARIO_IDS.length} passed, 0 failed, 0 skipped`);
  });

  it("prints the report as JSON with --json, only the scenarios asked for", { timeout: 120_000 }, async () => {
    const result = await weftCheck(["--json", "--scenario", "initialize", "--scenario", "schema", "--", process.execPath, weftBin, "acp"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(report.results.map((scenario) => [scenario.id, scenario.status])).toEqual([
      ["initialize", "passed"],
      ["schema", "passed"],
    ]);
    expect(report).toMatchObject({ passed: 2, failed: 0, skipped: 0 });
  });

  it("exits 1 with one failure, quoting the line, when the agent writes a line that is not ACP and never answers initialize", { timeout: 120_000 }, async () => {
    const agent = `process.stdout.write("hello from a stray console.log\\n"); setInterval(() => {}, 1000); process.stdin.on("end", () => process.exit(0)); process.stdin.resume();`;
    const result = await weftCheck(["--timeout", "2", "--", process.execPath, "-e", agent]);
    expect(result.code).toBe(1);
    expect(result.stdout.match(/FAIL/g)).toEqual(["FAIL"]);
    expect(result.stdout).toContain("FAIL  start");
    expect(result.stdout).toContain("timed out after 2 s waiting for the answer to initialize");
    expect(result.stdout).toContain("wire line: hello from a stray console.log");
    expect(result.stdout).toContain("0 passed, 1 failed, 0 skipped");
  });

  it("exits 1 with one failure and the end of its stderr when the agent cannot start", { timeout: 120_000 }, async () => {
    const agent = `process.stderr.write("missing config: set MY_AGENT_KEY\\n"); process.exit(3);`;
    const result = await weftCheck(["--", process.execPath, "-e", agent]);
    expect(result.code).toBe(1);
    expect(result.stdout.match(/FAIL/g)).toEqual(["FAIL"]);
    expect(result.stdout).toContain("FAIL  start");
    expect(result.stdout).toContain("exited with code 3 before answering initialize");
    expect(result.stdout).toContain("missing config: set MY_AGENT_KEY");
  });

  it("still quotes the line that is not ACP in the scenario that meets it, once the agent answers initialize", { timeout: 120_000 }, async () => {
    const agent = [
      `const rl = require("node:readline").createInterface({ input: process.stdin });`,
      `rl.on("line", (text) => { const m = JSON.parse(text); if (m.method === "initialize") { process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } }) + "\\n"); } else { process.stdout.write("hello from a stray console.log\\n"); } });`,
      `rl.on("close", () => process.exit(0));`,
    ].join(" ");
    const result = await weftCheck(["--only", "schema", "--timeout", "2", "--", process.execPath, "-e", agent]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("FAIL  schema");
    expect(result.stdout).toContain("wire line: hello from a stray console.log");
  });

  it("runs the scenarios of the tiers asked for, and lists them all with --list", { timeout: 120_000 }, async () => {
    const list = await weftCheck(["--list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^core +initialize$/m);
    expect(list.stdout).toMatch(/^product +crash-recovery$/m);
    const result = await weftCheck(["--json", "--tier", "product", "--", process.execPath, weftBin, "acp"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(report.results.map((scenario) => scenario.tier)).toEqual(report.results.map(() => "product"));
    expect(report.results.map((scenario) => scenario.id)).toContain("crash-recovery");
  });

  it.each([
    [[], "check needs the agent's command after --"],
    [["--scenario", "nope", "--", "node"], 'unknown scenario "nope"'],
    [["--only", "initialize,nope", "--", "node"], 'unknown scenario "nope"'],
    [["--tier", "extra", "--", "node"], 'unknown tier "extra"; the tiers are core, session, product'],
    [["--env", "NOEQUALS", "--", "node"], '--env takes NAME=value, not "NOEQUALS"'],
    [["--timeout", "soon", "--", "node"], "--timeout takes a number of seconds"],
    [["--bogus", "--", "node"], "Unknown option '--bogus'"],
  ])("exits 2 on bad usage: %j", async (args, message) => {
    const result = await weftCheck(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe("");
  });
});
