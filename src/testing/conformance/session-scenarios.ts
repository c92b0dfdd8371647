// Scenarios of sessions: two at once, session/load replay, restart and crash recovery (where the
// agent can load sessions), the capability-gated methods it advertises, and the schema of every
// line written in the whole check.

import { writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";

import { agentLineProblem, definitionProblem } from "./acp-schema.js";
import type { AgentRun, WireLine } from "./agent-run.js";
import { contentText } from "./agent-run.js";
import type { ModelCall } from "./conformance-model.js";
import { errorOf, fail, foldToolCalls, readTool, type Scenario, type ScenarioContext, SESSION_LEVEL_UPDATES, skip } from "./scenario.js";
import { calledModel, promptTurn } from "./turn-scenarios.js";

/** How long two prompts' model calls wait for each other, so that both turns run at once. */
const MEET_MS = 2_000;

const concurrentSessions: Scenario = {
  id: "concurrent-sessions",
  tier: "core",
  async run(context) {
    const { run } = await context.start();
    const first = await run.newSession(context.project);
    const second = await run.newSession(context.project);
    if (first === second) {
      fail(`two session/new requests got the same session id ${first}`, run.answers("session/new").at(-1)?.line);
    }
    const replies = { one: ["Apples ", "for the first."], two: ["Pears ", "for the second."] };
    let arrived = 0;
    const meet = () => run.waitUpTo(() => arrived >= 2, MEET_MS).then(() => {});
    for (const name of ["one", "two"] as const) {
      context.model.plan(`${context.token}-${name}`, () => {
        arrived++;
        return { text: replies[name], beforeChunk: (index) => (index === 0 ? meet() : undefined), chunkDelayMs: 20 };
      });
    }
    const from = run.lines.length;
    const turns = await Promise.all([promptTurn(run, first, `${context.token}-one Name a fruit.`), promptTurn(run, second, `${context.token}-two Name another fruit.`)]);
    calledModel(arrived, run);
    for (const [index, [sessionId, own, other]] of ([
      [first, replies.one, replies.two],
      [second, replies.two, replies.one],
    ] as const).entries()) {
      const text = run.text(sessionId, from);
      const stray = run.updates(sessionId, from).find(({ update }) => update.sessionUpdate === "agent_message_chunk" && other.some((piece) => contentText(update.content).includes(piece.trim())));
      if (stray) {
        fail(`session ${sessionId} got text of the other session's reply (an update with the wrong sessionId)`, stray.line);
      }
      if (!text.includes(own.join(""))) {
        fail(`session ${sessionId} did not get its own reply ${JSON.stringify(own.join(""))}; it got ${JSON.stringify(text)}`, turns[index]?.answer);
      }
    }
  },
};

/** An agent that can load sessions, with a new session and the model calls of this scenario; skipped when it cannot. */
export async function loadableSession(context: ScenarioContext): Promise<{ run: AgentRun; sessionId: string; calls: ModelCall[] }> {
  const { run, init } = await context.start();
  if (init.agentCapabilities?.loadSession !== true) {
    skip("the agent does not advertise agentCapabilities.loadSession");
  }
  return { run, sessionId: await run.newSession(context.project), calls: [] };
}

/** Loads `sessionId` on `run` and returns the updates it replayed before its answer. */
export async function load(run: AgentRun, sessionId: string, cwd: string): Promise<Array<{ line: WireLine; update: Record<string, unknown> }>> {
  const from = run.lines.length;
  try {
    await run.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
  } catch (error) {
    fail(`session/load of ${sessionId} failed: ${(error as Error).message}`, run.answers("session/load", sessionId, from).at(-1)?.line);
  }
  const answer = run.answers("session/load", sessionId, from).at(-1);
  return run.updates(sessionId, from).filter(({ line }) => answer === undefined || run.lines.indexOf(line) < answer.index);
}

/** The answer to the last session/load of `sessionId`: where a replay that lacks something ended. */
function loadAnswer(run: AgentRun, sessionId: string): WireLine | undefined {
  return run.answers("session/load", sessionId).at(-1)?.line;
}

/** The text of the updates of one kind, joined, with whitespace taken out (replay may split or join chunks). */
function textOf(updates: ReadonlyArray<{ update: Record<string, unknown> }>, kind: string): string {
  return updates
    .filter(({ update }) => update.sessionUpdate === kind)
    .map(({ update }) => contentText(update.content))
    .join("")
    .replace(/\s+/g, "");
}

/** Fails unless the replay carries the user's text `prompt` and the agent's `reply`. */
function expectTurn(replayed: ReadonlyArray<{ line: WireLine; update: Record<string, unknown> }>, prompt: string, reply: string, what: string): void {
  if (!textOf(replayed, "user_message_chunk").includes(prompt.replace(/\s+/g, ""))) {
    fail(`${what}: the replay has no user_message_chunk with the prompt ${JSON.stringify(prompt)}`, replayed.at(-1)?.line);
  }
  if (!textOf(replayed, "agent_message_chunk").includes(reply.replace(/\s+/g, ""))) {
    fail(`${what}: the replay does not carry the agent's reply ${JSON.stringify(reply)}`, replayed.at(-1)?.line);
  }
}

const replay: Scenario = {
  id: "replay",
  tier: "core",
  async run(context) {
    const { run, sessionId, calls } = await loadableSession(context);
    writeFileSync(join(context.project, "conformance-replay.txt"), "A file to read in a turn that is replayed.\n");
    context.model.plan(context.token, (call) => {
      calls.push(call);
      const tool = call.toolResults === 0 ? readTool(call.tools, "conformance-replay.txt") : undefined;
      return tool ? { text: "Reading first. ", toolCalls: [{ name: tool.name, arguments: tool.arguments, id: `call_${context.token}` }] } : { text: "Replayed exactly as it streamed." };
    });
    const prompt = `${context.token} Read conformance-replay.txt, then sum up.`;
    const { from, answer } = await promptTurn(run, sessionId, prompt);
    calledModel(calls.length, run);
    const live = run.updates(sessionId, from).filter(({ line }) => run.lines.indexOf(line) < run.lines.indexOf(answer));
    // Loaded again on the same connection, as an editor reopening the session from its history
    // does; loading it in a new process is the restart scenario's.
    const replayed = await load(run, sessionId, context.project);
    const liveText = textOf(live, "agent_message_chunk");
    if (!textOf(replayed, "user_message_chunk").includes(prompt.replace(/\s+/g, ""))) {
      fail(`the replay has no user_message_chunk with the prompt ${JSON.stringify(prompt)}`, replayed.at(-1)?.line ?? loadAnswer(run, sessionId));
    }
    if (textOf(replayed, "agent_message_chunk") !== liveText) {
      fail(`the replay's agent text is not what the live stream ended with (${JSON.stringify(liveText)})`, replayed.findLast(({ update }) => update.sessionUpdate === "agent_message_chunk")?.line ?? replayed.at(-1)?.line);
    }
    const liveCalls = foldToolCalls(live);
    const replayedCalls = foldToolCalls(replayed);
    for (const [index, call] of liveCalls.entries()) {
      const again = replayedCalls.find((replayedCall) => replayedCall.id === call.id) ?? replayedCalls[index];
      if (!again) {
        fail(`the replay dropped tool call ${call.id}, which ended ${String(call.status)} live on this line`, call.line);
      }
      if (again.status !== call.status) {
        fail(`tool call ${call.id} ended ${String(call.status)} live but is replayed ${String(again.status)}`, again.line);
      }
    }
    if (replayedCalls.length > liveCalls.length) {
      fail(`the replay has ${replayedCalls.length} tool calls, the live turn had ${liveCalls.length}`, replayedCalls.at(-1)?.line);
    }
  },
};

const restart: Scenario = {
  id: "restart",
  tier: "core",
  async run(context) {
    const { run, sessionId, calls } = await loadableSession(context);
    const word = `quince-${context.token}`;
    context.model.plan(context.token, (call) => {
      calls.push(call);
      return { text: calls.length === 1 ? "Noted before the restart." : "It was a quince." };
    });
    const prompt = `${context.token} Remember the word ${word}.`;
    await promptTurn(run, sessionId, prompt);
    calledModel(calls.length, run);
    await run.stop();
    const { run: second } = await context.start();
    expectTurn(await load(second, sessionId, context.project), prompt, "Noted before the restart.", "after a restart");
    await promptTurn(second, sessionId, `${context.token} Which word was it?`);
    const after = calls[1];
    if (!after) {
      fail("after the restart, the prompt to the loaded session did not reach the model");
    }
    if (!after.raw.includes(word) || !after.raw.includes("Noted before the restart.")) {
      fail("after the restart, the model request for a new prompt does not carry the turn before it");
    }
  },
};

const crashRecovery: Scenario = {
  id: "crash-recovery",
  tier: "product",
  async run(context) {
    const { run, sessionId, calls } = await loadableSession(context);
    context.model.plan(context.token, (call) => {
      calls.push(call);
      // The second turn's reply starts and then hangs, until the agent is killed in the middle of
      // it. An agent may carry the cut turn on when it is loaded again: that call gets a whole reply.
      if (calls.length === 2) {
        return { text: ["Half a reply ", "never finished."], beforeChunk: (index) => (index > 1 ? context.model.hold() : undefined) };
      }
      return { text: calls.length === 1 ? "Answered before the crash." : "Carried on after the crash." };
    });
    const prompt = `${context.token} A turn that is answered.`;
    await promptTurn(run, sessionId, prompt);
    calledModel(calls.length, run);
    void run.prompt(sessionId, `${context.token} A turn cut short.`).catch(() => {});
    await run.waitFor(() => calls.length >= 2, "the model call of the second prompt");
    await run.kill();
    context.model.release();
    const { run: second } = await context.start();
    expectTurn(await load(second, sessionId, context.project), prompt, "Answered before the crash.", "after the agent was killed mid-turn");
  },
};

/** Fails unless the answer to `method` validated as `definition`. */
function expectValidAnswer(run: AgentRun, method: string, sessionId: string | undefined, from: number, definition: string): WireLine {
  const answer = run.answers(method, sessionId, from).at(-1)?.line;
  if (!answer) {
    fail(`${method} was not answered`);
  }
  if (errorOf(answer)) {
    fail(`${method} is advertised, but the agent answered it with an error`, answer);
  }
  const problem = definitionProblem(definition, answer.message?.result);
  if (problem) {
    fail(`the ${method} answer is not valid: ${problem}`, answer);
  }
  return answer;
}

/** Sends a request and ignores how it ended: the answer's line is judged instead. */
async function settle(promise: Promise<unknown>): Promise<void> {
  await promise.catch(() => {});
}

const capabilities: Scenario = {
  id: "capabilities",
  tier: "core",
  async run(context: ScenarioContext) {
    const { run, init } = await context.start();
    const advertised = init.agentCapabilities?.sessionCapabilities ?? {};
    const names = (["list", "resume", "close", "delete"] as const).filter((name) => advertised[name] !== undefined && advertised[name] !== null);
    if (names.length === 0) {
      skip("the agent advertises none of sessionCapabilities.list, .resume, .close and .delete");
    }
    context.model.plan(context.token, () => ({ text: "A turn to have something to list." }));
    const sessionId = await run.newSession(context.project);
    await promptTurn(run, sessionId, `${context.token} Hello.`);
    for (const name of names) {
      const from = run.lines.length;
      if (name === "list") {
        await settle(run.request(acp.methods.agent.session.list, { cwd: context.project }));
        const answer = expectValidAnswer(run, "session/list", undefined, from, "ListSessionsResponse");
        const sessions = ((answer.message?.result as { sessions?: Array<{ sessionId?: unknown; cwd?: unknown }> }).sessions ?? []).filter(Boolean);
        const relative = sessions.find((session) => typeof session.cwd !== "string" || !isAbsolute(session.cwd));
        if (relative) {
          fail(`session/list gives session ${String(relative.sessionId)} the cwd ${JSON.stringify(relative.cwd)}, not an absolute path`, answer);
        }
      } else if (name === "resume") {
        await settle(run.request(acp.methods.agent.session.resume, { sessionId, cwd: context.project, mcpServers: [] }));
        const answer = expectValidAnswer(run, "session/resume", sessionId, from, "ResumeSessionResponse");
        const replayed = run.updates(sessionId, from).find(({ line, update }) => run.lines.indexOf(line) < run.lines.indexOf(answer) && !SESSION_LEVEL_UPDATES.has(String(update.sessionUpdate)));
        if (replayed) {
          fail("session/resume replayed the conversation (only session/load replays)", replayed.line);
        }
      } else {
        const other = await run.newSession(context.project);
        const method = name === "close" ? acp.methods.agent.session.close : acp.methods.agent.session.delete;
        await settle(run.request(method, { sessionId: other }));
        expectValidAnswer(run, method, other, from, name === "close" ? "CloseSessionResponse" : "DeleteSessionResponse");
      }
    }
  },
};

/** What ACP lets an agent send only to a client that advertised a capability, and whether the client did. */
const GATED: Record<string, (advertised: acp.ClientCapabilities) => boolean> = {
  "fs/read_text_file": (advertised) => advertised.fs?.readTextFile === true,
  "fs/write_text_file": (advertised) => advertised.fs?.writeTextFile === true,
  "terminal/create": (advertised) => advertised.terminal === true,
  "terminal/output": (advertised) => advertised.terminal === true,
  "terminal/release": (advertised) => advertised.terminal === true,
  "terminal/wait_for_exit": (advertised) => advertised.terminal === true,
  "terminal/kill": (advertised) => advertised.terminal === true,
  "elicitation/create": (advertised) => advertised.elicitation !== undefined && advertised.elicitation !== null,
};
const GATED_UPDATES = new Set(["notice", "compaction_update", "compaction_summary_chunk"]);

/** What is wrong with a line besides its schema: a method or update the client (which advertised `advertised`) did not advertise a capability for. */
function gateProblem(line: WireLine, advertised: acp.ClientCapabilities): string | undefined {
  const method = line.message?.method;
  if (typeof method === "string" && GATED[method] !== undefined && !GATED[method](advertised)) {
    return `${method} sent to a client that advertised no capability for it`;
  }
  const update = method === "session/update" ? (line.message?.params as { update?: { sessionUpdate?: unknown } } | undefined)?.update?.sessionUpdate : undefined;
  return typeof update === "string" && GATED_UPDATES.has(update) ? `a ${update} update sent to a client that did not advertise it` : undefined;
}

const schema: Scenario = {
  id: "schema",
  tier: "core",
  async run(context) {
    // A turn of its own, with a tool call where the agent offers a read tool, so that there is
    // something to check even when this scenario runs alone. A bad line explains more than the
    // turn's failure (which it may have caused), so the lines are judged first.
    let turnFailure: unknown;
    try {
      const { run, sessionId } = await context.startSession();
      writeFileSync(join(context.project, "conformance-schema.txt"), "A file to read in a turn whose lines are checked.\n");
      context.model.plan(context.token, (call) => {
        const tool = call.toolResults === 0 ? readTool(call.tools, "conformance-schema.txt") : undefined;
        return tool ? { text: "Checking. ", toolCalls: [{ name: tool.name, arguments: tool.arguments }] } : { text: "Every line checked." };
      });
      await promptTurn(run, sessionId, `${context.token} Read conformance-schema.txt.`);
    } catch (error) {
      turnFailure = error;
    }
    const lines = context.agentLines;
    for (const { line, run: owner } of lines) {
      const problem = agentLineProblem(line.text, (id) => owner.clientRequest(id)?.method) ?? gateProblem(line, owner.advertised);
      if (problem) {
        const count = lines.filter(({ line: other, run: otherOwner }) => (agentLineProblem(other.text, (id) => otherOwner.clientRequest(id)?.method) ?? gateProblem(other, otherOwner.advertised)) !== undefined).length;
        fail(`${count} of the ${lines.length} lines the agent wrote in this check fail; the first: ${problem}`, line);
      }
    }
    if (turnFailure !== undefined) {
      throw turnFailure;
    }
  },
};

export const sessionScenarios: Scenario[] = [concurrentSessions, replay, restart, crashRecovery, capabilities, schema];
