// What the model is told when the editor refuses one of the agent's requests: the editor's own
// message and details, bounded, rather than only "Internal error".

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { beforeEach, describe, expect, it } from "vitest";

import { startedAgents } from "../../../test/support/started-agents.js";
import { toolCallsOneByOne } from "../../../test/support/tool-call-script.js";

let project: string;

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "weft-refusing-"));
  writeFileSync(join(project, "a.txt"), "on disk\n");
});

const started = startedAgents(() => rmSync(project, { recursive: true, force: true }));

describe("an editor that refuses requests", () => {
  it("gives the model the editor's message and details for fs and terminal requests, cut to a bounded size", async () => {
    const calls = [
      { name: "read_file", arguments: { path: "a.txt" } },
      { name: "write_file", arguments: { path: "b.txt", content: "x" } },
      { name: "edit_file", arguments: { path: "a.txt", old_text: "on", new_text: "off" } },
      { name: "run_command", arguments: { command: "true" } },
    ];
    const model = await started.fakeModel(toolCallsOneByOne(calls));
    const agent = await started.connect(
      {
        fixture: "coding-agent.ts",
        env: { FAKE_MODEL_URL: model.url },
        configure: (app) =>
          app
            .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
              throw acp.RequestError.internalError({ details: `Permission denied: ${params.path} is outside the allowed paths (--deny-all)` });
            })
            .onRequest(acp.methods.client.fs.writeTextFile, () => {
              throw new acp.RequestError(-32000, "Write refused", { policy: "read-only", reasons: ["x".repeat(5_000)] });
            })
            .onRequest(acp.methods.client.terminal.create, () => {
              throw new acp.RequestError(-32001, `Terminals are switched off ${"y".repeat(5_000)}`);
            }),
      },
      { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    );
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "try")).stopReason).toBe("end_turn");

    const results = (model.requests.at(-1)?.messages ?? []).filter((message) => message.role === "tool").map((message) => String(message.content));
    expect(results[0]).toBe(`Error: The editor refused fs/read_text_file: Internal error (Permission denied: ${join(project, "a.txt")} is outside the allowed paths (--deny-all))`);
    // Without details the data is shown as JSON; both it and a long message are cut short.
    expect(results[1]).toMatch(/^Error: The editor refused fs\/write_text_file: Write refused \(\{"policy":"read-only","reasons":\["x{900,}…\)$/);
    expect(results[2]).toMatch(/^Error: The editor refused fs\/read_text_file: Internal error \(Permission denied: /);
    expect(results[3]).toMatch(/^Error: The editor refused terminal\/create: Terminals are switched off y{400,}…$/);
    for (const result of results) {
      expect(result.length).toBeLessThan(1_700);
    }
  });
});
