// acpEditor() with the official SDK client as the editor: files through fs/* or the disk, commands
// through terminal/* or a local process, paths held inside the session's directory, and the
// editor's MCP servers (stdio and streamable HTTP) per session.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { beforeEach, describe, expect, it } from "vitest";

import { type AgentProcess, fixturesDir } from "../../../test/support/agent-process.js";
import { startHttpMcpServer, type HttpMcpServer } from "../../../test/support/mcp-http-server.js";
import { processAlive } from "../../../test/support/processes.js";
import { startedAgents } from "../../../test/support/started-agents.js";
import { toolCallsOneByOne } from "../../../test/support/tool-call-script.js";
import { LocalTerminals } from "../../chat/local-terminals.js";
import type { ChatRequest, FakeModelServer } from "../../testing/fake-model-server.js";

let project: string;
let outside: string;

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "weft-project-"));
  outside = mkdtempSync(join(tmpdir(), "weft-outside-"));
  writeFileSync(join(project, "a.txt"), "disk text\n");
  writeFileSync(join(outside, "secret.txt"), "top secret\n");
});

const started = startedAgents(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
const { servers } = started;

/** A model that makes the given tool calls one per request, then answers "done". */
const modelCalling = (calls: Array<{ name: string; arguments: unknown }>) => started.fakeModel(toolCallsOneByOne(calls));

function toolResults(request: ChatRequest | undefined): string[] {
  return (request?.messages ?? []).filter((message) => message.role === "tool").map((message) => String(message.content));
}

async function editor(capabilities: acp.ClientCapabilities, configure?: (app: acp.ClientApp, agent: AgentProcess) => acp.ClientApp, model?: FakeModelServer): Promise<AgentProcess> {
  return started.connect({ fixture: "coding-agent.ts", env: { FAKE_MODEL_URL: model?.url ?? "http://127.0.0.1:9/v1" }, ...(configure ? { configure } : {}) }, capabilities);
}

describe("files through an editor that offers fs", () => {
  it("reads the editor's buffer, not the disk, and writes through fs/write_text_file with a diff", async () => {
    const model = await modelCalling([
      { name: "read_file", arguments: { path: "a.txt" } },
      { name: "write_file", arguments: { path: "b.txt", content: "new file\n" } },
    ]);
    const reads: acp.ReadTextFileRequest[] = [];
    const writes: acp.WriteTextFileRequest[] = [];
    const agent = await editor(
      { fs: { readTextFile: true, writeTextFile: true } },
      (app) =>
        app
          .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
            reads.push(params);
            if (params.path === join(project, "a.txt")) {
              return { content: "buffer text (unsaved)\n" };
            }
            throw acp.RequestError.resourceNotFound(params.path);
          })
          .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
            writes.push(params);
            return {};
          }),
      model,
    );
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "read a, write b")).stopReason).toBe("end_turn");
    expect(reads[0]).toMatchObject({ sessionId, path: join(project, "a.txt") });
    expect(toolResults(model.requests[1])).toEqual(["buffer text (unsaved)\n"]);
    expect(writes).toEqual([{ sessionId, path: join(project, "b.txt"), content: "new file\n" }]);
    expect(existsSync(join(project, "b.txt"))).toBe(false);
    const finished = agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "tool_call_update" && update.toolCallId === "c1" && update.status === "completed");
    expect(finished).toMatchObject({ content: [{ type: "diff", path: join(project, "b.txt"), oldText: null, newText: "new file\n" }], locations: [{ path: join(project, "b.txt") }] });
    const announced = agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "tool_call" && update.toolCallId === "c0");
    expect(announced).toMatchObject({ kind: "read", locations: [{ path: join(project, "a.txt") }] });
  });
});

