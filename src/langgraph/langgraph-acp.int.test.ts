// A real LangGraph.js graph served through fromLangGraph() over a child's stdio, driven with the
// official SDK client, its model ChatOpenAI against the fake chat-completions server: text streams
// in chunks, tool calls go pending → in_progress → completed, a rejected write leaves no file, a
// permission request shows the call, static breakpoints ask before the calls they stop, a typed
// interrupt is answered through a form or in words read into its (Zod) schema, cancelling one
// session leaves another's turn to finish, and a loaded session replays its tool calls. Every line
// is checked against the SDK.

import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { beforeEach, describe, expect, it } from "vitest";

import type { AgentProcess } from "../../test/support/agent-process.js";
import { startedAgents } from "../../test/support/started-agents.js";
import type { ChatRequest, FakeModelServer, FakeScript } from "../testing/fake-model-server.js";

let project: string;

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), "weft-langgraph-"));
});

const started = startedAgents(() => rm(project, { recursive: true, force: true }));

interface StartOptions {
  graph?: string | undefined;
  capabilities?: acp.ClientCapabilities | undefined;
  store?: string | undefined;
  model?: FakeModelServer | undefined;
}

async function start(script: FakeScript, options: StartOptions = {}): Promise<{ agent: AgentProcess; model: FakeModelServer }> {
  const model = options.model ?? (await started.fakeModel(script));
  const agent = await started.connect({ fixture: "langgraph-agent.ts", env: { FAKE_MODEL_URL: model.url, LANGGRAPH_GRAPH: options.graph, WEFT_TEST_STORE: options.store } }, options.capabilities ?? {});
  return { agent, model };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const forms: acp.ClientCapabilities = { elicitation: { form: {} } };
const lastUserText = (request: ChatRequest) => {
  const content = request.messages.filter((message) => message.role === "user").at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
};
const toolResult = (request: ChatRequest | undefined) => request?.messages.find((message) => message.role === "tool")?.content;
const statusesOf = (agent: AgentProcess, sessionId: string) => toolUpdates(agent, sessionId).flatMap((update) => (update.status ? [update.status] : []));
const writeCall: FakeScript = [{ text: "Writing it.", toolCalls: [{ id: "call_write", name: "write_file", arguments: { path: "out.txt", content: "hello" } }] }, { text: "Done." }];

const textChunks = (agent: AgentProcess, sessionId: string) => agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "agent_message_chunk");
const toolUpdates = (agent: AgentProcess, sessionId: string) =>
  agent.updatesOf(sessionId).filter((update): update is Extract<acp.SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }> => update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update");

/** Allows the one write of `writeCall`, asked before anything was written: it runs, ends completed, and the turn goes on. */
async function allowTheWrite(options: StartOptions = {}): Promise<{ agent: AgentProcess; model: FakeModelServer; sessionId: string }> {
  const { agent, model } = await start(writeCall, options);
  const sessionId = await agent.newSession(project);
  agent.answerPermission = () => {
    expect(existsSync(join(project, "out.txt"))).toBe(false);
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  };
  expect((await agent.prompt(sessionId, "write hello to out.txt")).stopReason).toBe("end_turn");
  expect(agent.permissions).toHaveLength(1);
  expect(await readFile(join(project, "out.txt"), "utf8")).toBe("hello");
  expect(statusesOf(agent, sessionId).at(-1)).toBe("completed");
  expect(agent.textOf(sessionId)).toBe("Writing it.Done.");
  return { agent, model, sessionId };
}

/** Rejects the one write of `writeCall`: it never runs, ends failed, and the model is told. */
async function rejectTheWrite(options: StartOptions = {}): Promise<{ agent: AgentProcess; sessionId: string }> {
  const { agent, model } = await start(writeCall, options);
  agent.answerPermission = () => ({ outcome: { outcome: "selected", optionId: "reject_once" } });
  const sessionId = await agent.newSession(project);
  expect((await agent.prompt(sessionId, "write hello to out.txt")).stopReason).toBe("end_turn");
  expect(existsSync(join(project, "out.txt"))).toBe(false);
  expect(statusesOf(agent, sessionId)).not.toContain("in_progress");
  expect(statusesOf(agent, sessionId).at(-1)).toBe("failed");
  expect(String(toolResult(model.requests[1]))).toContain("rejected");
  return { agent, sessionId };
}

