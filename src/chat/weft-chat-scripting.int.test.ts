// One-shot `weft chat` as a script runs it: the built command as a child process, with `weft acp`
// as its agent and the fake OpenAI-compatible server as the model. A prompt on stdin or with -p
// runs one turn; the exit code says how it ended; --format json prints only valid ACP messages;
// --approve decides permissions; --session and --continue carry a session on.

import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { repoRoot } from "../../test/support/agent-process.js";
import { schemaProblems, WireChecker } from "../../test/support/acp-wire.js";
import { cleanupsAfterEach } from "../../test/support/cleanups.js";
import { lastUserJson as lastUser } from "../../test/support/model-requests.js";
import { oneShotChat } from "../../test/support/one-shot-chat.js";
import { PtyProcess } from "../../test/support/pty.js";
import { chatCommand } from "../../test/support/pty-chat.js";
import type { FakeScript } from "../testing/fake-model-server.js";
import { EXIT_CODES } from "./prompt-exit-codes.js";

const cleanup = cleanupsAfterEach();

/** A fresh state directory and project, and a fake model playing `script`. */
const setUp = (script: FakeScript) => oneShotChat(script, cleanup);

/** The model: `write` asks to write note.txt; a tool result gets "Done."; anything else a greeting. */
const writesNotes: FakeScript = (request) => {
  if (request.messages.at(-1)?.role === "tool") {
    return { text: "Done." };
  }
  if (lastUser(request).includes("write")) {
    return { toolCalls: [{ name: "write_file", arguments: { path: "note.txt", content: "remember\n" }, id: "w" }] };
  }
  return { text: ["Hello ", "from ", "the ", "agent."] };
};

/** Methods the client sends (the agent's side of the protocol handles them). */
const clientMethods = new Set<string>(Object.values(acp.methods.agent).flatMap((value) => (typeof value === "string" ? [value] : Object.values(value as Record<string, string>))));
const clientRequestParams: Record<string, string> = {
  initialize: "InitializeRequest",
  "session/new": "NewSessionRequest",
  "session/prompt": "PromptRequest",
  "session/resume": "ResumeSessionRequest",
  "session/load": "LoadSessionRequest",
};

/**
 * Checks a `--format json` transcript: each line one ACP message, the agent's through the
 * WireChecker and the client's requests against their schema. Which way a line went: by method for
 * requests and notifications; a response answers the other side's request.
 */
function checkTranscript(stdout: string): { messages: Array<Record<string, unknown>>; methods: string[]; problems: unknown[] } {
  const lines = stdout.split("\n").filter((line) => line !== "");
  const checker = new WireChecker();
  const problems: unknown[] = [];
  const messages = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const methods: string[] = [];
  const pendingFromAgent = new Set<string>();
  for (const [index, message] of messages.entries()) {
    const line = lines[index] as string;
    const method = message.method;
    if (typeof method === "string") {
      methods.push(method);
      if (clientMethods.has(method)) {
        checker.fromClientLine(line);
        const definition = clientRequestParams[method];
        problems.push(...(definition ? schemaProblems(definition, message.params) : []));
      } else {
        checker.fromAgentLine(line);
        if ("id" in message) {
          pendingFromAgent.add(JSON.stringify(message.id));
        }
      }
    } else if (pendingFromAgent.delete(JSON.stringify(message.id))) {
      checker.fromClientLine(line);
    } else {
      checker.fromAgentLine(line);
    }
  }
  return { messages, methods, problems: [...problems, ...checker.problems] };
}

