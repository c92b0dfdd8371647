// `weft acp`'s modes as an editor sees them, over stdio with the SDK client: what each mode asks
// before, what plan mode refuses even when the model names the tool, and the plan updates the
// model's update_plan calls send.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import type { AgentProcess } from "../../test/support/agent-process.js";
import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import type { FakeReply } from "../testing/fake-model-server.js";

const harness = weftAcpHarness();

/** A fake model that makes `calls` in turn, one per request, then says "done". */
async function scripted(calls: readonly { name: string; arguments: unknown }[]) {
  return harness.fakeModel((_request, index) => {
    const call = calls[index];
    const reply: FakeReply = call ? { toolCalls: [{ name: call.name, arguments: call.arguments, id: `call${index}` }] } : { text: "done" };
    return reply;
  });
}

async function sessionIn(agent: AgentProcess, mode: string | undefined): Promise<string> {
  await agent.initialize();
  const sessionId = await agent.newSession(harness.project);
  if (mode) {
    await agent.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: mode });
  }
  return sessionId;
}

const write = { name: "write_file", arguments: { path: "notes.txt", content: "new notes\n" } };
/** A command whose only trace is the file it creates. */
const command = { name: "run_command", arguments: { command: "echo ran > ran.txt" } };

describe("weft acp modes", () => {
  it("offers ask, accept-edits, plan and auto, in ask by default, and says plainly that auto asks nothing", async () => {
    const agent = harness.start();
    await agent.initialize();
    const { sessionId: _sessionId, ...answer } = await agent.agent.request(acp.methods.agent.session.new, { cwd: harness.project, mcpServers: [] });
    expect(answer.modes?.currentModeId).toBe("ask");
    expect(answer.modes?.availableModes.map((mode) => mode.id)).toEqual(["ask", "accept-edits", "plan", "auto"]);
    const auto = answer.modes?.availableModes.find((mode) => mode.id === "auto");
    expect(auto?.description).toMatch(/asks nothing/i);
    expect(answer.configOptions?.find((option) => option.id === "mode")).toMatchObject({ category: "mode", currentValue: "ask" });
  });

  it("ask mode asks before a write, and writes once allowed", async () => {
    const { model, env } = await scripted([write]);
    const agent = harness.start(env);
    const sessionId = await sessionIn(agent, undefined);
    expect((await agent.prompt(sessionId, "write my notes")).stopReason).toBe("end_turn");
    expect(agent.permissions).toHaveLength(1);
    expect(agent.permissions[0]?.toolCall.title).toBe("Write notes.txt");
    expect(readFileSync(join(harness.project, "notes.txt"), "utf8")).toBe("new notes\n");
    expect(String(model.requests[0]?.messages[0]?.content)).toContain("You are in ask mode");
  });

  it("accept-edits mode writes in the project without asking, and still asks before a command", async () => {
    const { model, env } = await scripted([write, { name: "edit_file", arguments: { path: "notes.txt", old_text: "new", new_text: "newer" } }, command]);
    const agent = harness.start(env);
    const sessionId = await sessionIn(agent, "accept-edits");
    agent.answerPermission = () => ({ outcome: { outcome: "selected", optionId: "reject_once" } });
    expect((await agent.prompt(sessionId, "write my notes, then run something")).stopReason).toBe("end_turn");
    expect(readFileSync(join(harness.project, "notes.txt"), "utf8")).toBe("newer notes\n");
    // One question only, for the command, which the person declined.
    expect(agent.permissions.map((request) => request.toolCall.title)).toEqual(["Run echo ran > ran.txt"]);
    expect(existsSync(join(harness.project, "ran.txt"))).toBe(false);
    expect(String(model.requests[0]?.messages[0]?.content)).toContain("You are in accept-edits mode");
  });

  it("accept-edits mode still asks before a write by absolute path", async () => {
    const { env } = await scripted([{ name: "write_file", arguments: { path: join(harness.project, "notes.txt"), content: "x\n" } }]);
    const agent = harness.start(env);
    const sessionId = await sessionIn(agent, "accept-edits");
    expect((await agent.prompt(sessionId, "write")).stopReason).toBe("end_turn");
    expect(agent.permissions).toHaveLength(1);
  });

  it("plan mode offers no tool that writes or runs, and refuses one the model names anyway, touching nothing", async () => {
    writeFileSync(join(harness.project, "notes.txt"), "old notes\n");
    const { model, env } = await scripted([write, { name: "edit_file", arguments: { path: "notes.txt", old_text: "old", new_text: "new" } }, command]);
    const editorCalls: string[] = [];
    const agent = harness.start(env, [], (app) =>
      app
        .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => ({ content: readFileSync(params.path, "utf8") }))
        .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
          editorCalls.push(`write ${params.path}`);
          return {};
        })
        .onRequest(acp.methods.client.terminal.create, ({ params }) => {
          editorCalls.push(`terminal ${params.command}`);
          throw acp.RequestError.internalError({ details: "no terminals in this test" });
        }),
    );
    await agent.initialize({ fs: { readTextFile: true, writeTextFile: true }, terminal: true });
    const sessionId = await agent.newSession(harness.project);
    await agent.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
    expect((await agent.prompt(sessionId, "change everything")).stopReason).toBe("end_turn");

    const offered = (model.requests[0]?.tools ?? []).map((tool) => tool.function.name).sort();
    expect(offered).toEqual(["ask_user", "list_files", "read_file", "search_files", "update_plan"]);
    expect(String(model.requests[0]?.messages[0]?.content)).toContain("You are in plan mode");
    const results = (model.requests.at(-1)?.messages ?? []).filter((message) => message.role === "tool").map((message) => String(message.content));
    expect(results).toHaveLength(3);
    for (const result of results) {
      expect(result).toMatch(/^There is no tool named "(write_file|edit_file|run_command)"/);
    }
    expect(readFileSync(join(harness.project, "notes.txt"), "utf8")).toBe("old notes\n");
    expect(existsSync(join(harness.project, "ran.txt"))).toBe(false);
    expect(editorCalls).toEqual([]);
    expect(agent.permissions).toEqual([]);
    const toolEnds = agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "tool_call_update" && update.status !== undefined);
    expect(toolEnds.map((update) => (update as { status?: string }).status)).toEqual(["failed", "failed", "failed"]);
  });

  it("auto mode writes and runs commands without asking anything", async () => {
    const { env } = await scripted([write, command]);
    const agent = harness.start(env);
    const sessionId = await sessionIn(agent, "auto");
    expect((await agent.prompt(sessionId, "write and run")).stopReason).toBe("end_turn");
    expect(agent.permissions).toEqual([]);
    expect(readFileSync(join(harness.project, "notes.txt"), "utf8")).toBe("new notes\n");
    expect(readFileSync(join(harness.project, "ran.txt"), "utf8")).toBe("ran\n");
  });

  it("sends the editor a plan update after each update_plan call", async () => {
    const first = [
      { content: "Read the parser", priority: "high", status: "in_progress" },
      { content: "Make it stream", priority: "medium", status: "pending" },
    ];
    const second = [
      { content: "Read the parser", priority: "high", status: "completed" },
      { content: "Make it stream", priority: "medium", status: "in_progress" },
    ];
    const { model, env } = await scripted([
      { name: "update_plan", arguments: { entries: first } },
      { name: "update_plan", arguments: { entries: second } },
    ]);
    const agent = harness.start(env);
    const sessionId = await sessionIn(agent, "plan");
    expect((await agent.prompt(sessionId, "plan the streaming parser")).stopReason).toBe("end_turn");
    const updates = agent.updatesOf(sessionId);
    const plans = updates.filter((update) => update.sessionUpdate === "plan");
    expect(plans).toEqual([
      { sessionUpdate: "plan", entries: first },
      { sessionUpdate: "plan", entries: second },
    ]);
    // Each plan update follows its tool call.
    const firstCall = updates.findIndex((update) => update.sessionUpdate === "tool_call" && update.toolCallId !== undefined);
    expect(firstCall).toBeGreaterThanOrEqual(0);
    expect(updates.findIndex((update) => update.sessionUpdate === "plan")).toBeGreaterThan(firstCall);
    expect(agent.permissions).toEqual([]);
    expect(String(model.requests[1]?.messages.find((message) => message.role === "tool")?.content)).toBe("Plan updated: 0 of 2 steps completed.");
  });
});