/**
 * Two writes in one model turn, asked about one by one: the first allowed, the second rejected.
 * Neither runs and both end failed; resolves with the model, for what it was told.
 */
async function allowOneRejectTheOther(options: StartOptions = {}): Promise<FakeModelServer> {
  const { agent, model } = await start(
    [
      {
        toolCalls: [
          { id: "call_a", name: "write_file", arguments: { path: "a.txt", content: "a" } },
          { id: "call_b", name: "write_file", arguments: { path: "b.txt", content: "b" } },
        ],
      },
      { text: "As you wish." },
    ],
    options,
  );
  agent.answerPermission = (request) => ({ outcome: { outcome: "selected", optionId: request.toolCall.toolCallId === "call_a" ? "allow_once" : "reject_once" } });
  const sessionId = await agent.newSession(project);
  expect((await agent.prompt(sessionId, "write a and b")).stopReason).toBe("end_turn");
  expect(agent.permissions.map((request) => request.toolCall.toolCallId)).toEqual(["call_a", "call_b"]);
  expect(existsSync(join(project, "a.txt"))).toBe(false);
  expect(existsSync(join(project, "b.txt"))).toBe(false);
  const ends = toolUpdates(agent, sessionId).filter((update) => update.status === "failed" || update.status === "completed");
  expect(ends.map((update) => [update.toolCallId, update.status]).sort()).toEqual([
    ["call_a", "failed"],
    ["call_b", "failed"],
  ]);
  return model;
}

/**
 * A write the person is asked about; the turn is cancelled while it asks, and the next prompt goes
 * on: the call never ran, and the model sees a result for it and that the turn was cancelled,
 * before the new prompt. Resolves with the reply to the next prompt.
 */
async function cancelWhileAskedThenGoOn(options: StartOptions = {}): Promise<string> {
  const { agent, model } = await start((request) => (lastUserText(request).includes("instead") ? { text: "Fine." } : { toolCalls: [{ id: "call_write", name: "write_file", arguments: { path: "out.txt", content: "hello" } }] }), options);
  const sessionId = await agent.newSession(project);
  const asked = deferred();
  agent.answerPermission = async () => {
    asked.resolve();
    await new Promise(() => undefined);
    return { outcome: { outcome: "cancelled" } };
  };
  const first = agent.prompt(sessionId, "write hello to out.txt");
  await asked.promise;
  await agent.cancel(sessionId);
  expect((await first).stopReason).toBe("cancelled");
  const mark = agent.updatesOf(sessionId).length;
  expect((await agent.prompt(sessionId, "do nothing instead")).stopReason).toBe("end_turn");
  expect(existsSync(join(project, "out.txt"))).toBe(false);
  const last = model.requests.at(-1);
  expect(last?.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
  expect(last?.messages[3]?.content).toContain("[This turn was cancelled.]");
  expect(String(toolResult(last))).toContain("did not run");
  return agent.textOf(sessionId, mark);
}

describe("a createAgent() agent served through fromLangGraph()", () => {
  it("streams the reply in several chunks before the model has finished", async () => {
    const release = deferred();
    const { agent } = await start([{ text: ["Once ", "upon ", "a ", "time."], beforeChunk: (index) => (index === 4 ? release.promise : undefined) }]);
    const sessionId = await agent.newSession(project);
    const prompt = agent.prompt(sessionId, "tell me a story");
    // The model's last chunk is held back: three chunks reach the editor before it is sent.
    await agent.waitFor(() => textChunks(agent, sessionId).length >= 3, "three text chunks");
    expect(agent.textOf(sessionId)).toBe("Once upon a ");
    release.resolve();
    expect((await prompt).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("Once upon a time.");
    const ids = new Set(textChunks(agent, sessionId).map((update) => (update as { messageId?: string }).messageId));
    expect(ids.size).toBe(1);
  });

  it("shows the model's reasoning as thoughts", async () => {
    const { agent } = await start([{ reasoning: ["Think ", "first."], text: "Answer." }]);
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "why?")).stopReason).toBe("end_turn");
    const thoughts = agent.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "agent_thought_chunk" && update.content.type === "text" ? [update.content.text] : []));
    expect(thoughts.join("")).toBe("Think first.");
    expect(agent.textOf(sessionId)).toBe("Answer.");
  });

  it("shows a tool call pending, then in progress, then completed, with the tool reading the session's directory", async () => {
    await writeFile(join(project, "notes.txt"), "the secret is 42");
    const { agent, model } = await start([{ toolCalls: [{ id: "call_read", name: "read_file", arguments: { path: "notes.txt" } }] }, { text: "It says 42." }]);
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "what do my notes say?")).stopReason).toBe("end_turn");
    const statuses = toolUpdates(agent, sessionId).map((update) => [update.sessionUpdate, update.status]);
    expect(statuses).toEqual([
      ["tool_call", "pending"],
      ["tool_call_update", "in_progress"],
      ["tool_call_update", "completed"],
    ]);
    expect(toolUpdates(agent, sessionId).at(-1)?.rawOutput).toBe("the secret is 42");
    expect(model.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe("the secret is 42");
    expect(agent.textOf(sessionId)).toBe("It says 42.");
  });

  it("shares a plan a tool writes to the custom stream", async () => {
    const { agent } = await start([{ toolCalls: [{ id: "call_plan", name: "plan", arguments: { steps: ["Read", "Write"] } }] }, { text: "Planned." }]);
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "make a plan")).stopReason).toBe("end_turn");
    const plans = agent.updatesOf(sessionId).filter((update) => update.sessionUpdate === "plan");
    expect(plans).toEqual([
      {
        sessionUpdate: "plan",
        entries: [
          { content: "Read", priority: "medium", status: "in_progress" },
          { content: "Write", priority: "medium", status: "pending" },
        ],
      },
    ]);
  });
});

