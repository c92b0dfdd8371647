// Scenarios of the late-2026 session surface: closing a session while its turn runs, listing by
// directory, when the command list is sent, setting a config option, the bounds of usage, and the
// title in the list. Each applies only where the agent advertises the capability or sends the
// update it judges, and is skipped, with the reason, where it does not.

import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";

import { definitionProblem } from "./acp-schema.js";
import { type AgentRun, WaitTimeout, type WireLine } from "./agent-run.js";
import { errorOf, fail, type Scenario, type ScenarioContext, skip } from "./scenario.js";
import { midStream } from "./tool-scenarios.js";
import { calledModel, promptTurn } from "./turn-scenarios.js";

/** How long the check watches for late updates after an answer. */
const GRACE_MS = 500;
/** How long a closed session's prompt may take to be answered before the check lets the model's reply go on. */
const CLOSE_GRACE_MS = 3_000;
/** How long the check waits for an update an agent may send soon after an answer (commands, a title). */
const SOON_MS = 1_500;
/** How many pages of session/list the check follows. */
const MAX_PAGES = 20;

type SessionCapability = keyof acp.SessionCapabilities;

/** Starts the agent, skipping the scenario unless it advertises `sessionCapabilities[name]`. */
async function startWith(context: ScenarioContext, name: SessionCapability): Promise<AgentRun> {
  const { run, init } = await context.start();
  const advertised = init.agentCapabilities?.sessionCapabilities?.[name];
  if (advertised === undefined || advertised === null) {
    skip(`the agent does not advertise agentCapabilities.sessionCapabilities.${name}`);
  }
  return run;
}

/** Waits `ms` for what an agent might still write, then resolves. */
async function settleFor(run: AgentRun, ms: number): Promise<void> {
  await run.waitUpTo(() => false, ms);
}

/** Sends a request and ignores how it ended: the answer's line is judged instead. */
async function settle(promise: Promise<unknown>): Promise<void> {
  await promise.catch(() => {});
}

/** The agent's last answer to `method` (for `sessionId`) from line `from` on; fails when there is none or it is an error. */
function answerTo(run: AgentRun, method: string, sessionId: string | undefined, from: number): WireLine {
  const answer = run.answers(method, sessionId, from).at(-1)?.line;
  if (!answer) {
    fail(`${method} was not answered`);
  }
  if (errorOf(answer)) {
    fail(`${method} was answered with an error`, answer);
  }
  return answer;
}

const closeRunning: Scenario = {
  id: "close-running",
  tier: "session",
  async run(context) {
    const run = await startWith(context, "close");
    const sessionId = await run.newSession(context.project);
    // The turn is still running when its session is closed; let go, an agent that did not stop runs it to its end.
    const { from: promptFrom, answered, letGo } = await midStream(context, run, sessionId, ["Close me here, ", "or this comes too."], () => run.prompt(sessionId, `${context.token} Tell a long story.`).catch(() => undefined));
    const closeFrom = run.lines.length;
    await settle(run.request(acp.methods.agent.session.close, { sessionId }));
    const closed = answerTo(run, "session/close", sessionId, closeFrom);
    const promptAnswer = () => run.answers("session/prompt", sessionId, promptFrom).at(-1)?.line;
    if (!(await run.waitUpTo(() => promptAnswer() !== undefined, CLOSE_GRACE_MS))) {
      letGo();
      try {
        await run.within(answered, "the answer to the prompt of the closed session");
      } catch (error) {
        if (error instanceof WaitTimeout) {
          fail("the prompt running when its session was closed was never answered", closed);
        }
        throw error;
      }
    }
    const answer = promptAnswer();
    if (!answer) {
      fail("the prompt running when its session was closed was never answered", closed);
    }
    // ACP: closing cancels the session's work as session/cancel does, whose prompt is answered cancelled.
    if (errorOf(answer)) {
      fail("the prompt running when its session was closed was answered with an error; closing cancels it as session/cancel does, with stopReason cancelled", answer);
    }
    const stopReason = (answer.message?.result as { stopReason?: unknown } | undefined)?.stopReason;
    if (stopReason !== "cancelled") {
      fail(`the prompt running when its session was closed was answered ${JSON.stringify(stopReason)}, not "cancelled"`, answer);
    }
    await settleFor(run, GRACE_MS);
    const closedAt = run.lines.indexOf(closed);
    const late = run.updates(sessionId).find(({ line }) => run.lines.indexOf(line) > closedAt);
    if (late) {
      fail("an update of the session came after the answer to session/close", late.line);
    }
  },
};

/** The entries of session/list for `cwd`, page by page; fails on an answer that is an error or not valid. */
async function listSessions(run: AgentRun, cwd: string): Promise<{ sessions: acp.SessionInfo[]; answer: WireLine }> {
  const sessions: acp.SessionInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const from = run.lines.length;
    await settle(run.request(acp.methods.agent.session.list, { cwd, ...(cursor === undefined ? {} : { cursor }) }));
    const answer = answerTo(run, "session/list", undefined, from);
    const problem = definitionProblem("ListSessionsResponse", answer.message?.result);
    if (problem) {
      fail(`the session/list answer is not valid: ${problem}`, answer);
    }
    const result = answer.message?.result as acp.ListSessionsResponse;
    sessions.push(...result.sessions);
    if (typeof result.nextCursor !== "string") {
      return { sessions, answer };
    }
    cursor = result.nextCursor;
  }
  fail(`session/list still gave a nextCursor after ${MAX_PAGES} pages`, run.answers("session/list").at(-1)?.line);
}

