// What a person approves, over a child's stdio with the official SDK client: the permission request
// for an edit or a write carries the tool's title, the file and the diff before anything is
// written; a command's carries the whole command and its directory; and an editor that shows forms
// can edit a call's input first, after which the call runs with the edited input.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { beforeEach, describe, expect, it } from "vitest";

import type { AgentProcess } from "../../../test/support/agent-process.js";
import { startedAgents } from "../../../test/support/started-agents.js";
import { toolCallsOneByOne } from "../../../test/support/tool-call-script.js";
import type { ChatRequest, FakeModelServer } from "../../testing/fake-model-server.js";

let project: string;

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "weft-review-"));
  writeFileSync(join(project, "app.js"), "const greeting = 'hi';\nconsole.log(greeting);\n");
});

const started = startedAgents(() => rmSync(project, { recursive: true, force: true }));

/** A model that makes the given tool calls one per request, then answers "done". */
const modelCalling = (calls: Array<{ name: string; arguments: unknown }>) => started.fakeModel(toolCallsOneByOne(calls));

const toolResult = (request: ChatRequest | undefined) => request?.messages.find((message) => message.role === "tool")?.content;

async function editor(capabilities: acp.ClientCapabilities, model: FakeModelServer, configure?: (app: acp.ClientApp) => acp.ClientApp): Promise<AgentProcess> {
  return started.connect({ fixture: "coding-agent.ts", env: { FAKE_MODEL_URL: model.url }, ...(configure ? { configure } : {}) }, capabilities);
}

describe("the tool call in a permission request", () => {
  it("shows an edit's title, file and diff while the file on disk is still unchanged", async () => {
    const model = await modelCalling([{ name: "edit_file", arguments: { path: "app.js", old_text: "console.log(greeting);", new_text: "console.log(greeting, 'there');" } }]);
    const agent = await editor({}, model);
    let onDisk = "";
    agent.answerPermission = () => {
      onDisk = readFileSync(join(project, "app.js"), "utf8");
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    };
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "greet more")).stopReason).toBe("end_turn");
    expect(agent.permissions).toHaveLength(1);
    expect(agent.permissions[0]?.toolCall).toEqual({
      toolCallId: "c0",
      title: "Edit app.js",
      kind: "edit",
      status: "pending",
      rawInput: { path: "app.js", old_text: "console.log(greeting);", new_text: "console.log(greeting, 'there');" },
      locations: [{ path: join(project, "app.js"), line: 2 }],
      content: [
        {
          type: "diff",
          path: join(project, "app.js"),
          oldText: "const greeting = 'hi';\nconsole.log(greeting);\n",
          newText: "const greeting = 'hi';\nconsole.log(greeting, 'there');\n",
        },
      ],
    });
    expect(onDisk).toBe("const greeting = 'hi';\nconsole.log(greeting);\n");
    expect(readFileSync(join(project, "app.js"), "utf8")).toBe("const greeting = 'hi';\nconsole.log(greeting, 'there');\n");
  });

  it("shows a write's diff against the editor's unsaved buffer, before any fs/write_text_file", async () => {
    const model = await modelCalling([{ name: "write_file", arguments: { path: "app.js", content: "rewritten\n" } }]);
    const writes: acp.WriteTextFileRequest[] = [];
    let writesWhenAsked = -1;
    const agent = await editor({ fs: { readTextFile: true, writeTextFile: true } }, model, (app) =>
      app
        .onRequest(acp.methods.client.fs.readTextFile, () => ({ content: "unsaved buffer\n" }))
        .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
          writes.push(params);
          return {};
        }),
    );
    agent.answerPermission = () => {
      writesWhenAsked = writes.length;
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    };
    const sessionId = await agent.newSession(project);
    await agent.prompt(sessionId, "rewrite it");
    expect(writesWhenAsked).toBe(0);
    expect(agent.permissions[0]?.toolCall).toMatchObject({
      title: "Write app.js",
      content: [{ type: "diff", path: join(project, "app.js"), oldText: "unsaved buffer\n", newText: "rewritten\n" }],
    });
    expect(writes).toEqual([{ sessionId, path: join(project, "app.js"), content: "rewritten\n" }]);
  });

  it("says an edit will fail, instead of a diff, when its text is not in the file", async () => {
    const model = await modelCalling([{ name: "edit_file", arguments: { path: "app.js", old_text: "nowhere", new_text: "x" } }]);
    const agent = await editor({}, model);
    const sessionId = await agent.newSession(project);
    await agent.prompt(sessionId, "edit");
    expect(agent.permissions[0]?.toolCall).toMatchObject({
      title: "Edit app.js",
      content: [{ type: "content", content: { type: "text", text: expect.stringMatching(/^This call will fail: old_text was not found in app\.js/) } }],
    });
  });

  it("shows a command in full, with the directory it runs in", async () => {
    const command = "echo hello && ls -la";
    const model = await modelCalling([{ name: "run_command", arguments: { command } }]);
    const agent = await editor({}, model);
    const sessionId = await agent.newSession(project);
    await agent.prompt(sessionId, "look around");
    expect(agent.permissions[0]?.toolCall).toMatchObject({
      title: `Run ${command}`,
      kind: "execute",
      content: [{ type: "content", content: { type: "text", text: `$ ${command}\n\nRuns in ${project}, as a process on the agent's machine, for at most 60 s.` } }],
    });
  });
});

describe("edit first", () => {
  const forms: acp.ClientCapabilities = { elicitation: { form: {} } };

  it("offers the call's input as a filled-in form, runs the call with the edited input, and tells the model", async () => {
    const model = await modelCalling([{ name: "write_file", arguments: { path: "notes.txt", content: "draft\n" } }]);
    const agent = await editor(forms, model);
    agent.answerPermission = (request) => {
      expect(request.options.map((option) => option.optionId)).toEqual(["allow_once", "edit_first", "allow_always", "reject_once", "reject_always"]);
      return { outcome: { outcome: "selected", optionId: "edit_first" } };
    };
    agent.answerForm = () => ({ action: "accept", content: { path: "notes.txt", content: "final\n" } });
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "take a note")).stopReason).toBe("end_turn");
    expect(agent.forms).toEqual([
      {
        sessionId,
        toolCallId: "c0",
        mode: "form",
        message: "Edit the input of Write notes.txt before it runs.",
        requestedSchema: { type: "object", properties: { path: { type: "string", default: "notes.txt" }, content: { type: "string", default: "draft\n" } }, required: ["path", "content"] },
      },
    ]);
    expect(readFileSync(join(project, "notes.txt"), "utf8")).toBe("final\n");
    expect(toolResult(model.requests[1])).toBe(`The person edited this call's input before approving it; it ran with {"path":"notes.txt","content":"final\\n"}.\n\nCreated notes.txt (2 lines).`);
  });

  it("rejects the call when the person closes the form, and runs nothing", async () => {
    const model = await modelCalling([{ name: "run_command", arguments: { command: "touch ran.txt" } }]);
    const agent = await editor(forms, model);
    agent.answerPermission = () => ({ outcome: { outcome: "selected", optionId: "edit_first" } });
    agent.answerForm = () => ({ action: "cancel" });
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "touch")).stopReason).toBe("end_turn");
    expect(agent.forms).toHaveLength(1);
    expect(() => readFileSync(join(project, "ran.txt"))).toThrow();
    expect(toolResult(model.requests[1])).toContain("The person declined to run this tool call.");
  });
});
