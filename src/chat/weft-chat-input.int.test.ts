// `weft chat`'s input in a real pseudo-terminal: lines typed while a turn streams are queued and
// sent after it, a paste is one prompt, permission answers are single keys, chat's own commands
// stay local while the agent's are sent, and forms are asked field by field.

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { fixturesDir, repoRoot } from "../../test/support/agent-process.js";
import { cleanupsAfterEach, temporaryDirectory } from "../../test/support/cleanups.js";
import { lastUserText as lastUser } from "../../test/support/model-requests.js";
import { PtyProcess } from "../../test/support/pty.js";
import { chatCommand, leaveChat, ptyChat, weftBin as weft } from "../../test/support/pty-chat.js";
import { FakeModelServer, type FakeScript } from "../testing/fake-model-server.js";

const cleanup = cleanupsAfterEach();

const temporary = (prefix: string) => temporaryDirectory(prefix, cleanup);

/** `weft chat` with weft's own agent on the fake model. */
const weftChat = (script: FakeScript, args = "", columns = 0) => ptyChat(script, cleanup, { args, columns });

describe("weft chat input", () => {
  it("shows a line typed while a turn streams below the reply, queues it, and sends it when the turn ends", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { chat, model } = await weftChat(
      (request) =>
        lastUser(request).includes("first")
          ? { text: ["The first ", "answer ", "ends here."], beforeChunk: (index) => (index === 2 ? held : undefined) }
          : { text: "The second answer." },
      "",
      100,
    );
    await chat.waitFor(/you › $/);
    chat.type("first question\r");
    await chat.waitFor(/weft › The first /);
    const mark = chat.text.length;
    // Echoed as it is typed, on a line of its own below the reply so far.
    chat.type("second");
    await chat.waitForScreen(/weft › The first[^\n]*\nnext › second$/);
    chat.type(" question\r");
    await chat.waitForScreen(/weft › The first[^\n]*\n⧗ queued: second question$/);
    release();
    await chat.waitFor(/ends here\.\n[\s\S]*you › second question\n[\s\S]*weft › The second answer\.\n[\s\S]*you › $/, mark);
    expect(model.requests.map(lastUser)).toEqual(["first question", "second question"]);
    // The queued line waited below the reply: the reply is whole, under one label, and the line is
    // shown once, as the next prompt.
    expect(chat.screen).toMatch(/\nweft › The first answer ends here\.\nyou › second question\nweft › The second answer\.\nyou ›$/);
    await leaveChat(chat);
  });

  it("sends a pasted block of three lines as one prompt, and a trailing backslash goes on to a new line", async () => {
    const { chat, model } = await weftChat(() => ({ text: "Got it." }));
    await chat.waitFor(/you › $/);
    // A bracketed paste, delivered in pieces: it stays one prompt until Enter after the paste.
    let mark = chat.text.length;
    chat.type("\u001b[200~line one\r");
    await chat.waitFor(/… $/, mark);
    mark = chat.text.length;
    chat.type("line two\r");
    await chat.waitFor(/… $/, mark);
    chat.type("line three\u001b[201~");
    chat.type("\r");
    await chat.waitFor(/Got it\.\nyou › $/);
    chat.type("first part\\\r");
    await chat.waitFor(/… $/);
    chat.type("second part\r");
    await chat.waitFor(/Got it\.\n[\s\S]*Got it\.\nyou › $/);
    mark = chat.text.length;
    chat.type("alt one\u001b\r");
    await chat.waitFor(/alt one\n… $/, mark);
    chat.type("alt two\r");
    await chat.waitFor(/Got it\.\nyou › $/, mark);
    // Lines that arrive in one read (a paste in a terminal without bracketed paste) are one prompt too.
    chat.type("alpha\rbeta\rgamma\r");
    await chat.waitFor(/Got it\.\n[\s\S]*Got it\.\n[\s\S]*Got it\.\n[\s\S]*Got it\.\nyou › $/);
    expect(model.requests.map(lastUser)).toEqual(["line one\nline two\nline three", "first part\nsecond part", "alt one\nalt two", "alpha\nbeta\ngamma"]);
    await leaveChat(chat);
  });

  it("keeps what is typed before the agent is ready and sends it once it is", async () => {
    const project = temporary("weft-chat-");
    // The agent starts only when the test opens this pipe, so the typing surely comes first.
    const gate = join(temporary("weft-gate-"), "gate");
    expect(spawnSync("mkfifo", [gate]).status).toBe(0);
    const agent = `sh -c "cat ${gate} >/dev/null; exec ${process.execPath} --import ${import.meta.resolve("tsx")} ${fixturesDir}graph-agent.ts"`;
    const chat = new PtyProcess(`${process.execPath} ${weft} chat --agent '${agent}' --cwd ${project}`, { env: { NO_COLOR: "1", XDG_STATE_HOME: temporary("weft-home-") }, cwd: repoRoot });
    cleanup.push(() => chat.kill());
    await chat.waitFor(/^$/);
    chat.type("early words\r");
    await chat.waitForScreen(/^⧗ queued: early words$/m);
    expect(chat.text).not.toContain("graph-agent in");
    writeFileSync(gate, "go\n");
    await chat.waitFor(/graph-agent(?: \S+)? in [^\n]*\n[\s\S]*you › early words\n[\s\S]*graph-agent › Hello from a graph\.\n[\s\S]*you › $/);
    await leaveChat(chat);
  });

  it("keeps the prompts typed in a project, for the arrow keys in the next run", async () => {
    const { chat, home, env, project } = await weftChat(() => ({ text: "Ready now." }));
    await chat.waitFor(/you › $/);
    chat.type("words to remember\r");
    await chat.waitFor(/Ready now\.\nyou › $/);
    await leaveChat(chat);
    expect(readdirSync(join(home, "weft", "history"))).toHaveLength(1);

    const again = new PtyProcess(chatCommand(project), { env });
    cleanup.push(() => again.kill());
    await again.waitFor(/you › $/);
    const mark = again.text.length;
    again.type("\u001b[A");
    await again.waitFor(/words to remember$/, mark);
    again.type("\u0003\u0003");
    expect(await again.exited).toBe(0);
  });

  it("keeps each prompt whole in the history, across runs: lines after a backslash or Alt+Enter are one entry, without the backslash", async () => {
    const { chat, model, home, env, project } = await weftChat(() => ({ text: "Noted." }));
    await chat.waitFor(/you › $/);
    chat.type("first part\\\r");
    await chat.waitFor(/… $/);
    chat.type("second part\r");
    await chat.waitFor(/Noted\.\n[\s\S]*you › $/);
    const mark = chat.text.length;
    chat.type("alt one\u001b\r");
    await chat.waitFor(/alt one\n… $/, mark);
    chat.type("alt two\r");
    await chat.waitFor(/Noted\.\n[\s\S]*you › $/, mark);
    await leaveChat(chat);
    const [file] = readdirSync(join(home, "weft", "history"));
    const entries = readFileSync(join(home, "weft", "history", file ?? ""), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(entries).toEqual(["first part\nsecond part", "alt one\nalt two"]);

    // The next run recalls them whole with the up arrow, and sends a recalled one as one prompt.
    const again = new PtyProcess(chatCommand(project), { env, columns: 100 });
    cleanup.push(() => again.kill());
    await again.waitFor(/you › $/);
    // Node 24's readline marks the later lines of a multi-line entry with "| ", and its up arrow
    // first walks up through the entry's lines; Ctrl-P goes back in history on every version.
    again.type("\u001b[A");
    await again.waitForScreen(/\nyou › alt one\n(\| )?alt two$/);
    again.type("\u0010");
    await again.waitForScreen(/\nyou › first part\n(\| )?second part$/);
    again.type("\r");
    await again.waitFor(/Noted\.\n[\s\S]*you › $/);
    expect(model.requests.map(lastUser)).toEqual(["first part\nsecond part", "alt one\nalt two", "first part\nsecond part"]);
    await leaveChat(again);
  });

  it("answers a permission with a single key, without Enter", async () => {
    const { chat, project } = await weftChat((request) =>
      request.messages.at(-1)?.role === "tool" ? { text: "Saved." } : { toolCalls: [{ name: "write_file", arguments: { path: "note.txt", content: "hi\n" }, id: "w" }] },
    );
    await chat.waitFor(/you › $/);
    chat.type("write a note\r");
    await chat.waitFor(/Allow Write note\.txt\?.*› $/);
    chat.type("y");
    await chat.waitFor(/› y\n[\s\S]*✓ Write note\.txt[\s\S]*weft › Saved\.\nyou › $/);
    expect(readFileSync(join(project, "note.txt"), "utf8")).toBe("hi\n");
    await leaveChat(chat);
  });

  it("takes no key for a question from a word being typed when it appears: the word stays typed and is queued", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { chat, model, project } = await weftChat(
      async (request) => {
        if (request.messages.at(-1)?.role === "tool") {
          return { text: "Saved." };
        }
        if (lastUser(request) !== "write a note") {
          return { text: `Then: ${lastUser(request)}.` };
        }
        await held;
        return { toolCalls: [{ name: "write_file", arguments: { path: "note.txt", content: "hi\n" }, id: "w" }] };
      },
      "",
      200,
    );
    await chat.waitFor(/you › $/);
    chat.type("write a note\r");
    // "an" is typed before the question shows, the rest of "and always" after it.
    chat.type("an");
    await chat.waitForScreen(/\nnext › an$/);
    release();
    await chat.waitForScreen(/\? Allow Write note\.txt\? {2}\[y\] once {2}\[a\] always[^\n]*\n.*Enter queues the line you are typing[^\n]*\nnext › an$/);
    chat.type("d always");
    await chat.waitForScreen(/\nnext › and always$/);
    // Enter queues the line; the question then takes a key, and says so with ›.
    chat.type("\r");
    await chat.waitForScreen(/\? Allow Write note\.txt\?[^\n]* ›$/);
    chat.type("y");
    await chat.waitForScreen(/Allow Write note\.txt\?[^\n]* › y\n[\s\S]*weft › Saved\.\n[\s\S]*you › and always\n[\s\S]*weft › Then: and always\.\n[\s\S]*you ›$/);
    expect(readFileSync(join(project, "note.txt"), "utf8")).toBe("hi\n");
    expect(model.requests.map(lastUser)).toEqual(["write a note", "write a note", "and always"]);
    // Answered "once", so the next write asks again: no "always" was given.
    expect(chat.screen).not.toMatch(/› a\n/);
    await leaveChat(chat);
  });

  it("gives a cancelled turn's queued lines back to the prompt, to edit or send, instead of sending them", async () => {
    const { chat, model } = await weftChat((request) => (lastUser(request) === "first" ? { text: ["Start ", "of ", "it."], beforeChunk: (index) => (index === 2 ? new Promise<void>(() => undefined) : undefined) } : { text: `Sent: ${lastUser(request)}.` }), "", 100);
    await chat.waitFor(/you › $/);
    chat.type("first\r");
    await chat.waitFor(/weft › Start /);
    chat.type("later words\r");
    await chat.waitForScreen(/\n⧗ queued: later words$/);
    chat.type("\u0003");
    await chat.waitForScreen(/weft › Start\n\(cancelling; press Ctrl-C again to leave\)\n\(cancelled\)\n(?:.*tokens.*\n)?you › later words$/);
    expect(model.requests.map(lastUser)).toEqual(["first"]);
    chat.type(" now\r");
    await chat.waitFor(/weft › Sent: later words now\.\n[\s\S]*you › $/);
    expect(model.requests.map(lastUser)).toEqual(["first", "later words now"]);
    await leaveChat(chat);
  });

  it("names the agent, its version and the session's model", async () => {
    const { chat } = await weftChat(() => ({ text: "Hi." }));
    await chat.waitFor(/^weft \d+\.\d+\.\d+\S* in \/\S+\. Ctrl-C cancels/m);
    chat.type("hello\r");
    await chat.waitFor(/you › hello\nsession sess_\w+ · model openai-compatible:fake-model\n[\s\S]*weft › Hi\.\n[\s\S]*you › $/);
    await leaveChat(chat);
  });

  it("makes no session until the first prompt", async () => {
    const { chat, env, project } = await weftChat(() => ({ text: "unused" }));
    await chat.waitFor(/you › $/);
    await leaveChat(chat);
    const listed = spawnSync(process.execPath, [weft, "chat", "--cwd", project, "--list"], { env: { ...process.env, ...env }, encoding: "utf8" });
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^No sessions in /);
  });

  it("prints the header of a resumed session before its replay", async () => {
    const { chat, env, project } = await weftChat(() => ({ text: "Noted." }));
    await chat.waitFor(/you › $/);
    chat.type("remember this\r");
    await chat.waitFor(/Noted\.\nyou › $/);
    await leaveChat(chat);
    const listed = spawnSync(process.execPath, [weft, "chat", "--cwd", project, "--list"], { env: { ...process.env, ...env }, encoding: "utf8" });
    const sessionId = /^(sess_\w+)/m.exec(listed.stdout)?.[1];
    expect(sessionId).toBeDefined();
    const resumed = new PtyProcess(chatCommand(project, `--resume ${sessionId}`), { env });
    cleanup.push(() => resumed.kill());
    await resumed.waitFor(/\(session sess_\w+\)[^\n]*\nyou › remember this\nweft › Noted\.\n[\s\S]*you › $/);
    await leaveChat(resumed);
  });
});