describe("an editor without fs or terminals", () => {
  it("reads, writes, edits, lists and searches on disk, and runs commands as local processes", async () => {
    writeFileSync(join(project, ".gitignore"), "ignored/\n");
    mkdirSync(join(project, "ignored"));
    writeFileSync(join(project, "ignored", "junk.txt"), "needle in junk\n");
    const model = await modelCalling([
      { name: "read_file", arguments: { path: "a.txt" } },
      { name: "write_file", arguments: { path: "src/new.ts", content: "export const x = 1;\n" } },
      { name: "edit_file", arguments: { path: "src/new.ts", old_text: "x = 1", new_text: "x = 2" } },
      { name: "list_files", arguments: { recursive: true } },
      { name: "search_files", arguments: { pattern: "x = \\d", glob: "*.ts" } },
      { name: "run_command", arguments: { command: "echo hello from $(basename $PWD)" } },
    ]);
    const agent = await editor({}, undefined, model);
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "work")).stopReason).toBe("end_turn");
    const results = model.requests.slice(1).map((request) => toolResults(request).at(-1));
    expect(results[0]).toBe("disk text\n");
    expect(readFileSync(join(project, "src/new.ts"), "utf8")).toBe("export const x = 2;\n");
    expect(results[3]).toBe(".gitignore\na.txt\nsrc/\nsrc/new.ts");
    expect(results[4]).toBe("src/new.ts:1: export const x = 2;");
    expect(results[5]).toBe(`Exit code 0.\nhello from ${project.split("/").at(-1)}\n`);
    const edited = agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "tool_call_update" && update.toolCallId === "c2" && update.status === "completed");
    expect(edited).toMatchObject({ content: [{ type: "diff", oldText: "export const x = 1;\n", newText: "export const x = 2;\n" }], locations: [{ path: join(project, "src/new.ts"), line: 1 }] });
  });

  it("bounds a huge output for the model and the editor, keeping its head and tail", async () => {
    const model = await modelCalling([{ name: "run_command", arguments: { command: "seq 1 300000" } }]);
    const agent = await editor({}, undefined, model);
    const sessionId = await agent.newSession(project);
    await agent.prompt(sessionId, "count");
    const seen = toolResults(model.requests[1])[0] ?? "";
    expect(seen.length).toBeLessThan(41_000);
    expect(seen).toMatch(/^Exit code 0\.\n1\n2\n3\n/);
    expect(seen).toMatch(/characters not shown/);
    expect(seen.trimEnd().endsWith("300000")).toBe(true);
    const shown = agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "tool_call_update" && update.status === "completed");
    const text = shown?.sessionUpdate === "tool_call_update" && shown.content?.[0]?.type === "content" && shown.content[0].content.type === "text" ? shown.content[0].content.text : "";
    expect(text.length).toBeLessThanOrEqual(64 * 1024);
    expect(text.trimEnd().endsWith("300000")).toBe(true);
  });

  it("kills the process group of a command when the turn is cancelled", async () => {
    const model = await modelCalling([{ name: "run_command", arguments: { command: "echo $$ > pid.txt; sleep 30 & wait" } }]);
    const agent = await editor({}, undefined, model);
    const sessionId = await agent.newSession(project);
    const turn = agent.prompt(sessionId, "run it");
    // The file appears with no update to wake waitFor, so poll for it.
    await expect.poll(() => existsSync(join(project, "pid.txt")) && readFileSync(join(project, "pid.txt"), "utf8").trim() !== "", { timeout: 20_000 }).toBe(true);
    const pid = Number(readFileSync(join(project, "pid.txt"), "utf8"));
    await agent.cancel(sessionId);
    expect((await turn).stopReason).toBe("cancelled");
    await expect.poll(() => processAlive(pid), { timeout: 5_000 }).toBe(false);
  });
});

describe("an editor with terminals", () => {
  it("runs the command in terminal/*, embeds the terminal in the tool call, and releases it", async () => {
    const terminals = new LocalTerminals(project);
    const model = await modelCalling([{ name: "run_command", arguments: { command: "echo in the terminal" } }]);
    const agent = await editor({ terminal: true }, (app) => withTerminals(app, terminals), model);
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "run")).stopReason).toBe("end_turn");
    const embedded = agent.updatesOf(sessionId).find((update) => update.sessionUpdate === "tool_call_update" && Array.isArray(update.content) && update.content[0]?.type === "terminal");
    expect(embedded).toBeDefined();
    expect(terminals.released).toHaveLength(1);
    expect(toolResults(model.requests[1])).toEqual(["Exit code 0.\nin the terminal\n"]);
  });

  it("sends terminal/kill when the turn is cancelled during a long command", async () => {
    const terminals = new LocalTerminals(project);
    const model = await modelCalling([{ name: "run_command", arguments: { command: "sleep 30" } }]);
    const agent = await editor({ terminal: true }, (app) => withTerminals(app, terminals), model);
    const sessionId = await agent.newSession(project);
    const turn = agent.prompt(sessionId, "run");
    await agent.waitFor(() => agent.updatesOf(sessionId).some((update) => update.sessionUpdate === "tool_call_update" && Array.isArray(update.content) && update.content[0]?.type === "terminal"), "the terminal to be embedded");
    await agent.cancel(sessionId);
    expect((await turn).stopReason).toBe("cancelled");
    await expect.poll(() => terminals.killed.length).toBe(1);
    await expect.poll(() => terminals.released.length).toBe(1);
  });
});