describe("tool approvals from humanInTheLoopMiddleware", () => {
  it("asks before the write, and an allowed write runs: pending, then in progress, then completed", async () => {
    const { agent, sessionId } = await allowTheWrite();
    expect(agent.permissions[0]?.toolCall.toolCallId).toBe("call_write");
    const statuses = statusesOf(agent, sessionId);
    expect(statuses[0]).toBe("pending");
    expect(statuses.indexOf("in_progress")).toBeGreaterThan(0);
  });

  it("the permission request shows the call: a title with the tool and its arguments, the arguments as content, the raw input", async () => {
    const { agent } = await start([{ toolCalls: [{ id: "call_write", name: "write_file", arguments: { path: "notes/today.md", content: "# Plan\nship it" } }] }, { text: "Done." }]);
    const sessionId = await agent.newSession(project);
    agent.answerPermission = () => ({ outcome: { outcome: "selected", optionId: "reject_once" } });
    expect((await agent.prompt(sessionId, "write my plan")).stopReason).toBe("end_turn");
    const toolCall = agent.permissions[0]?.toolCall;
    expect(toolCall?.title).toBe('write_file(path: "notes/today.md", content: "# Plan\\nship it")');
    expect(toolCall?.rawInput).toEqual({ path: "notes/today.md", content: "# Plan\nship it" });
    const shown = (toolCall?.content ?? []).map((item) => (item.type === "content" && item.content.type === "text" ? item.content.text : "")).join("\n");
    // The arguments in full, not the middleware's boilerplate around them.
    expect(shown).toContain('"content": "# Plan\\nship it"');
    expect(shown).toContain('"path": "notes/today.md"');
    expect(shown).not.toContain("Tool execution requires approval");
  });

  it("a rejected write never runs: no file, the call fails, and the model is told", async () => {
    const { agent } = await rejectTheWrite();
    expect(agent.permissions).toHaveLength(1);
  });

  it("two gated calls of one model turn are asked about one by one; rejecting one runs neither (LangChain's middleware drops the other), and both end", async () => {
    const model = await allowOneRejectTheOther();
    expect(model.requests).toHaveLength(2);
  });

  it("edit first: the form's input is what the tool runs with", async () => {
    const { agent } = await start(writeCall, { capabilities: forms });
    agent.answerPermission = (request) => {
      expect(request.options.map((option) => option.optionId)).toContain("edit_first");
      return { outcome: { outcome: "selected", optionId: "edit_first" } };
    };
    agent.answerForm = () => ({ action: "accept", content: { path: "out.txt", content: "edited" } });
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "write hello to out.txt")).stopReason).toBe("end_turn");
    expect(agent.forms).toHaveLength(1);
    expect(await readFile(join(project, "out.txt"), "utf8")).toBe("edited");
  });
});

