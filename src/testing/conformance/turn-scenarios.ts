// Scenarios of the connection and of plain turns: initialize and version negotiation, bad input,
// streaming, the order of a turn's updates and its answer, and history.

import type { AgentRun, WireLine } from "./agent-run.js";
import { definitionProblem } from "./acp-schema.js";
import type { ModelCall } from "./conformance-model.js";
import { errorOf, fail, type Scenario, type ScenarioContext, SESSION_LEVEL_UPDATES, STOP_REASONS } from "./scenario.js";

/** How long after a prompt's answer the check keeps watching for late updates of its turn. */
const GRACE_MS = 500;
/** How long the model waits for the client to show a chunk before it sends the next one. */
const PACE_MS = 1_000;

/** A prompt, and the line range it took: from the request to its answer. */
export async function promptTurn(run: AgentRun, sessionId: string, text: string): Promise<{ from: number; answer: WireLine; stopReason: string }> {
  const from = run.lines.length;
  let stopReason: string;
  try {
    stopReason = (await run.prompt(sessionId, text)).stopReason;
  } catch (error) {
    const answer = run.answers("session/prompt", sessionId, from).at(-1);
    fail(`session/prompt failed: ${(error as Error).message}`, answer?.line);
  }
  const answer = run.answers("session/prompt", sessionId, from).at(-1);
  return { from, answer: answer?.line as WireLine, stopReason };
}

/** Fails unless the model was called: an agent that never reaches it was not pointed at the fake servers. */
export function calledModel(calls: number, run: AgentRun): void {
  if (calls === 0) {
    fail(
      `the agent answered without calling the model. The check serves Chat Completions, Responses and Anthropic Messages at one fake origin and gives the agent WEFT_MODEL, WEFT_BASE_URL and OPENAI_BASE_URL (<origin>/v1) and ANTHROPIC_BASE_URL (the origin), with their API keys; pass --env for the names your agent reads ({model} and {model_v1} stand for the origin and <origin>/v1).${run.stderrTail()}`,
    );
  }
}

const initialize: Scenario = {
  id: "initialize",
  tier: "core",
  async run(context) {
    const run = context.spawn();
    const init = await run.initialize(1);
    const line = run.answers("initialize").at(-1)?.line;
    const problem = definitionProblem("InitializeResponse", line?.message?.result);
    if (problem) {
      fail(`the initialize answer is not valid: ${problem}`, line);
    }
    if (init.protocolVersion !== 1) {
      fail(`asked for protocol version 1, the agent answered ${JSON.stringify(init.protocolVersion)}: this check (and the SDK) speak version 1`, line);
    }
    // Versions the agent cannot support, written past the SDK client (which refuses an answer it
    // cannot speak). ACP's text: answer the latest version supported, never echo one that does
    // not exist; the SDK 2.4 schema also allows -32022 with the supported versions for one that is
    // too old. A version this check cannot speak itself (2, say) is the agent's right.
    const latest: Array<{ answered: unknown; answer: WireLine }> = [];
    for (const asked of [99, 0]) {
      const probe = context.spawn();
      const id = `conformance-version-${asked}`;
      const answer = await rawExchange(probe, JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: asked, clientCapabilities: {}, clientInfo: { name: "weft-conformance-check", version: "1.0.0" } } }), id, `the answer to initialize with protocol version ${asked}`);
      versionProblem(asked, answer);
      if (!errorOf(answer)) {
        latest.push({ answered: (answer.message?.result as { protocolVersion?: unknown }).protocolVersion, answer });
      }
    }
    const [high, low] = latest;
    if (high && low && high.answered !== low.answered) {
      fail(`asked for versions 99 and 0, neither of which exists, the agent answered ${String(high.answered)} and ${String(low.answered)}: both must be the latest version it supports`, low.answer);
    }
  },
};