/** Whether two directories are the same one, as given or with their links resolved. */
function sameDirectory(one: string, other: string): boolean {
  if (one === other) {
    return true;
  }
  try {
    return realpathSync(one) === realpathSync(other);
  } catch {
    return false;
  }
}

const listByCwd: Scenario = {
  id: "list-by-cwd",
  tier: "session",
  async run(context) {
    const run = await startWith(context, "list");
    const [here, there] = ["here", "there"].map((name) => join(context.project, name)) as [string, string];
    let calls = 0;
    context.model.plan(context.token, () => {
      calls++;
      return { text: "A turn so that the session is kept." };
    });
    const sessions: string[] = [];
    // A turn in each: some agents keep a session only once it has one.
    for (const cwd of [here, there]) {
      mkdirSync(cwd, { recursive: true });
      const sessionId = await run.newSession(cwd);
      await promptTurn(run, sessionId, `${context.token} Hello.`);
      sessions.push(sessionId);
    }
    calledModel(calls, run);
    const [mine, other] = sessions as [string, string];
    const { sessions: listed, answer } = await listSessions(run, here);
    const stranger = listed.find((session) => !sameDirectory(session.cwd, here));
    if (stranger) {
      fail(`session/list with cwd ${here} lists session ${stranger.sessionId}${stranger.sessionId === other ? ", opened in another directory," : ""} with cwd ${JSON.stringify(stranger.cwd)}`, answer);
    }
    if (!listed.some((session) => session.sessionId === mine)) {
      fail(`session/list with cwd ${here} does not list session ${mine}, opened there`, answer);
    }
  },
};

const commandsAfterNew: Scenario = {
  id: "commands-after-new",
  tier: "session",
  async run(context) {
    const { run } = await context.start();
    const from = run.lines.length;
    const sessionId = await run.newSession(context.project);
    const commands = () => run.updates(sessionId, from).filter(({ update }) => update.sessionUpdate === "available_commands_update");
    if (!(await run.waitUpTo(() => commands().length > 0, SOON_MS))) {
      // Some agents send their commands with the first turn.
      context.model.plan(context.token, () => ({ text: "A turn to see the commands." }));
      await promptTurn(run, sessionId, `${context.token} Hello.`);
      await settleFor(run, GRACE_MS);
    }
    const first = commands()[0];
    if (!first) {
      skip("the agent sent no available_commands_update for a new session");
    }
    const answer = run.answers("session/new", undefined, from)[0];
    if (answer && run.lines.indexOf(first.line) < answer.index) {
      fail("available_commands_update was sent before the session/new answer, when an editor does not know the session yet (Zed drops it)", first.line);
    }
  },
};

/** A select option's values, flat or grouped. */
function selectValues(option: acp.SessionConfigOption): string[] {
  if (option.type !== "select") {
    return [];
  }
  return (option.options as Array<acp.SessionConfigSelectOption | acp.SessionConfigSelectGroup>).flatMap((entry) => ("group" in entry ? entry.options.map((choice) => choice.value) : [entry.value]));
}

/** A select option's current value in `options`, or undefined when the option is not there. */
function currentValue(options: readonly acp.SessionConfigOption[] | undefined, id: string): unknown {
  return options?.find((option) => option.id === id)?.currentValue;
}

const configOptions: Scenario = {
  id: "config-options",
  tier: "session",
  async run(context) {
    const { run } = await context.start();
    const from = run.lines.length;
    const sessionId = await run.newSession(context.project);
    const offered = (run.answers("session/new", undefined, from)[0]?.line.message?.result as acp.NewSessionResponse | undefined)?.configOptions ?? [];
    if (offered.length === 0) {
      skip("the session/new answer has no configOptions");
    }
    // Another value of a select option; the model's last, since another model may need another key.
    const selects = offered.filter((option) => selectValues(option).some((value) => value !== option.currentValue));
    const option = selects.find((candidate) => candidate.category !== "model") ?? selects[0];
    if (!option) {
      skip(`no config option offers a second value (${offered.map((candidate) => candidate.id).join(", ")})`);
    }
    const value = selectValues(option).find((candidate) => candidate !== option.currentValue) as string;
    const setFrom = run.lines.length;
    await settle(run.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: option.id, value }));
    const answer = answerTo(run, "session/set_config_option", sessionId, setFrom);
    const problem = definitionProblem("SetSessionConfigOptionResponse", answer.message?.result);
    if (problem) {
      fail(`the session/set_config_option answer is not valid: ${problem}`, answer);
    }
    const answered = (answer.message?.result as acp.SetSessionConfigOptionResponse).configOptions;
    const missing = offered.find((candidate) => !answered.some((other) => other.id === candidate.id));
    if (missing) {
      fail(`the session/set_config_option answer lacks option ${JSON.stringify(missing.id)}: it must carry the full list`, answer);
    }
    const now = currentValue(answered, option.id);
    if (now !== value) {
      fail(`set ${JSON.stringify(option.id)} to ${JSON.stringify(value)}, the answer shows ${JSON.stringify(now)}`, answer);
    }
    await settleFor(run, GRACE_MS);
    const answeredAt = run.lines.indexOf(answer);
    const contradiction = run.updates(sessionId).find(({ line, update }) => {
      if (update.sessionUpdate !== "config_option_update" || run.lines.indexOf(line) < answeredAt) {
        return false;
      }
      const shown = currentValue(update.configOptions as acp.SessionConfigOption[] | undefined, option.id);
      return shown !== undefined && shown !== value;
    });
    if (contradiction) {
      fail(`after ${JSON.stringify(option.id)} was set to ${JSON.stringify(value)}, a config_option_update shows another value`, contradiction.line);
    }
  },
};