describe("weft chat's commands and forms", () => {
  it("completes and sends the agent's slash commands, and answers /help itself", async () => {
    const model = await FakeModelServer.start((request) => ({ text: `You said: ${lastUser(request)}` }));
    cleanup.push(() => model.close());
    const project = temporary("weft-chat-");
    const agent = `${process.execPath} --import ${import.meta.resolve("tsx")} ${fixturesDir}surface-agent.ts`;
    const chat = new PtyProcess(`${process.execPath} ${weft} chat --agent '${agent}' --cwd ${project}`, {
      env: { NO_COLOR: "1", FAKE_MODEL_URL: model.url, XDG_STATE_HOME: temporary("weft-home-") },
      cwd: repoRoot,
    });
    cleanup.push(() => chat.kill());
    await chat.waitFor(/you › $/);
    chat.type("hello\r");
    await chat.waitFor(/You said: hello\n(?:.*tokens.*\n)?you › $/);
    let mark = chat.text.length;
    chat.type("/rev\t");
    await chat.waitFor(/\/review $/, mark);
    chat.type("main.ts\r");
    await chat.waitFor(/You said: Review main\.ts and say what you would change\.\n(?:.*tokens.*\n)?you › $/, mark);
    const sent = model.requests.length;

    mark = chat.text.length;
    chat.type("/help\r");
    await chat.waitFor(/chat's commands\n[\s\S]*\/quit[\s\S]*the agent's commands[\s\S]*\/review\s+Reviews a file\.[\s\S]*you › $/, mark);
    // The agent's own /help would have answered "Commands: …"; the local one sent nothing.
    expect(chat.text.slice(mark)).not.toContain("Commands: /help");
    expect(model.requests.length).toBe(sent);

    // /model shows the session's model option and sets it; the next prompt goes to that model.
    mark = chat.text.length;
    chat.type("/model\r");
    await chat.waitFor(/● fast\s+Fast model\n\s+smart\s+Smart model\nyou › $/, mark);
    mark = chat.text.length;
    chat.type("/model smart\r");
    await chat.waitFor(/: Smart model\.\nyou › $/, mark);
    expect(model.requests.length).toBe(sent);
    chat.type("hello again\r");
    await chat.waitFor(/You said: hello again\n(?:.*tokens.*\n)?you › $/, mark);
    expect(model.requests.at(-1)?.model).toBe("smart-model");
    chat.type("/quit\r");
    expect(await chat.exited).toBe(0);
  });

  it("shows and sets the session's mode with /mode, without a prompt to the agent", async () => {
    const { chat, model } = await weftChat(() => ({ text: "unused" }));
    await chat.waitFor(/you › $/);
    let mark = chat.text.length;
    chat.type("/mode\r");
    await chat.waitFor(/● ask[\s\S]*\s{2}plan [\s\S]*you › $/, mark);
    mark = chat.text.length;
    chat.type("/mode plan\r");
    await chat.waitFor(/: Plan\.\nyou › $/, mark);
    mark = chat.text.length;
    chat.type("/mode\r");
    await chat.waitFor(/\s{2}ask [\s\S]*● plan [\s\S]*you › $/, mark);
    await leaveChat(chat);
    expect(model.requests).toHaveLength(0);
  });

  it("shows a form field's description and limits, and asks again when an answer breaks them", async () => {
    const project = temporary("weft-chat-");
    const agent = `${process.execPath} --import ${import.meta.resolve("tsx")} ${fixturesDir}graph-agent.ts`;
    const chat = new PtyProcess(`${process.execPath} ${weft} chat --agent '${agent}' --cwd ${project}`, { env: { NO_COLOR: "1", XDG_STATE_HOME: temporary("weft-home-") }, cwd: repoRoot, columns: 120 });
    cleanup.push(() => chat.kill());
    await chat.waitFor(/you › $/);
    chat.type("details please\r");
    await chat.waitForScreen(/\? About you[^\n]*\n {6}What to call you\. \(2 to 12 characters; matching \^\[A-Za-z\]\+\$\)\n {4}Name:$/);
    chat.type("A\r");
    await chat.waitForScreen(/Enter 2 to 12 characters\.\n {4}Name:$/);
    chat.type("Ada\r");
    await chat.waitForScreen(/\n {6}In whole years\. \(1 to 130\)\n {4}Age \(integer\):$/);
    chat.type("200\r");
    await chat.waitForScreen(/Enter 1 to 130\.\n {4}Age \(integer\):$/);
    chat.type("36\r");
    await chat.waitForScreen(/\n {6}\(format: email\)\n {4}Email \(optional\):$/);
    chat.type("\r");
    await chat.waitFor(/graph-agent › Hello Ada, 36\.\n[\s\S]*you › $/);
    await leaveChat(chat);
  });

  it("wraps its header and /help between words, lists each command once, and names a model once in /model", async () => {
    const { chat } = await weftChat(() => ({ text: "Hi." }), "", 60);
    await chat.waitFor(/you › $/);
    const header = chat.screen.split("\nyou ›")[0] ?? "";
    // A first prompt opens the session, and with it come the agent's commands.
    chat.type("hello\r");
    await chat.waitFor(/weft › Hi\.\n[\s\S]*you › $/);
    for (const line of header.split("\n")) {
      expect(line.length).toBeLessThanOrEqual(60);
    }
    // Joined again at its breaks, the header reads as written: no word was cut.
    expect(header.replaceAll("\n", " ")).toMatch(/^weft \S+ in \/\S+\. Ctrl-C cancels a turn; Ctrl-C twice or Ctrl-D leaves; \/help lists commands\.$/);

    let mark = chat.screenLines - 1;
    chat.type("/help\r");
    await chat.waitForScreen(/are queued\.\nyou ›$/, mark);
    const help = chat.screenFrom(mark);
    expect(help.replace(/\n\s*/g, " ")).toContain("End a line with \\ (or press Alt+Enter) to go on to a new line; lines typed while the agent works are queued.");
    // weft's agent offers /help, /mode and /model too: chat answers them, and lists them once.
    expect(help.match(/\/help /g)).toHaveLength(1);
    expect(help.match(/\/model /g)).toHaveLength(1);
    expect(help).toMatch(/\/compact/);

    mark = chat.screenLines - 1;
    chat.type("/model\r");
    await chat.waitForScreen(/● openai-compatible:fake-model[^\n]*\nyou ›$/, mark);
    expect(chat.screenFrom(mark).match(/fake-model/g)).toHaveLength(1);
    await leaveChat(chat);
  });

  it("says what /compact did, and a replay shows it and the next prompt on lines of their own", async () => {
    const { chat, env, project } = await weftChat(
      (request) =>
        typeof request.messages[0]?.content === "string" && request.messages[0].content.startsWith("You condense")
          ? { text: "The person said hello." }
          : { text: lastUser(request).includes("please go on") ? "Going on." : "Hi." },
      "",
      100,
    );
    await chat.waitFor(/you › $/);
    chat.type("hello\r");
    await chat.waitFor(/weft › Hi\.\n[\s\S]*you › $/);
    const mark = chat.screenLines - 1;
    chat.type("/compact\r");
    await chat.waitForScreen(/you › \/compact\n {2}⋯ summarising the conversation…\n {2}✓ conversation summarised[^\n]*\n(?:.*tokens.*\n)?you ›$/, mark);
    chat.type("please go on\r");
    await chat.waitFor(/weft › Going on\.\n[\s\S]*you › $/);
    await leaveChat(chat);
    const sessionId = /--resume (sess_\w+)/.exec(chat.text)?.[1];
    expect(sessionId).toBeDefined();
    const resumed = new PtyProcess(chatCommand(project, `--resume ${sessionId}`), { env, columns: 100 });
    cleanup.push(() => resumed.kill());
    await resumed.waitForScreen(/\nyou › \/compact\nyou › please go on\nweft › Going on\.\n[\s\S]*you ›$/);
    await leaveChat(resumed);
  });

  it("shows ask_user's choices once, as the form's pick list", async () => {
    const { chat, model } = await weftChat((request) =>
      request.messages.at(-1)?.role === "tool"
        ? { text: "Thanks." }
        : { toolCalls: [{ name: "ask_user", arguments: { question: "Which parser?", choices: ["peg", "lalr"] }, id: "q" }] },
    "", 120);
    await chat.waitFor(/you › $/);
    const mark = chat.screenLines - 1;
    chat.type("pick one\r");
    await chat.waitForScreen(/\? Which parser\?[^\n]*\n {4}Answer \(1\) peg {2}2\) lalr\):$/, mark);
    expect(chat.screenFrom(mark).match(/lalr/g)).toHaveLength(1);
    chat.type("2\r");
    await chat.waitFor(/weft › Thanks\.\n[\s\S]*you › $/);
    expect(JSON.stringify(model.requests.at(-1)?.messages)).toContain("The person answered: lalr");
    await leaveChat(chat);
  });

  it("asks a form from the agent field by field", async () => {
    const project = temporary("weft-chat-");
    const agent = `${process.execPath} --import ${import.meta.resolve("tsx")} ${fixturesDir}graph-agent.ts`;
    const chat = new PtyProcess(`${process.execPath} ${weft} chat --agent '${agent}' --cwd ${project}`, {
      env: { NO_COLOR: "1", XDG_STATE_HOME: temporary("weft-home-") },
      cwd: repoRoot,
    });
    cleanup.push(() => chat.kill());
    await chat.waitFor(/you › $/);
    chat.type("form please\r");
    await chat.waitFor(/\? Which colour\?[^\n]*\n\s+colour \(1\) red {2}2\) green\): $/);
    chat.type("\r");
    await chat.waitFor(/This field is required\.\n\s+colour \(1\) red {2}2\) green\): $/);
    chat.type("blue\r");
    await chat.waitFor(/Choose one of red, green\.\n\s+colour \(1\) red {2}2\) green\): $/);
    chat.type("2\r");
    await chat.waitFor(/graph-agent › You chose green\.\nyou › $/);
    const mark = chat.text.length;
    chat.type("form again\r");
    await chat.waitFor(/colour \(1\) red {2}2\) green\): $/, mark);
    chat.type("/decline\r");
    await chat.waitFor(/No colour \(decline\)\.\nyou › $/, mark);
    // The answers are not prompts: the up arrow recalls the last prompt, not "/decline".
    const recalled = chat.text.length;
    chat.type("\u001b[A");
    await chat.waitFor(/form again$/, recalled);
    chat.type("\u0015");
    await leaveChat(chat);
    expect(existsSync(project)).toBe(true);
  });
});
