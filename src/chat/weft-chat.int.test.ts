// `weft chat` in a real pseudo-terminal, talking to `weft acp` (its default agent), whose model is
// the fake OpenAI-compatible server.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { spawnSync } from "node:child_process";

import { fixturesDir, repoRoot } from "../../test/support/agent-process.js";
import { cleanupsAfterEach, temporaryDirectory } from "../../test/support/cleanups.js";
import { lastUserJson as lastUser } from "../../test/support/model-requests.js";
import { PtyProcess } from "../../test/support/pty.js";
import { leaveChat, ptyChat, weftBin } from "../../test/support/pty-chat.js";

const cleanup = cleanupsAfterEach();

describe("weft chat", () => {
  it("streams answers, asks permission at the keyboard, and cancels a turn on Ctrl-C", async () => {
    const { chat, model, project } = await ptyChat((request) => {
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
    }, cleanup);

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

    await leaveChat(chat);
    expect(model.requests.map(lastUser)).toContain(JSON.stringify("tell me a long story"));
  });
});

describe("weft chat with other agents and sessions", () => {
  it("talks to any ACP agent given with --agent, showing its plan and tool calls, its replies under its own name", async () => {
    const project = temporaryDirectory("weft-chat-", cleanup);
    // The agent runs in the project directory, so its loader is named by full path.
    const agent = `${process.execPath} --import ${import.meta.resolve("tsx")} ${fixturesDir}graph-agent.ts`;
    const chat = new PtyProcess(`${process.execPath} ${weftBin} chat --agent '${agent}' --cwd ${project}`, { env: { NO_COLOR: "1", XDG_STATE_HOME: project }, cwd: repoRoot });
    cleanup.push(() => chat.kill());
    await chat.waitFor(/graph-agent(?: \S+)? in .*\n[\s\S]*you › $/);
    chat.type("hello\r");
    await chat.waitFor(/plan\n\s+✓ Think\n\s+› Answer\n[\s\S]*⚙ list_dir README\.md \(search\)[\s\S]*✓ list_dir README\.md\ngraph-agent › Hello from a graph\.\nyou › $/);
    await leaveChat(chat);
  });

  it("lists sessions with --list and reopens one with --resume", async () => {
    const { chat: first, project, env, command } = await ptyChat([{ text: "Noted, the sky is blue." }], cleanup);
    await first.waitFor(/you › $/);
    first.type("the sky is blue\r");
    await first.waitFor(/Noted, the sky is blue\.\nyou › $/);
    await leaveChat(first);

    const listed = spawnSync(process.execPath, [weftBin, "chat", "--cwd", project, "--list"], { env: { ...process.env, ...env }, encoding: "utf8" });
    expect(listed.status).toBe(0);
    // The id, when it was used ("just now"), and its title.
    const sessionId = /^(sess_\w+)\s+(?:just now|\d+ minutes? ago)\s+the sky is blue$/m.exec(listed.stdout)?.[1];
    expect(sessionId).toBeDefined();

    const resumed = new PtyProcess(`${command} --resume ${sessionId}`, { env });
    cleanup.push(() => resumed.kill());
    await resumed.waitFor(/you › the sky is blue\nweft › Noted, the sky is blue\.\n[\s\S]*you › $/);
    await leaveChat(resumed);
  });
});