describe("static breakpoints (interruptBefore, interruptAfter)", () => {
  it("createReactAgent({ interruptBefore: ['tools'] }): the call it stops is a permission request showing the call; allowed, it runs and the turn goes on", async () => {
    const { agent, model } = await allowTheWrite({ graph: "breakpoint" });
    expect(agent.permissions[0]?.toolCall).toMatchObject({ toolCallId: "call_write", title: 'write_file(path: "out.txt", content: "hello")', rawInput: { path: "out.txt", content: "hello" } });
    expect(String(toolResult(model.requests[1]))).toBe("wrote out.txt");
  });

  it("rejected, the call never runs, it ends failed, and the model is told and answers", async () => {
    const { agent, sessionId } = await rejectTheWrite({ graph: "breakpoint" });
    expect(agent.textOf(sessionId)).toBe("Writing it.Done.");
  });

  it("two calls held by one stop are asked about one by one; one rejected, neither runs and both end", async () => {
    const model = await allowOneRejectTheOther({ graph: "breakpoint" });
    const results = model.requests[1]?.messages.filter((message) => message.role === "tool").map((message) => String(message.content));
    expect(results).toEqual(["This call did not run: the person rejected another call of the same turn.", "The person rejected this call."]);
  });

  it("a turn cancelled while a breakpoint asks leaves the call unrun, and the next prompt goes on from there", async () => {
    expect(await cancelWhileAskedThenGoOn({ graph: "breakpoint" })).toBe("Fine.");
  });

  it("a stop before a step that runs no tools is a question: in words, yes goes on; stop ends the turn there", async () => {
    const { agent } = await start([], { graph: "pause" });
    const going = await agent.newSession(project);
    expect((await agent.prompt(going, "draft it")).stopReason).toBe("end_turn");
    expect(agent.textOf(going)).toBe('Draft ready.The graph paused before its step "review" (a breakpoint). Go on?');
    let mark = agent.updatesOf(going).length;
    expect((await agent.prompt(going, "yes")).stopReason).toBe("end_turn");
    expect(agent.textOf(going, mark)).toBe("Reviewed.");

    const stopping = await agent.newSession(project);
    await agent.prompt(stopping, "draft it");
    mark = agent.updatesOf(stopping).length;
    expect((await agent.prompt(stopping, "maybe")).stopReason).toBe("end_turn");
    expect(agent.textOf(stopping, mark)).toContain('answer "continue" (or yes) to go on, or "stop"');
    mark = agent.updatesOf(stopping).length;
    expect((await agent.prompt(stopping, "stop")).stopReason).toBe("end_turn");
    expect(agent.textOf(stopping, mark)).toBe('Stopped before the graph\'s step "review", as you answered.');
  });

  it("with forms, the question is a form and continue goes on within the turn", async () => {
    const { agent } = await start([], { graph: "pause", capabilities: forms });
    agent.answerForm = () => ({ action: "accept", content: { answer: "continue" } });
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "draft it")).stopReason).toBe("end_turn");
    expect(agent.forms).toHaveLength(1);
    expect(agent.forms[0]).toMatchObject({ message: 'The graph paused before its step "review" (a breakpoint). Go on?' });
    expect(agent.textOf(sessionId)).toBe("Draft ready.Reviewed.");
  });
});

