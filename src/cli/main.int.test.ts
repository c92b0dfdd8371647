// The command line itself: help, version, and clear errors with exit code 2 for bad flags and values.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { repoRoot } from "../../test/support/agent-process.js";

function weft(args: string[], env: Record<string, string | undefined> = {}) {
  return spawnSync(process.execPath, [join(repoRoot, "bin/weft.js"), ...args], { encoding: "utf8", env: { ...process.env, WEFT_MODEL: undefined, ...env }, input: "" });
}

describe("the weft command", () => {
  it("prints its help and version", () => {
    const help = weft(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("weft acp [options]");
    expect(help.stdout).toContain("WEFT_SESSIONS");
    const version = weft(["--version"]);
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version);
  });

  it("runs as npx weft in the project", () => {
    const result = spawnSync("npx", ["weft", "--help"], { cwd: repoRoot, encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("weft chat [options]");
  });

  it.each([
    [["serve"], 'unknown command "serve"'],
    [["acp", "--modle", "x"], "Unknown option '--modle'"],
    [["acp", "--model", "gpt-4"], 'Cannot use model "gpt-4"'],
    [["acp", "--model", "openai-compatible:llama"], "needs a base URL"],
    [["acp", "--base-url", "localhost:8000"], "must start with http:// or https://"],
    [["chat", "--agent", "'unclosed"], "Unclosed ' quote"],
  ])("refuses %j with exit code 2 and says why", (args, message) => {
    const result = weft(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain("Run weft --help");
    expect(result.stdout).toBe("");
  });

  it("refuses a WEFT_LOG it does not know", () => {
    const result = weft(["acp"], { WEFT_LOG: "loud" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("WEFT_LOG must be one of silent, error, warn, info, debug");
  });
});