/** Fails when `answer` is not a lawful answer to initialize with a version that does not exist. */
function versionProblem(asked: number, answer: WireLine): void {
  const error = errorOf(answer);
  if (error) {
    const supported = (error as { data?: { supported?: unknown } }).data?.supported;
    if (asked === 0 && error.code === -32022 && Array.isArray(supported) && supported.length > 0 && supported.every((version) => Number.isInteger(version) && (version as number) > 0)) {
      return;
    }
    fail(`asked for protocol version ${asked}, the agent answered error ${String(error.code)}: ACP asks for the latest version it supports${asked === 0 ? " (or, by the SDK's schema, -32022 with data.supported listing its versions)" : ""}`, answer);
  }
  const answered = (answer.message?.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  if (!Number.isInteger(answered) || (answered as number) < 1) {
    fail(`asked for protocol version ${asked}, the agent answered ${JSON.stringify(answered)}, not a protocol version`, answer);
  }
  if (answered === asked) {
    fail(`asked for protocol version ${asked}, which does not exist, the agent echoed it back instead of answering the latest version it supports`, answer);
  }
}

/** Writes `line` past the SDK client and returns the agent's answer to `id`. */
async function rawExchange(run: AgentRun, line: string, id: string | null, what: string): Promise<WireLine> {
  const from = run.lines.length;
  run.writeRaw(line, id ?? undefined);
  return run.rawAnswer(id, from, what);
}

function expectError(answer: WireLine, code: number | undefined, what: string): void {
  const error = errorOf(answer);
  if (!error) {
    fail(`${what}: the agent answered with a result, not an error`, answer);
  }
  if (code !== undefined && error.code !== code) {
    fail(`${what}: the agent answered error ${String(error.code)}, not ${code}`, answer);
  }
}

const badInput: Scenario = {
  id: "bad-input",
  tier: "core",
  async run(context) {
    const { run } = await context.start();
    expectError(await rawExchange(run, '{"jsonrpc":"2.0","id":"conformance-broken",', null, "an answer to a line that is not JSON (a -32700 Parse error with id null)"), -32700, "a line that is not JSON");
    const unknown = JSON.stringify({ jsonrpc: "2.0", id: "conformance-unknown-method", method: "conformance/no_such_method", params: {} });
    expectError(await rawExchange(run, unknown, "conformance-unknown-method", "an answer to an unknown method"), -32601, "an unknown method");
    const badParams = JSON.stringify({ jsonrpc: "2.0", id: "conformance-bad-params", method: "session/new", params: { cwd: 42, mcpServers: "none" } });
    expectError(await rawExchange(run, badParams, "conformance-bad-params", "an answer to session/new with params of the wrong type"), -32602, "session/new with params of the wrong type");
    const missing = JSON.stringify({ jsonrpc: "2.0", id: "conformance-unknown-session", method: "session/prompt", params: { sessionId: "sess_conformance_missing", prompt: [{ type: "text", text: "hello" }] } });
    expectError(await rawExchange(run, missing, "conformance-unknown-session", "an answer to a prompt for an unknown session"), undefined, "a prompt for an unknown session");
    try {
      await run.newSession(context.project);
    } catch (error) {
      fail(`after the bad input the agent no longer answers: session/new failed (${(error as Error).message})`, run.answers("session/new").at(-1)?.line);
    }
  },
};

const REPLY = ["Streaming one, ", "streaming two, ", "streaming three."];

const streaming: Scenario = {
  id: "streaming",
  tier: "core",
  async run(context) {
    const { run, sessionId } = await context.startSession();
    const calls: ModelCall[] = [];
    let sent = "";
    context.model.onText = (text) => {
      sent += text;
    };
    context.model.plan(context.token, (call) => {
      calls.push(call);
      // Each chunk waits until the client has shown the ones before it (or a second has passed):
      // an agent that streams has a chance to pass each on before the next arrives.
      return { text: REPLY, beforeChunk: () => run.waitUpTo(() => run.text(sessionId, from).length >= sent.length, PACE_MS).then(() => {}) };
    });
    const from = run.lines.length;
    const { answer } = await promptTurn(run, sessionId, `${context.token} Reply in several parts.`);
    calledModel(calls.length, run);
    const answered = run.lines.indexOf(answer);
    const chunks = run.updates(sessionId, from).filter(({ line, update }) => run.lines.indexOf(line) < answered && update.sessionUpdate === "agent_message_chunk" && (update.content as { text?: unknown } | undefined)?.text !== "");
    if (chunks.length < 2) {
      fail(
        `the model's reply came in ${REPLY.length} chunks, each sent once the client had shown the one before, but the client got ${chunks.length} agent_message_chunk update${chunks.length === 1 ? "" : "s"} before the answer: the agent does not stream`,
        chunks[0]?.line ?? answer,
      );
    }
    if (!run.text(sessionId, from).includes(REPLY.join(""))) {
      fail(`the agent's message text does not carry the model's reply ${JSON.stringify(REPLY.join(""))}`, chunks.at(-1)?.line);
    }
  },
};

/** Fails on a second answer to the prompt answered by `answer`, or an update of its turn after it. */
function checkAfterAnswer(run: AgentRun, sessionId: string, answer: WireLine): void {
  const index = run.lines.indexOf(answer);
  const id = JSON.stringify(answer.message?.id);
  const again = run.lines.slice(index + 1).find((line) => line.from === "agent" && line.message !== undefined && !("method" in line.message) && JSON.stringify(line.message.id) === id);
  if (again) {
    fail("the agent answered the same session/prompt twice", again);
  }
  const late = run.updates(sessionId, index + 1).find(({ update }) => !SESSION_LEVEL_UPDATES.has(String(update.sessionUpdate)));
  if (late) {
    fail(`an update of the turn (${String(late.update.sessionUpdate)}) arrived after the prompt was answered (all of a turn's updates must come before its answer)`, late.line);
  }
}

const answerOrder: Scenario = {
  id: "answer-order",
  tier: "core",
  async run(context) {
    const { run, sessionId } = await context.startSession();
    context.model.plan(context.token, () => ({ text: ["In order, ", "then the answer."] }));
    const { answer, stopReason } = await promptTurn(run, sessionId, `${context.token} Say two things.`);
    if (errorOf(answer)) {
      fail("the prompt was answered with an error, not a stop reason", answer);
    }
    if (!STOP_REASONS.has(stopReason)) {
      fail(`the stop reason ${JSON.stringify(stopReason)} is not one ACP defines`, answer);
    }
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS));
    checkAfterAnswer(run, sessionId, answer);
  },
};

const history: Scenario = {
  id: "history",
  tier: "core",
  async run(context: ScenarioContext) {
    const { run, sessionId } = await context.startSession();
    const word = `kumquat-${context.token}`;
    const calls: ModelCall[] = [];
    context.model.plan(context.token, (call) => {
      calls.push(call);
      return { text: calls.length === 1 ? "Noted: the answer is 4711." : "It was a kumquat." };
    });
    await promptTurn(run, sessionId, `${context.token} Remember the word ${word}.`);
    calledModel(calls.length, run);
    await promptTurn(run, sessionId, `${context.token} Which word did I ask you to remember?`);
    const second = calls[1];
    if (!second) {
      fail("the second prompt did not reach the model");
    }
    if (!second.raw.includes(word)) {
      fail("the model request for the second prompt does not carry the first prompt's text");
    }
    if (!second.raw.includes("4711")) {
      fail("the model request for the second prompt does not carry the agent's first reply");
    }
  },
};

export const turnScenarios: Scenario[] = [initialize, badInput, streaming, answerOrder, history];
