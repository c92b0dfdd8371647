// `weft chat` in a real pseudo-terminal, talking to `weft acp` (its default agent), whose model is
// the fake OpenAI-compatible server.

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { spawnSync } from "node:child_process";

import { fixturesDir, repoRoot } from "../../test/support/agent-process.js";
import { PtyProcess } from "../../test/support/pty.js";
import { FakeModelServer, type ChatRequest } from "../testing/fake-model-server.js";

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) {
    await step();
  }
  cleanup = [];
});

const lastUser = (request: ChatRequest) => JSON.stringify([...request.messages].reverse().find((message) => message.role === "user")?.content ?? "");

describe("weft chat", () => {
  it("streams answers, asks permission at the keyboard, and cancels a turn on Ctrl-C", async () => {
    const home = mkdtempSync(join(tmpdir(), "weft-home-"));
    const project = mkdtempSync(join(tmpdir(), "weft-chat-"));
    cleanup.push(() => rmSync(home, { recursive: true, force: true }), () => rmSync(project, { recursive: true, force: true }));
    const model = await FakeModelServer.start((request) => {
      const text = lastUser(request);
      if (request.messages.at(-1)?.role === "tool") {
        return { text: "Saved your note." };
      }
      if (text.includes("note")) {
        return { toolCalls: [{ name: "write_file", arguments: { path: "note.txt", content: "remember\n" }, id: "w" }] };
      }
      if (text.includes("long")) {
        return { text: ["Once upon a time ", "there was a very long story"], stallAfter: 3 };
      }
      return { text: ["Hello ", "from ", "the ", "agent."], chunkDelayMs: 20 };
    });
    cleanup.push(() => model.close());
    const chat = new PtyProcess(`${process.execPath} ${join(repoRoot, "bin/weft.js")} chat --cwd ${project}`, {
      env: { XDG_STATE_HOME: home, WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, NO_COLOR: "1", WEFT_LOG: "silent" },
    });
    cleanup.push(() => chat.kill());

    await chat.waitFor(/you › $/);
    chat.type("hi there\r");
    await chat.waitFor(/weft › Hello from the agent\.\nyou › $/);

    let mark = chat.text.length;
    chat.type("write a note\r");
    // The permission request carries the tool's own title for the call, as the finished call shows
    // it, and the diff, shown above the question (and not again once the call is done); "always"
    // says what it covers: for a file at the top of the project, the project.
    await chat.waitFor(/\+ remember\n[\s\S]*Allow Write note\.txt\?\s+\[y\] once\s+\[a\] always \(writes anywhere in the project \(`\.git\/`, `\.env\*` and weft's own files still ask\)\)\s+\[n\] no\s+\[v\] never\s+\[e\] edit first › $/, mark);
    expect(existsSync(join(project, "note.txt"))).toBe(false);
    chat.type("y\r");
    await chat.waitFor(/✓ Write note\.txt\nweft › Saved your note\.\nyou › $/, mark);
    expect(readFileSync(join(project, "note.txt"), "utf8")).toBe("remember\n");

    mark = chat.text.length;
    chat.type("tell me a long story\r");
    await chat.waitFor(/there was a very long story/, mark);
    chat.type("\u0003");
    await chat.waitFor(/\(cancelling; press Ctrl-C again to leave\)[\s\S]*\(cancelled\)\nyou › $/, mark);

    chat.type("\u0004");
    expect(await chat.exited).toBe(0);
    expect(model.requests.map(lastUser)).toContain(JSON.stringify("tell me a long story"));
  });
});

describe("weft chat with other agents and sessions", () => {
  it("talks to any ACP agent given with --agent, showing its plan and tool calls, its replies under its own name", async () => {
    const project = mkdtempSync(join(tmpdir(), "weft-chat-"));
    cleanup.push(() => rmSync(project, { recursive: true, force: true }));
    // The agent runs in the project directory, so its loader is named by full path.
    const agent = `${process.execPath} --import ${import.meta.resolve("tsx")} ${fixturesDir}graph-agent.ts`;
    const chat = new PtyProcess(`${process.execPath} ${join(repoRoot, "bin/weft.js")} chat --agent '${agent}' --cwd ${project}`, { env: { NO_COLOR: "1", XDG_STATE_HOME: project }, cwd: repoRoot });
    cleanup.push(() => chat.kill());
    await chat.waitFor(/graph-agent(?: \S+)? in .*\n[\s\S]*you › $/);
    chat.type("hello\r");
    await chat.waitFor(/plan\n\s+✓ Think\n\s+› Answer\n[\s\S]*⚙ list_dir README\.md \(search\)[\s\S]*✓ list_dir README\.md\ngraph-agent › Hello from a graph\.\nyou › $/);
    chat.type("\u0004");
    expect(await chat.exited).toBe(0);
  });

  it("lists sessions with --list and reopens one with --resume", async () => {
    const home = mkdtempSync(join(tmpdir(), "weft-home-"));
    const project = mkdtempSync(join(tmpdir(), "weft-chat-"));
    cleanup.push(() => rmSync(home, { recursive: true, force: true }), () => rmSync(project, { recursive: true, force: true }));
    const model = await FakeModelServer.start([{ text: "Noted, the sky is blue." }]);
    cleanup.push(() => model.close());
    const env = { XDG_STATE_HOME: home, WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, NO_COLOR: "1", WEFT_LOG: "silent" };
    const command = `${process.execPath} ${join(repoRoot, "bin/weft.js")} chat --cwd ${project}`;
    const first = new PtyProcess(command, { env });
    cleanup.push(() => first.kill());
    await first.waitFor(/you › $/);
    first.type("the sky is blue\r");
    await first.waitFor(/Noted, the sky is blue\.\nyou › $/);
    first.type("\u0004");
    expect(await first.exited).toBe(0);

    const listed = spawnSync(process.execPath, [join(repoRoot, "bin/weft.js"), "chat", "--cwd", project, "--list"], { env: { ...process.env, ...env }, encoding: "utf8" });
    expect(listed.status).toBe(0);
    // The id, when it was used ("just now"), and its title.
    const sessionId = /^(sess_\w+)\s+(?:just now|\d+ minutes? ago)\s+the sky is blue$/m.exec(listed.stdout)?.[1];
    expect(sessionId).toBeDefined();

    const resumed = new PtyProcess(`${command} --resume ${sessionId}`, { env });
    cleanup.push(() => resumed.kill());
    await resumed.waitFor(/you › the sky is blue\nweft › Noted, the sky is blue\.\n[\s\S]*you › $/);
    resumed.type("\u0004");
    expect(await resumed.exited).toBe(0);
  });
});
