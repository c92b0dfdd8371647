// The MCP servers a remote client lists with a session of `weft serve`: refused unless the operator
// allows them with --allow-client-mcp, a stdio one before its command runs and an HTTP one before
// any request is made; the client is told which flag would allow them, and the session works on.

import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { beforeEach, describe, expect, it } from "vitest";

import { fixturesDir } from "../../test/support/agent-process.js";
import { cleanupsAfterEach, temporaryDirectory } from "../../test/support/cleanups.js";
import { startHttpMcpServer } from "../../test/support/mcp-http-server.js";
import { connectRemote, startWeftServe } from "../../test/support/weft-serve.js";
import { FakeModelServer } from "../testing/fake-model-server.js";

let base: string;
let project: string;
const cleanups = cleanupsAfterEach();
const onCleanup = (cleanup: () => Promise<void> | void) => void cleanups.push(cleanup);

beforeEach(() => {
  base = realpathSync(temporaryDirectory("weft-serve-mcp-", cleanups));
  project = join(base, "project");
  mkdirSync(project);
});

/** Serves with `args`, opens a session with a stdio and an HTTP MCP server, and runs a turn; the model names the MCP tools it was given. */
async function sessionWithServers(args: readonly string[]): Promise<{ text: string; started: boolean; requests: number; stderr: string }> {
  const model = await FakeModelServer.start((request) => ({ text: `tools: ${(request.tools ?? []).map((tool) => tool.function.name).filter((name) => name.includes("__")).join(",") || "none"}` }));
  onCleanup(() => model.close());
  const http = await startHttpMcpServer();
  onCleanup(() => http.close());
  const env = { ...process.env, HOME: base, XDG_STATE_HOME: base, XDG_CONFIG_HOME: join(base, "config"), WEFT_MODEL: "openai-compatible:fake", WEFT_BASE_URL: model.url, WEFT_MODELS: undefined, WEFT_SESSIONS: "memory", WEFT_TOKENS: "t-ann:ann", WEFT_LOG: "info" };
  const served = await startWeftServe({ home: base, args: ["--root", base, ...args], env, cleanups });
  const client = await connectRemote(served.url, "http", "t-ann", cleanups);
  // The stdio server writes its pid to PID_FILE when it starts: the file is there only if its command ran.
  const marker = join(base, "mcp.pid");
  const mcpServers: acp.McpServer[] = [
    { name: "shouter", command: process.execPath, args: ["--import", "tsx", `${fixturesDir}mcp-stdio-server.ts`], env: [{ name: "PID_FILE", value: marker }] },
    { type: "http", name: "adder", url: http.url, headers: [] },
  ];
  const { sessionId } = await client.agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers });
  const answer = await client.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "which tools?" }] });
  expect(answer.stopReason).toBe("end_turn");
  return { text: client.text(sessionId), started: existsSync(marker), requests: http.requests, stderr: served.stderr() };
}

describe("weft serve and the clients' MCP servers", () => {
  it("refuses a stdio server before its command runs and an HTTP one before any request, and tells the client which flag allows them", async () => {
    const seen = await sessionWithServers([]);
    expect(seen.started).toBe(false);
    expect(seen.requests).toBe(0);
    expect(seen.text).toContain(
      'The MCP server "shouter" is not available (this server\'s operator does not allow client MCP servers that run a command on the server: weft serve --allow-client-mcp stdio allows them); carrying on without its tools.',
    );
    expect(seen.text).toContain('The MCP server "adder" is not available (this server\'s operator does not allow client MCP servers on 127.0.0.1: weft serve --allow-client-mcp 127.0.0.1 allows them); carrying on without its tools.');
    expect(seen.text).toMatch(/tools: none$/);
    expect(seen.stderr).toContain("client MCP servers are refused (--allow-client-mcp allows them).");
  });

  it("connects to both when the operator allows stdio and the host", async () => {
    const seen = await sessionWithServers(["--allow-client-mcp", "stdio", "--allow-client-mcp", "127.0.0.1"]);
    expect(seen.started).toBe(true);
    expect(seen.requests).toBeGreaterThan(0);
    expect(seen.text).toBe("tools: shouter__shout,adder__add_numbers");
    expect(seen.stderr).toContain("client MCP servers may run commands on this machine (stdio) and reach 127.0.0.1.");
  });

  it("still refuses an HTTP server on a host not named", async () => {
    const seen = await sessionWithServers(["--allow-client-mcp", "mcp.example.com"]);
    expect(seen.started).toBe(false);
    expect(seen.requests).toBe(0);
    expect(seen.text).toContain("does not allow client MCP servers on 127.0.0.1: weft serve --allow-client-mcp 127.0.0.1 allows them");
  });
});
