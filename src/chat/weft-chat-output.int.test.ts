// What `weft chat` shows on a colour terminal (a real pseudo-terminal, without NO_COLOR), talking
// to `weft acp` with the fake model: rendered markdown, a command's output as it runs and in a
// replay, a coloured diff before the permission answer, and the usage line after a turn.

import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { cleanupsAfterEach } from "../../test/support/cleanups.js";
import { lastUserJson as lastUser } from "../../test/support/model-requests.js";
import { PtyProcess } from "../../test/support/pty.js";
import { leaveChat, ptyChat } from "../../test/support/pty-chat.js";
import type { FakeScript } from "../testing/fake-model-server.js";

const cleanup = cleanupsAfterEach();

const escape = "\u001b";

/** The command waits for a file the test writes, so the test can look at the screen while the turn still runs. */
const waitingCommand = "echo started-output; while [ ! -f go ]; do sleep 0.1; done; echo finished-output";

describe("weft chat on a colour terminal", () => {
  it("renders markdown, shows a command's output while it runs and in a replay, a diff before approval, and usage", async () => {
    const script: FakeScript = (request) => {
      const text = lastUser(request);
      if (request.messages.at(-1)?.role === "tool") {
        return { text: text.includes("note") ? "Saved." : "The command finished." };
      }
      if (text.includes("markdown")) {
        return { text: ["# Big ", "Heading\n\nSome **bold", "** words.\n\n```js\nconst ", "answer = 42;\n```\n\n- first\n- sec", "ond"], chunkDelayMs: 5 };
      }
      if (text.includes("run")) {
        return { toolCalls: [{ name: "run_command", arguments: { command: waitingCommand }, id: "r" }] };
      }
      return { toolCalls: [{ name: "write_file", arguments: { path: "note.txt", content: "remember\n" }, id: "w" }] };
    };
    const { chat, model, project, env, command } = await ptyChat(script, cleanup, { env: { WEFT_CONTEXT_WINDOW: "100000", NO_COLOR: undefined } });
    await chat.waitFor(/you › $/);

    // Markdown: the heading and emphasis lose their marks and are styled, the code block is
    // highlighted and indented, the list gets bullets; then the usage line.
    let mark = chat.output.length;
    chat.type("show me markdown\r");
    await chat.waitFor(/\d+ \/ 100k tokens \(\d+%\)\nyou › $/, chat.text.length);
    const markdown = chat.output.slice(mark);
    expect(markdown).not.toMatch(/# Big|\*\*bold|```/);
    expect(markdown).toMatch(new RegExp(`${escape}\\[1mBig Heading${escape}\\[22m`));
    expect(markdown).toMatch(new RegExp(`${escape}\\[1mbold${escape}\\[22m words\\.`));
    expect(markdown).toMatch(new RegExp(` {2}${escape}\\[\\d+mconst${escape}\\[39m answer = ${escape}\\[\\d+m42${escape}\\[39m;`));
    expect(markdown).toMatch(/\* \S*first[\s\S]*\* \S*second/);
    // Each block once, though it arrived in pieces.
    expect(markdown.match(/Big Heading/g)).toHaveLength(1);
    expect(markdown.match(/answer = /g)).toHaveLength(1);

    // An edit: its diff, in colour, is on screen before the answer, and the file is not written.
    mark = chat.text.length;
    const rawMark = chat.output.length;
    chat.type("write a note\r");
    await chat.waitFor(/\+ remember\n[\s\S]*Allow Write note\.txt\?.* › $/, mark);
    expect(chat.output.slice(rawMark)).toContain(`${escape}[32m+ remember${escape}[39m`);
    expect(existsSync(join(project, "note.txt"))).toBe(false);
    chat.type("y\r");
    await chat.waitFor(/Saved\.\n.*tokens.*\nyou › $/, mark);

    // A command: its output is on screen while it still runs, before the turn ends.
    mark = chat.text.length;
    chat.type("run it\r");
    await chat.waitFor(/Allow Run .* › $/, mark);
    chat.type("y\r");
    await chat.waitFor(/│ started-output\n/, mark);
    const requestsWhileRunning = model.requests.length;
    expect(chat.text.slice(mark)).not.toMatch(/│ finished-output|The command finished/);
    writeFileSync(join(project, "go"), "");
    await chat.waitFor(/│ started-output\n\s+│ finished-output\n\s+└ exit 0\n\s+✓ Run .*\nweft › The command finished\.\n.*tokens.*\nyou › $/, mark);
    expect(model.requests.length).toBeGreaterThan(requestsWhileRunning);
    expect(chat.text.slice(mark)).not.toContain("[terminal");
    expect(chat.text.slice(mark).match(/│ started-output/g)).toHaveLength(1);
    await leaveChat(chat);
    const sessionId = /weft chat --resume (sess_\w+)/.exec(chat.text)?.[1];
    expect(sessionId).toBeDefined();

    // The replay shows the command's output from the agent's record.
    const resumed = new PtyProcess(`${command} --resume ${sessionId}`, { env });
    cleanup.push(() => resumed.kill());
    await resumed.waitFor(/you › run it\n[\s\S]*│ started-output\n\s+│ finished-output\n[\s\S]*✓ Run [\s\S]*you › $/);
    expect(resumed.text).not.toContain("[terminal");
    await leaveChat(resumed);
  });
});
