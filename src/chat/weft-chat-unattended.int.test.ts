// What a script can trust of one-shot `weft chat` (`-p`): the built command as a child process,
// with `weft acp` (or a `--graph` module) as its agent and the fake OpenAI-compatible server as the
// model. `--approve` is the whole policy, standing grants or not; a failed model call or a node
// that throws exits 1; a question the agent asks exits with the waiting code; a denial is said
// once and reaches the model as the policy's; `--list` keeps one-shot runs' sessions apart.

import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { AgentProcess, fixturesDir, repoRoot } from "../../test/support/agent-process.js";
import { cleanupsAfterEach } from "../../test/support/cleanups.js";
import { lastUserJson as lastUser } from "../../test/support/model-requests.js";
import { oneShotChat } from "../../test/support/one-shot-chat.js";
import { closedPort } from "../../test/support/ports.js";
import { PtyProcess } from "../../test/support/pty.js";
import { chatCommand } from "../../test/support/pty-chat.js";
import type { ChatRequest, FakeScript } from "../testing/fake-model-server.js";
import { EXIT_CODES } from "./prompt-exit-codes.js";

const cleanup = cleanupsAfterEach();

const setUp = (script: FakeScript) => oneShotChat(script, cleanup);

const lastToolResult = (request: ChatRequest | undefined) => JSON.stringify(request?.messages.filter((message) => message.role === "tool").at(-1)?.content ?? "");

/** The model: `write` asks to write note.txt; a tool result gets "Done."; anything else a greeting. */
const writesNotes: FakeScript = (request, index) => {
  if (request.messages.at(-1)?.role === "tool") {
    return { text: "Done." };
  }
  if (lastUser(request).includes("write")) {
    return { toolCalls: [{ name: "write_file", arguments: { path: "note.txt", content: "remember\n" }, id: `write_${index}` }] };
  }
  return { text: "Hello from the agent." };
};

/** `weft acp` with the test's environment, driven by the SDK client: an editor in the same project. */
function editor(env: NodeJS.ProcessEnv): AgentProcess {
  const agent = AgentProcess.start({ command: process.execPath, args: [join(repoRoot, "bin/weft.js"), "acp"], env });
  cleanup.push(() => agent.stop());
  return agent;
}

const askingGraph = join(fixturesDir, "graphs", "asking-graph.mjs");

describe("weft chat -p: --approve is the whole policy", () => {
  it("an editor's standing 'always allow' for the write does not let it through --approve none or reads", async () => {
    const { project, env, weft } = await setUp(writesNotes);
    const note = join(project, "note.txt");
    // An editor answers "always allow": the project's ledger keeps it, and it answers the next call unasked.
    const person = editor(env);
    await person.initialize();
    const sessionId = await person.newSession(project);
    person.answerPermission = () => ({ outcome: { outcome: "selected", optionId: "allow_always" } });
    expect((await person.prompt(sessionId, "write a note")).stopReason).toBe("end_turn");
    expect(person.permissions).toHaveLength(1);
    rmSync(note);
    expect((await person.prompt(sessionId, "write a note")).stopReason).toBe("end_turn");
    expect(person.permissions).toHaveLength(1);
    expect(existsSync(note)).toBe(true);
    rmSync(note);
    await person.stop();

    for (const policy of ["none", "reads"]) {
      const run = await weft(["-p", "write a note", "--approve", policy]);
      expect(run.stderr).toContain(`denied Write note.txt (edit) by --approve ${policy}`);
      expect(existsSync(note)).toBe(false);
      expect(run.status).toBe(EXIT_CODES.permissionDenied);
    }
    // The grant is still there for the editor: the one-shot runs neither used nor removed it.
    const again = editor(env);
    await again.initialize();
    const later = await again.newSession(project);
    expect((await again.prompt(later, "write a note")).stopReason).toBe("end_turn");
    expect(again.permissions).toHaveLength(0);
    expect(readFileSync(note, "utf8")).toBe("remember\n");
  });

  it("a denial is told once on stderr, and the model hears that the run's policy refused the call, not a person", async () => {
    const { model, weft } = await setUp(writesNotes);
    const run = await weft(["-p", "write a note", "--approve", "reads"]);
    expect(run.status).toBe(EXIT_CODES.permissionDenied);
    expect(run.stderr.match(/denied/g)).toHaveLength(1);
    const told = lastToolResult(model.requests.at(-1));
    expect(told).not.toContain("The person declined");
    expect(told).toContain("--approve reads");
    expect(told).toContain("no person was asked");
  });
});