describe("paths", () => {
  it("refuses ../, absolute paths outside and symlinks that lead out, reading and writing nothing outside", async () => {
    symlinkSync(outside, join(project, "escape"));
    const model = await modelCalling([
      { name: "read_file", arguments: { path: "../secret.txt" } },
      { name: "read_file", arguments: { path: join(outside, "secret.txt") } },
      { name: "read_file", arguments: { path: "escape/secret.txt" } },
      { name: "write_file", arguments: { path: "escape/planted.txt", content: "x" } },
      { name: "write_file", arguments: { path: "../planted.txt", content: "x" } },
      { name: "run_command", arguments: { command: "true" } },
    ]);
    const reads: string[] = [];
    const agent = await editor(
      { fs: { readTextFile: true, writeTextFile: true } },
      (app) =>
        app
          .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
            reads.push(params.path);
            return { content: readFileSync(params.path, "utf8") };
          })
          .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
            reads.push(params.path);
            return {};
          }),
      model,
    );
    const sessionId = await agent.newSession(project);
    await agent.prompt(sessionId, "try to escape");
    const results = model.requests.slice(1, 6).map((request) => toolResults(request).at(-1));
    for (const result of results) {
      expect(result).toMatch(/^Error: Refused: .* is outside the session's directory/);
    }
    expect(reads).toEqual([]);
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);
    expect(existsSync(join(project, "..", "planted.txt"))).toBe(false);
  });
});

describe("the editor's MCP servers", () => {
  it("offers stdio and HTTP servers' tools to the model, reports one that fails, and keeps sessions apart", async () => {
    const http: HttpMcpServer = await startHttpMcpServer();
    servers.push(http);
    const model = await started.fakeModel((request) => {
      const names = (request.tools ?? []).map((tool) => tool.function.name);
      const results = toolResults(request);
      if (names.includes("shouter__shout") && results.length === 0) {
        return { toolCalls: [{ name: "shouter__shout", arguments: { text: "quiet" }, id: "m1" }, { name: "adder__add_numbers", arguments: { a: 2, b: 40 }, id: "m2" }] };
      }
      return { text: `tools: ${names.filter((name) => name.includes("__")).join(",") || "none"}` };
    });
    const agent = await editor({}, undefined, model);
    const mcpServers: acp.McpServer[] = [
      { name: "shouter", command: process.execPath, args: ["--import", "tsx", `${fixturesDir}mcp-stdio-server.ts`], env: [{ name: "PID_FILE", value: join(project, "mcp.pid") }] },
      { type: "http", name: "adder", url: http.url, headers: [] },
      { name: "broken", command: "/nonexistent/mcp-server", args: [], env: [] },
    ];
    const withServers = await agent.newSession(project, mcpServers);
    const without = await agent.newSession(project);
    expect((await agent.prompt(withServers, "use the servers")).stopReason).toBe("end_turn");
    expect(agent.textOf(withServers)).toMatch(/^The MCP server "broken" is not available \(.+\); carrying on without its tools\.\n\ntools: shouter__shout,adder__add_numbers$/);
    const results = model.requests.find((request) => toolResults(request).length > 0);
    expect(toolResults(results)).toEqual(["QUIET", "42"]);
    expect(http.calls).toBe(1);
    expect(model.requests[0]?.messages[0]?.content).toContain("could not be reached, so their tools are missing: broken");

    expect((await agent.prompt(without, "which tools?")).stopReason).toBe("end_turn");
    expect(agent.textOf(without)).toBe("tools: none");

    const serverPid = Number(readFileSync(join(project, "mcp.pid"), "utf8"));
    expect(processAlive(serverPid)).toBe(true);
    await agent.agent.request(acp.methods.agent.session.close, { sessionId: withServers });
    await expect.poll(() => processAlive(serverPid), { timeout: 5_000 }).toBe(false);
  });
});

function withTerminals(app: acp.ClientApp, terminals: LocalTerminals): acp.ClientApp {
  return app
    .onRequest(acp.methods.client.terminal.create, ({ params }) => terminals.create(params))
    .onRequest(acp.methods.client.terminal.output, ({ params }) => terminals.output(params))
    .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => terminals.waitForExit(params))
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => terminals.kill(params))
    .onRequest(acp.methods.client.terminal.release, ({ params }) => terminals.release(params));
}