describe("a typed interrupt(value, { responseSchema })", () => {
  it("is asked as a form, and the accepted content is the value the graph resumes with", async () => {
    const { agent } = await start([], { graph: "typed", capabilities: forms });
    agent.answerForm = () => ({ action: "accept", content: { colour: "green" } });
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "pick a colour")).stopReason).toBe("end_turn");
    expect(agent.forms).toHaveLength(1);
    expect(agent.forms[0]).toMatchObject({ sessionId, mode: "form", message: "Which colour?" });
    expect((agent.forms[0] as { requestedSchema?: { properties?: Record<string, unknown> } } | undefined)?.requestedSchema?.properties?.colour).toMatchObject({ type: "string", enum: ["red", "green", "blue"] });
    expect(agent.textOf(sessionId)).toBe("You chose green.");
  });

  it("a declined form resumes the graph with null", async () => {
    const { agent } = await start([], { graph: "typed", capabilities: forms });
    agent.answerForm = () => ({ action: "decline" });
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "pick a colour")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toBe("No colour, then.");
  });

  it("without forms it is asked in words, and the next prompt's text, parsed into the schema, answers it", async () => {
    const { agent } = await start([], { graph: "typed" });
    const sessionId = await agent.newSession(project);
    expect((await agent.prompt(sessionId, "pick a colour")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId)).toContain("Which colour?");
    const mark = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "blue")).stopReason).toBe("end_turn");
    // A one-field schema: the text is that field's value.
    expect(agent.textOf(sessionId, mark)).toBe("You chose blue.");
  });
});

describe("a typed interrupt with a Zod schema, in an editor without forms", () => {
  /** The zod graph's agent, with a session open. */
  async function zodSession(): Promise<{ agent: AgentProcess; sessionId: string }> {
    const { agent } = await start([], { graph: "zod" });
    return { agent, sessionId: await agent.newSession(project) };
  }

  /** Asks the prompt, and answers what the agent said in that turn. */
  async function turn(agent: AgentProcess, sessionId: string, prompt: string): Promise<string> {
    const mark = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, prompt)).stopReason).toBe("end_turn");
    return agent.textOf(sessionId, mark);
  }

  it("takes a one-field answer as that field's value, a choice in any case", async () => {
    const { agent, sessionId } = await zodSession();
    expect(await turn(agent, sessionId, "pick a colour")).toBe("Which colour?");
    expect(await turn(agent, sessionId, "Blue")).toBe("You chose blue.");
  });

  it("a wrong answer is told why in plain words, not Zod's JSON, and the same question is asked again", async () => {
    const { agent, sessionId } = await zodSession();
    await turn(agent, sessionId, "pick a colour");
    const again = await turn(agent, sessionId, "purple");
    expect(again).toContain("colour must be one of: red, green, blue");
    expect(again).not.toMatch(/ZodError|invalid_value|"code"|\[\s*\{/);
    expect(again.endsWith("Which colour?")).toBe(true);
    expect(await turn(agent, sessionId, "green")).toBe("You chose green.");
  });

  it("takes several fields as `field: value` lines or as JSON", async () => {
    const { agent } = await start([], { graph: "zod" });
    const lines = await agent.newSession(project);
    expect(await turn(agent, lines, "plan a trip")).toBe("Where to, and for how long?");
    expect(await turn(agent, lines, "city: Paris\nnights: 3")).toBe("3 nights in Paris.");
    const json = await agent.newSession(project);
    await turn(agent, json, "plan a trip");
    expect(await turn(agent, json, '{"city": "Oslo", "nights": 2}')).toBe("2 nights in Oslo.");
  });

  it("an answer only the Zod schema refuses (a refinement) is told why too, and asked again", async () => {
    const { agent, sessionId } = await zodSession();
    await turn(agent, sessionId, "plan a trip");
    const vague = await turn(agent, sessionId, "somewhere warm");
    expect(vague).toContain("city");
    expect(vague).toContain("nights");
    expect(vague.endsWith("Where to, and for how long?")).toBe(true);
    const refused = await turn(agent, sessionId, "city: Atlantis\nnights: 40");
    expect(refused).toContain("nights must be at most 30");
    const refined = await turn(agent, sessionId, "city: Atlantis\nnights: 4");
    expect(refined).toContain("There is no Atlantis to go to");
    expect(refined).not.toMatch(/ZodError|"code"/);
    expect(refined.endsWith("Where to, and for how long?")).toBe(true);
    expect(await turn(agent, sessionId, "city: Lisbon\nnights: 4")).toBe("4 nights in Lisbon.");
  });

  it("in a form, an answer the Zod schema refuses is told why and the form asked again", async () => {
    const { agent } = await start([], { graph: "zod", capabilities: forms });
    const answers = [{ city: "Atlantis", nights: 2 }, { city: "Rome", nights: 2 }];
    agent.answerForm = () => ({ action: "accept", content: answers[agent.forms.length - 1] ?? {} });
    const sessionId = await agent.newSession(project);
    const said = await turn(agent, sessionId, "plan a trip");
    expect(agent.forms).toHaveLength(2);
    expect(said).toContain("There is no Atlantis to go to");
    expect(said.endsWith("2 nights in Rome.")).toBe(true);
  });
});