describe("weft chat -p: a failed turn exits 1", () => {
  it("a model server that answers HTTP 500 or refuses the key: exit 1, the error on stderr, not as the reply", async () => {
    const { weft } = await setUp((request) => (lastUser(request).includes("key") ? { status: 401, error: "Incorrect API key provided" } : { status: 500, error: "the server fell over" }));
    const broken = await weft(["-p", "hello"]);
    expect(broken.stderr).toContain("the server fell over");
    expect(broken.stdout).not.toContain("the server fell over");
    expect(broken.status).toBe(EXIT_CODES.agentFailed);

    const refused = await weft(["-p", "my key?"]);
    expect(refused.stderr).toContain("Incorrect API key provided");
    expect(refused.stdout).not.toContain("Incorrect API key");
    expect(refused.status).toBe(EXIT_CODES.agentFailed);
  });

  it("no model server where the base URL points (the README's local-server example, with nothing running): exit 1", async () => {
    const { weft } = await setUp(writesNotes);
    const run = await weft(["-p", "hello"], "", undefined, { WEFT_MODEL: "openai-compatible:my-model", WEFT_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` });
    expect(run.stderr).toMatch(/openai-compatible\/my-model failed/);
    expect(run.stdout).not.toMatch(/failed/);
    expect(run.status).toBe(EXIT_CODES.agentFailed);
  });

  it("a graph whose node throws: exit 1 with the error on stderr; --format json shows the prompt answered with an error", async () => {
    const { weft } = await setUp(writesNotes);
    const run = await weft(["-p", "please fail", "--graph", askingGraph]);
    expect(run.stderr).toContain("the answer node broke");
    expect(run.stdout).not.toContain("the answer node broke");
    expect(run.status).toBe(EXIT_CODES.agentFailed);

    const json = await weft(["-p", "please fail", "--graph", askingGraph, "--format", "json"]);
    expect(json.status).toBe(EXIT_CODES.agentFailed);
    const last = JSON.parse(json.stdout.trim().split("\n").at(-1) ?? "{}") as { error?: { message?: string } };
    expect(last.error?.message).toContain("the answer node broke");
  });
});

describe("weft chat -p: a question the agent asks", () => {
  /** The model: the first request asks the person (ask_user); the answer's tool result gets "You chose …". */
  const asks: FakeScript = (request) => {
    if (request.messages.at(-1)?.role === "tool") {
      return { text: `Noted: ${lastToolResult(request)}` };
    }
    return { toolCalls: [{ name: "ask_user", arguments: { question: "Which colour?", choices: ["red", "blue"] }, id: "q" }] };
  };

  it("ask_user ends the run with the waiting code and a line on stderr saying how to answer; the next run in the session answers it", async () => {
    const { model, weft } = await setUp(asks);
    const asked = await weft(["-p", "paint the shed", "--session", "shed"]);
    expect(asked.stdout).toContain("Which colour?");
    expect(asked.stderr).toContain("the agent asked a question and is waiting for the answer");
    expect(asked.stderr).toContain('answer it with the same command and --session shed -p "<answer>"');
    expect(asked.status).toBe(EXIT_CODES.waiting);

    const answered = await weft(["-p", "blue", "--session", "shed"]);
    expect(answered.status).toBe(EXIT_CODES.done);
    expect(lastToolResult(model.requests.at(-1))).toContain("The person answered: blue");
  });

  it("a graph's question with an answer schema (a form, for a client that shows forms) ends the run with the waiting code too", async () => {
    const { weft } = await setUp(writesNotes);
    const asked = await weft(["-p", "ask me", "--graph", askingGraph]);
    expect(asked.stdout).toContain("Which colour?");
    expect(asked.stderr).toMatch(/waiting for the answer; answer it with the same command and --resume sess_\w+ -p "<answer>"/);
    expect(asked.status).toBe(EXIT_CODES.waiting);

    const sessionId = /--resume (sess_\w+)/.exec(asked.stderr)?.[1] ?? "";
    const answered = await weft(["--resume", sessionId, "-p", "blue", "--graph", askingGraph]);
    expect(answered.stdout).toContain("You chose blue.");
    expect(answered.status).toBe(EXIT_CODES.done);
  });
});

describe("weft chat: sessions, as scripts and people see them", () => {
  it("--resume of a session the agent does not have says so by its id, with -p and at a terminal", async () => {
    const { project, env, weft } = await setUp(writesNotes);
    const run = await weft(["--resume", "sess_nope", "-p", "hello"]);
    expect(run.stderr).toContain(`no session sess_nope in ${project}`);
    expect(run.stderr).not.toContain("Resource not found");
    expect(run.status).toBe(EXIT_CODES.agentFailed);

    const chat = new PtyProcess(chatCommand(project, "--resume sess_nope"), { env });
    cleanup.push(() => chat.kill());
    await chat.waitFor(/no session sess_nope in /);
    expect(chat.text).not.toContain("Resource not found");
    expect(await chat.exited).toBe(1);
  });

  it("--list leaves out the sessions one-shot runs started (a line counts them, --all shows them), and says when each was used in words", async () => {
    const { project, env, weft } = await setUp(writesNotes);
    const person = editor(env);
    await person.initialize();
    const chatted = await person.newSession(project);
    expect((await person.prompt(chatted, "hello, I am a person")).stopReason).toBe("end_turn");
    await person.stop();
    const first = await weft(["-p", "hello from a script", "--format", "json"]);
    const scripted = /"sessionId":"(sess_\w+)"/.exec(first.stdout)?.[1] ?? "";
    expect(scripted).toMatch(/^sess_/);
    expect((await weft(["-p", "hello again", "--session", "nightly"])).status).toBe(0);
    // A one-shot run that carries on the person's session leaves it theirs.
    expect((await weft(["--resume", chatted, "-p", "and a script's question"])).status).toBe(0);

    const listed = await weft(["--list"]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain(chatted);
    expect(listed.stdout).not.toContain(scripted);
    expect(listed.stdout).toContain("2 more started by one-shot runs");
    expect(listed.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
    expect(listed.stdout).toMatch(/just now|minutes? ago/);

    const all = await weft(["--list", "--all"]);
    expect(all.status).toBe(0);
    expect(all.stdout).toContain(chatted);
    expect(all.stdout).toContain(scripted);
    expect(all.stdout).toMatch(/--session nightly/);
    expect(all.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
  });
});