describe("weft chat, one shot", () => {
  it("runs a prompt from stdin, all of it as one prompt, and exits 0 with the reply on stdout", async () => {
    const { model, weft } = await setUp(writesNotes);
    const run = await weft([], "say hello\nto everyone\n");
    expect(run.status).toBe(EXIT_CODES.done);
    expect(run.stdout).toContain("Hello from the agent.");
    expect(model.requests.map(lastUser)).toEqual([JSON.stringify("say hello\nto everyone\n")]);
  });

  it("runs a prompt given with -p and exits 0 with the reply on stdout", async () => {
    const { model, weft } = await setUp(writesNotes);
    const run = await weft(["-p", "say hello"]);
    expect(run.status).toBe(EXIT_CODES.done);
    expect(run.stdout).toContain("Hello from the agent.");
    expect(model.requests.map(lastUser)).toEqual([JSON.stringify("say hello")]);
  });

  it("-p with something piped in sends the prompt followed by what was piped", async () => {
    const { model, project, env } = await setUp(writesNotes);
    // A shell's pipe, as a script has it (a child process's piped stdin is a socket, and is not read with -p).
    const command = `printf 'line one\\nline two\\n' | "${process.execPath}" "${join(repoRoot, "bin/weft.js")}" chat --cwd "${project}" -p "review this"`;
    const status = await new Promise<number | null>((resolve, reject) => {
      const child = spawn("/bin/sh", ["-c", command], { env, stdio: "ignore" });
      child.on("error", reject);
      child.on("close", resolve);
    });
    expect(status).toBe(EXIT_CODES.done);
    expect(model.requests.map(lastUser)).toEqual([JSON.stringify("review this\n\nline one\nline two\n")]);
  });

  it("--format json prints each ACP message of the run as one line, and nothing else", async () => {
    const { weft } = await setUp(writesNotes);
    const run = await weft(["--prompt", "say hello", "--format", "json"]);
    expect(run.status).toBe(EXIT_CODES.done);
    expect(run.stdout.endsWith("\n")).toBe(true);
    const { messages, methods, problems } = checkTranscript(run.stdout);
    expect(problems).toEqual([]);
    expect(methods.filter((method) => clientMethods.has(method))).toEqual(["initialize", "session/new", "session/prompt"]);
    const updates = messages.filter((message) => message.method === "session/update").map((message) => (message.params as acp.SessionNotification).update);
    const text = updates.flatMap((update) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? [update.content.text] : [])).join("");
    expect(text).toBe("Hello from the agent.");
    expect(messages.at(-1)).toMatchObject({ jsonrpc: "2.0", result: { stopReason: "end_turn" } });
  });

  it("--approve none rejects an edit: the file is left alone and the exit code says a permission was denied", async () => {
    const { project, weft } = await setUp(writesNotes);
    const run = await weft(["-p", "write a note", "--approve", "none"]);
    expect(run.status).toBe(EXIT_CODES.permissionDenied);
    expect(existsSync(join(project, "note.txt"))).toBe(false);
    expect(run.stderr).toMatch(/denied Write note\.txt \(edit\) by --approve none/);
  });

  it("the default policy (reads) rejects an edit too; --approve edits lets it through", async () => {
    const { project, weft } = await setUp(writesNotes);
    const readsOnly = await weft(["-p", "write a note"]);
    expect(readsOnly.status).toBe(EXIT_CODES.permissionDenied);
    expect(existsSync(join(project, "note.txt"))).toBe(false);

    const edits = await weft(["-p", "write a note", "--approve", "edits"]);
    expect(edits.status).toBe(EXIT_CODES.done);
    expect(readFileSync(join(project, "note.txt"), "utf8")).toBe("remember\n");
    expect(edits.stdout).toContain("Done.");
  });

  it("the exit code tells a refusal and a token limit from a finished turn", async () => {
    const { weft } = await setUp([
      { text: "I will not.", finishReason: "content_filter" },
      { text: "Cut of", finishReason: "length" },
    ]);
    expect((await weft(["-p", "do something bad"])).status).toBe(EXIT_CODES.refusal);
    expect((await weft(["-p", "write a lot"])).status).toBe(EXIT_CODES.maxTokens);
  });

  it("Ctrl-C (SIGINT) cancels the turn and exits with the cancelled code", async () => {
    const { weft } = await setUp([{ text: ["Once upon a time ", "there was", " a story"], stallAfter: 2 }]);
    let interrupted = false;
    const run = await weft(["-p", "tell me a story"], "", (child, stdout) => {
      if (!interrupted && stdout.includes("Once upon a time")) {
        interrupted = true;
        child.kill("SIGINT");
      }
    });
    expect(interrupted).toBe(true);
    expect(run.status).toBe(EXIT_CODES.cancelled);
    expect(run.stderr).toContain("the turn ended: cancelled");
  });

  it("a reader that closes the output (| head) cancels the turn, with the cancelled code and no crash", async () => {
    // A long reply, so chat goes on writing after the reader has gone.
    const { weft } = await setUp([{ text: ["Once upon a time ", ...Array.from({ length: 400 }, () => "and then ")], chunkDelayMs: 20 }]);
    let closed = false;
    const run = await weft(["-p", "tell me a story", "--format", "json"], "", (child, stdout) => {
      if (!closed && stdout.includes("Once upon a time")) {
        closed = true;
        child.stdout?.destroy();
      }
    });
    expect(closed).toBe(true);
    expect(run.stderr).toContain("the output was closed; cancelling the turn");
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(run.status).toBe(EXIT_CODES.cancelled);
  });

  it("--format json with --approve none shows the permission request and the rejection chat answered it with", async () => {
    const { project, weft } = await setUp(writesNotes);
    const run = await weft(["-p", "write a note", "--approve", "none", "--format", "json"]);
    expect(run.status).toBe(EXIT_CODES.permissionDenied);
    expect(existsSync(join(project, "note.txt"))).toBe(false);
    const transcript = checkTranscript(run.stdout);
    expect(transcript.problems).toEqual([]);
    const messages = transcript.messages as Array<{ id?: unknown; method?: string; params?: acp.RequestPermissionRequest; result?: unknown }>;
    const asked = messages.find((message) => message.method === "session/request_permission");
    expect(asked?.params && schemaProblems("RequestPermissionRequest", asked.params)).toEqual([]);
    const answer = messages.find((message) => message !== asked && message.method === undefined && message.id === asked?.id && (message.result as { outcome?: unknown } | undefined)?.outcome);
    // With the policy's words, for weft's agent to tell its model (POLICY_META).
    expect(answer?.result).toEqual({ outcome: { outcome: "selected", optionId: "reject_once" }, _meta: { "weftjs/policy": expect.stringContaining("--approve none") } });
    expect(schemaProblems("RequestPermissionResponse", answer?.result)).toEqual([]);
  });

  it("an agent that exits is its own exit code, with what it said on stderr", async () => {
    const { weft } = await setUp(writesNotes);
    const run = await weft(["-p", "hello", "--agent", `${process.execPath} -e "process.stderr.write('no model here'); process.exit(9)"`]);
    expect(run.status).toBe(EXIT_CODES.agentFailed);
    expect(run.stderr).toMatch(/The agent exited with code 9\.\nno model here/);
    expect(run.stdout).toBe("");
  });

  it("--session carries a named session on (the model sees the first turn), and --continue the last one", async () => {
    const { model, weft } = await setUp([{ text: "Noted, the sky is blue." }, { text: "It is blue." }, { text: "A fresh start." }, { text: "Still blue." }]);
    expect((await weft(["-p", "the sky is blue", "--session", "sky"])).status).toBe(0);
    // weft's own agent is the same agent whatever its flags.
    const second = await weft(["-p", "what colour is the sky?", "--session", "sky", "--model-timeout", "300"]);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain("It is blue.");
    // Only this turn is printed, not the session's history.
    expect(second.stdout).not.toContain("Noted");
    const history = JSON.stringify(model.requests[1]?.messages);
    expect(history).toContain("the sky is blue");
    expect(history).toContain("Noted, the sky is blue.");

    // Another name is another session.
    expect((await weft(["-p", "hello", "--session", "other"])).status).toBe(0);
    expect(JSON.stringify(model.requests[2]?.messages)).not.toContain("the sky is blue");

    // --continue takes the last session used here: "other".
    expect((await weft(["-p", "and now?", "--continue"])).status).toBe(0);
    const continued = JSON.stringify(model.requests[3]?.messages);
    expect(continued).toContain("hello");
    expect(continued).not.toContain("the sky is blue");
  });

  it("at a terminal, without a prompt, the one-shot flags are a usage error", async () => {
    const { project, env } = await setUp(writesNotes);
    const chat = new PtyProcess(chatCommand(project, "--approve all"), { env });
    cleanup.push(() => chat.kill());
    await chat.waitFor(/--approve is for one-shot runs/);
    expect(await chat.exited).toBe(2);
  });

  it("--resume <id> with a prompt sends it in that session", async () => {
    const { model, weft } = await setUp([{ text: "Noted, the sky is blue." }, { text: "It is blue." }]);
    const first = await weft(["-p", "the sky is blue", "--format", "json"]);
    const sessionId = first.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { result?: { sessionId?: string } })
      .find((message) => message.result?.sessionId)?.result?.sessionId;
    expect(sessionId).toMatch(/^sess_/);
    const second = await weft(["--resume", sessionId as string], "what colour is the sky?");
    expect(second.status).toBe(EXIT_CODES.done);
    expect(second.stdout).toContain("It is blue.");
    expect(JSON.stringify(model.requests[1]?.messages)).toContain("Noted, the sky is blue.");
  });

  it("an empty prompt on stdin and one-shot flags without a prompt are usage errors", async () => {
    const { weft } = await setUp(writesNotes);
    const empty = await weft([], "  \n");
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain("no prompt on stdin");
    const badPolicy = await weft(["-p", "hi", "--approve", "some"]);
    expect(badPolicy.status).toBe(2);
    expect(badPolicy.stderr).toContain("--approve must be one of reads, edits, all, none");
  });
});
