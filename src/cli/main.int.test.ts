// The command line itself: help, version, and clear errors with exit code 2 for bad flags and values.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { repoRoot } from "../../test/support/agent-process.js";

// Every run starts in an empty directory, so a value mistaken for a file name shows up as a file.
let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "weft-cli-"));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

function weft(args: string[], env: Record<string, string | undefined> = {}) {
  return spawnSync(process.execPath, [join(repoRoot, "bin/weft.js"), ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, WEFT_MODEL: undefined, WEFT_MODELS: undefined, WEFT_SESSIONS: undefined, XDG_STATE_HOME: join(cwd, ".state"), XDG_CONFIG_HOME: join(cwd, ".config"), ...env },
    input: "",
  });
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

  // npx may install the checkout into its cache first, which takes long on a loaded machine. That
  // install runs the package's `prepare` (a build) unless scripts are off, and a build rewrites
  // dist/ under every other test that is starting `weft` from it at that moment.
  it("runs as npx weft in the project, leaving dist/ as it was", () => {
    const bundle = join(repoRoot, "dist", "bundle", "main.js");
    const built = statSync(bundle).mtimeMs;
    const result = spawnSync("npx", ["weft", "--help"], { cwd: repoRoot, encoding: "utf8", env: { ...process.env, npm_config_ignore_scripts: "true" } });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("weft chat [options]");
    expect(statSync(bundle).mtimeMs).toBe(built);
  }, 120_000);

  it.each([
    [["serve-me"], 'unknown command "serve-me"'],
    [["serve", "--listen", "8377"], "--listen takes host:port"],
    [["serve", "--jwks", "https://id.example.com/jwks.json"], "JWTs need --issuer and --audience"],
    [["serve", "--tls-cert", "cert.pem"], "TLS needs both --tls-cert and --tls-key"],
    [["acp", "--modle", "x"], "Unknown option '--modle'"],
    [["acp", "--model", "gpt-4"], 'Cannot use model "gpt-4"'],
    [["acp", "--model", "openai-compatible:llama"], "needs a base URL"],
    [["acp", "--base-url", "localhost:8000"], "must start with http:// or https://"],
    [["chat", "--agent", "'unclosed"], "Unclosed ' quote"],
    [["--version", "--bogus"], '--version takes no arguments, but was given "--bogus"'],
    [["-v", "acp"], "-v takes no arguments"],
    [["--help", "acp"], "--help takes no arguments"],
    [["help", "me"], "help takes no arguments"],
    [["acp", "extra"], "Unexpected argument 'extra'"],
    [["acp", "--sessions", "ftp://x"], 'uses a scheme weft does not support (ftp:)'],
    [["acp", "--sessions", "mysql://x"], "uses a scheme weft does not support (mysql:)"],
    [["acp", "--sessions", "mysql:/x"], "uses a scheme weft does not support (mysql:)"],
    [["acp", "--sessions", "MEMORY"], "is not memory (write it in lower case)"],
    [["acp", "--sessions", ""], "is empty"],
    [["acp", "--sessions", "sessions"], "is not a file path"],
    [["acp", "--sessions", "postgres://"], "has no host"],
    [["acp", "--sessions", "redis:localhost"], "has no host"],
    [["acp", "--sessions", "sqlite:"], "names no file"],
    [["acp", "--sessions", tmpdir()], "is a directory, not a file"],
    [["chat", "--cwd", "/nonexistent/weft"], '--cwd "/nonexistent/weft" is not a directory'],
    [["chat", "--resume", " "], "--resume needs a session id"],
    [["chat", "--list", "--resume", "sess_1"], "--list and --resume cannot be used together"],
    [["chat", "-p", "hi", "--all"], "--all goes with --list"],
    [["chat", "--agent", "other-agent", "--model", "openai:gpt-4.1"], "--model configures weft's own agent"],
    [["chat", "--sessions", "ftp://x"], "uses a scheme weft does not support"],
    [["chat", "-p", "hi", "--list"], "--list cannot be used with a prompt"],
    [["chat", "-p", "hi", "--format", "xml"], '--format must be text or json, not "xml"'],
    [["chat", "-p", "hi", "--session", "a", "--continue"], "--session and --continue cannot be used together"],
    [["chat", "-p", ""], "-p needs a prompt"],
    [["acp", "--model-timeout", "0"], '--model-timeout must be a positive number of seconds, not "0"'],
    [["acp", "--model-timeout", "soon"], '--model-timeout must be a positive number of seconds, not "soon"'],
    [["chat", "--model-timeout=-5"], "--model-timeout must be a positive number of seconds"],
    [["acp", "--context-window", "0"], '--context-window must be a whole number of tokens above 0 (such as 200000 or 200k), not "0"'],
    [["acp", "--context-window", "1.5k"], "--context-window must be a whole number of tokens above 0"],
  ])("refuses %j with exit code 2 and says why", (args, message) => {
    const result = weft(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain("Run weft --help");
    expect(result.stdout).toBe("");
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("checks WEFT_SESSIONS the way it checks --sessions", () => {
    const result = weft(["acp"], { WEFT_SESSIONS: "ftp://x" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('WEFT_SESSIONS "ftp://x" uses a scheme weft does not support');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("checks WEFT_MODEL_TIMEOUT", () => {
    const result = weft(["acp"], { WEFT_MODEL_TIMEOUT: "1m" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('WEFT_MODEL_TIMEOUT must be a positive number of seconds, not "1m"');
  });

  it("checks WEFT_CONTEXT_WINDOW", () => {
    const result = weft(["acp"], { WEFT_CONTEXT_WINDOW: "big" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('WEFT_CONTEXT_WINDOW must be a whole number of tokens above 0 (such as 200000 or 200k), not "big"');
  });

  it.each([["memory"], ["./here.db"], ["here.sqlite"], ["sqlite:here.db"], ["postgres://127.0.0.1:1/x"], ["redis://127.0.0.1:1"]])("accepts --sessions %s", (sessions) => {
    // stdin is empty, so the agent starts, sees the editor gone, and exits 0; no store is opened.
    const result = weft(["acp", "--sessions", sessions]);
    expect(result.stderr).not.toContain("Run weft --help");
    expect(result.status).toBe(0);
  });

  it("refuses a WEFT_LOG it does not know", () => {
    const result = weft(["acp"], { WEFT_LOG: "loud" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("WEFT_LOG must be one of silent, error, warn, info, debug");
  });
});