describe("sessions", () => {
  it("cancelling one session's turn leaves another session's turn to finish", async () => {
    const holdA = deferred();
    const holdB = deferred();
    const { agent, model } = await start((request) =>
      lastUserText(request).includes("again")
        ? { text: "Back again." }
        : lastUserText(request).includes("first")
          ? { text: ["A one ", "A two"], beforeChunk: (index) => (index === 2 ? holdA.promise : undefined) }
          : { text: ["B one ", "B two"], beforeChunk: (index) => (index === 2 ? holdB.promise : undefined) },
    );
    const a = await agent.newSession(project);
    const b = await agent.newSession(project);
    const promptA = agent.prompt(a, "first");
    await agent.waitFor(() => textChunks(agent, a).length >= 1, "A's first chunk");
    const promptB = agent.prompt(b, "second");
    await agent.waitFor(() => textChunks(agent, b).length >= 1, "B's first chunk");
    await agent.cancel(a);
    expect((await promptA).stopReason).toBe("cancelled");
    holdB.resolve();
    expect((await promptB).stopReason).toBe("end_turn");
    expect(agent.textOf(b)).toBe("B one B two");
    expect(agent.textOf(a)).toBe("A one ");
    holdA.resolve();
    // The cancelled session takes its next prompt as usual, its conversation intact.
    const mark = agent.updatesOf(a).length;
    expect((await agent.prompt(a, "again")).stopReason).toBe("end_turn");
    expect(agent.textOf(a, mark)).toBe("Back again.");
    expect(model.requests.at(-1)?.messages.filter((message) => message.role === "user").map((message) => message.content)).toEqual(["first", "again"]);
  });

  it("a turn cancelled while it asks for approval leaves the call unrun, and the next prompt goes on", async () => {
    await cancelWhileAskedThenGoOn();
  });

  it("session/load of a finished session replays its messages and tool calls", async () => {
    await writeFile(join(project, "notes.txt"), "the secret is 42");
    const store = join(project, "sessions.db");
    const model = await started.fakeModel([{ text: "Reading.", toolCalls: [{ id: "call_read", name: "read_file", arguments: { path: "notes.txt" } }] }, { text: "It says 42." }]);
    const first = (await start([], { model, store })).agent;
    const sessionId = await first.newSession(project);
    expect((await first.prompt(sessionId, "what do my notes say?")).stopReason).toBe("end_turn");
    await first.stop();

    const second = (await start([], { model, store })).agent;
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const replayed = second.updatesOf(sessionId);
    expect(replayed.filter((update) => update.sessionUpdate === "user_message_chunk").map((update) => (update.content.type === "text" ? update.content.text : ""))).toEqual(["what do my notes say?"]);
    expect(second.textOf(sessionId)).toBe("Reading.It says 42.");
    const calls = replayed.filter((update) => update.sessionUpdate === "tool_call");
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ toolCallId: "call_read", status: "completed", rawInput: { path: "notes.txt" }, rawOutput: "the secret is 42" });
  });
});