/** What is wrong with a usage_update's figures, by ACP's words for them. */
function usageProblem(update: Record<string, unknown>): string | undefined {
  const { used, size } = update;
  for (const [name, figure] of [
    ["used", used],
    ["size", size],
  ] as const) {
    if (typeof figure !== "number" || !Number.isInteger(figure) || figure < 0) {
      return `${name} is ${JSON.stringify(figure)}, not a count of tokens`;
    }
  }
  if ((used as number) > (size as number)) {
    return `used (${String(used)} tokens in context) is more than size (${String(size)}, the whole window)`;
  }
  const cost = update.cost as { amount?: unknown } | null | undefined;
  if (cost !== undefined && cost !== null && (typeof cost.amount !== "number" || !Number.isFinite(cost.amount) || cost.amount < 0)) {
    return `cost.amount is ${JSON.stringify(cost.amount)}, not a cost`;
  }
  return undefined;
}

const usageBounds: Scenario = {
  id: "usage-bounds",
  tier: "session",
  async run(context) {
    const { run } = await context.start();
    const from = run.lines.length;
    const sessionId = await run.newSession(context.project);
    let calls = 0;
    context.model.plan(context.token, () => {
      calls++;
      return { text: "A turn whose tokens are counted." };
    });
    // Two turns, so that a cost has a chance to grow.
    await promptTurn(run, sessionId, `${context.token} Hello.`);
    await promptTurn(run, sessionId, `${context.token} Hello again.`);
    calledModel(calls, run);
    await settleFor(run, GRACE_MS);
    const usage = run.updates(sessionId, from).filter(({ update }) => update.sessionUpdate === "usage_update");
    if (usage.length === 0) {
      skip("the agent sent no usage_update");
    }
    // The cost is the session's so far: in one currency it never goes down.
    const costs = new Map<string, number>();
    for (const { line, update } of usage) {
      const problem = usageProblem(update);
      if (problem) {
        fail(`a usage_update is out of bounds: ${problem}`, line);
      }
      const cost = update.cost as { amount: number; currency: string } | null | undefined;
      if (cost) {
        const before = costs.get(cost.currency);
        if (before !== undefined && cost.amount < before) {
          fail(`the session's cost went down from ${before} to ${cost.amount} ${cost.currency}; usage_update's cost is cumulative`, line);
        }
        costs.set(cost.currency, cost.amount);
      }
    }
  },
};

const titleInList: Scenario = {
  id: "title-in-list",
  tier: "session",
  async run(context) {
    const run = await startWith(context, "list");
    const sessionId = await run.newSession(context.project);
    let calls = 0;
    context.model.plan(context.token, () => {
      calls++;
      return { text: "A turn to give the session a title." };
    });
    await promptTurn(run, sessionId, `${context.token} Name this session after apples.`);
    calledModel(calls, run);
    // A title may come a moment after the turn, once a side call has made it.
    const titles = () => run.updates(sessionId).filter(({ update }) => update.sessionUpdate === "session_info_update" && (typeof update.title === "string" || update.title === null));
    await run.waitUpTo(() => titles().length > 0, SOON_MS);
    await settleFor(run, GRACE_MS);
    const last = titles().at(-1);
    if (!last) {
      skip("the agent sent no session_info_update with a title");
    }
    const title = last.update.title as string | null;
    const { sessions, answer } = await listSessions(run, context.project);
    const entry = sessions.find((session) => session.sessionId === sessionId);
    if (!entry) {
      fail(`session/list with cwd ${context.project} does not list session ${sessionId}, opened there`, answer);
    }
    if ((entry.title ?? null) !== title) {
      fail(`session/list gives session ${sessionId} the title ${JSON.stringify(entry.title ?? null)}; its last session_info_update gave ${JSON.stringify(title)}`, answer);
    }
  },
};

export const surfaceScenarios: Scenario[] = [closeRunning, listByCwd, commandsAfterNew, configOptions, usageBounds, titleInList];
