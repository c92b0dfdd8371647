// checkAcpAgent(): runs the conformance scenarios against any ACP agent started as a command. The
// check plays the editor (the official SDK client over the agent's stdio) and the model (fake
// chat-completions, Responses and Anthropic Messages servers on 127.0.0.1), and reports each
// scenario passed, failed with the first problem and the wire line it was seen on, or skipped
// with the capability that was missing.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { type AgentCommand, AgentRun, type WireLine } from "./agent-run.js";
import { ConformanceModel } from "./conformance-model.js";
import { productScenarios } from "./product-scenarios.js";
import { relativePathProblem, type Scenario, type ScenarioContext, type Tier, TIERS, Verdict } from "./scenario.js";
import { sessionScenarios } from "./session-scenarios.js";
import { surfaceScenarios } from "./surface-scenarios.js";
import { toolScenarios } from "./tool-scenarios.js";
import { turnScenarios } from "./turn-scenarios.js";

const SCENARIOS: Scenario[] = [...turnScenarios, ...toolScenarios, ...sessionScenarios, ...surfaceScenarios, ...productScenarios];

/** The ids of the scenarios, in the order they run. */
export const SCENARIO_IDS: readonly string[] = SCENARIOS.map((scenario) => scenario.id);

/** Each scenario's id and tier, in the order they run. */
export const SCENARIO_TIERS: ReadonlyArray<{ id: string; tier: Tier }> = SCENARIOS.map(({ id, tier }) => ({ id, tier }));

export interface CheckAcpAgentOptions {
  /** The agent's command, such as `node`. */
  command: string;
  args?: readonly string[] | undefined;
  /**
   * Added to the agent's environment after what the check sets (the fake model's URLs and keys, and
   * a private HOME, XDG_STATE_HOME and XDG_CONFIG_HOME); undefined removes a name. A value may name
   * `{model}` (the fake model's origin, `http://127.0.0.1:<port>`), `{model_v1}` (`<origin>/v1`),
   * `{home}` (the check's private directory, which holds HOME) and `{project}` (the scenario's
   * project directory), as in `CODEX_CONFIG={"model_providers":{"fake":{"base_url":"{model_v1}"}}}`.
   */
  env?: Record<string, string | undefined> | undefined;
  /** The directory to start the agent in. Default: the current one. */
  cwd?: string | undefined;
  /** How long any one wait for the agent may take, in milliseconds. Default: 20 000. */
  timeoutMs?: number | undefined;
  /** Only these scenarios (by id); the rest are left out of the report. Default: all. */
  scenarios?: readonly string[] | undefined;
  /** Only the scenarios of these tiers. Default: all. */
  tiers?: readonly Tier[] | undefined;
  /** Called with each scenario's result as it finishes, for a report that shows progress. */
  onResult?: ((result: ScenarioResult) => void) | undefined;
}

export interface ScenarioResult {
  /** The scenario, or `start` for the one result of an agent that could not start or answer initialize. */
  id: string;
  tier: Tier;
  /**
   * `noted`: a product scenario that did not hold, which ACP does not require (carrying on a cut
   * turn, say): said, with its problem and line, but not a failure.
   */
  status: "passed" | "failed" | "skipped" | "noted";
  /** Why it failed (or what was noted): the first problem seen. */
  problem?: string | undefined;
  /** The wire line (trimmed) the problem was seen on, when there is one. */
  line?: string | undefined;
  /** Why it was skipped: the capability or tool the agent lacks. */
  reason?: string | undefined;
  durationMs: number;
}

export interface CheckReport {
  /** The agent's command line. */
  agent: string;
  results: ScenarioResult[];
  passed: number;
  failed: number;
  skipped: number;
  noted: number;
  durationMs: number;
}

/** Runs the scenarios against the agent; resolves with the report (it never rejects for the agent's faults). */
export async function checkAcpAgent(options: CheckAcpAgentOptions): Promise<CheckReport> {
  const unknown = (options.scenarios ?? []).filter((id) => !SCENARIO_IDS.includes(id));
  if (unknown.length > 0) {
    throw new Error(`Unknown scenario ${unknown.join(", ")}; the scenarios are ${SCENARIO_IDS.join(", ")}.`);
  }
  const started = performance.now();
  const chosen = SCENARIOS.filter((scenario) => (options.scenarios ? options.scenarios.includes(scenario.id) : true) && (options.tiers ? options.tiers.includes(scenario.tier) : true));
  const home = mkdtempSync(join(tmpdir(), "weft-check-"));
  const model = await ConformanceModel.start();
  const agentLines: Array<{ line: WireLine; run: AgentRun }> = [];
  const results: ScenarioResult[] = [];
  const waitMs = options.timeoutMs ?? 20_000;
  const finished = (result: ScenarioResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  const commandFor = (project: string): AgentCommand => {
    mkdirSync(project, { recursive: true });
    const places = { model: model.url, model_v1: model.v1, home, project };
    return {
      command: options.command,
      args: options.args ?? [],
      cwd: options.cwd,
      env: {
        HOME: join(home, "home"),
        XDG_STATE_HOME: join(home, "state"),
        XDG_CONFIG_HOME: join(home, "config"),
        ...model.env(),
        ...withPlaces(options.env ?? {}, places),
      },
    };
  };
  try {
    for (const directory of ["home", "state", "config"]) {
      mkdirSync(join(home, directory));
    }
    const cannotStart = await startProblem(commandFor(join(home, "projects", "start")), waitMs);
    if (cannotStart !== undefined) {
      // One clear failure: every scenario would fail the same way.
      finished({ id: "start", tier: "core", status: "failed", ...cannotStart, durationMs: Math.round(performance.now() - started) });
    } else {
      for (const [index, scenario] of chosen.entries()) {
        const project = join(home, "projects", scenario.id);
        finished(await runScenario(scenario, { command: commandFor(project), model, project, token: `cc${index}x${Math.random().toString(36).slice(2, 8)}`, waitMs, agentLines }));
      }
    }
  } finally {
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
  const count = (status: ScenarioResult["status"]) => results.filter((result) => result.status === status).length;
  return {
    agent: [options.command, ...(options.args ?? [])].join(" "),
    results,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    noted: count("noted"),
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * Why the agent cannot be checked at all (it does not start, or does not answer initialize), with
 * the last line it wrote that is not a JSON-RPC message, if any; undefined when it can.
 */
async function startProblem(command: AgentCommand, waitMs: number): Promise<{ problem: string; line?: string } | undefined> {
  const run = new AgentRun(command, waitMs, () => {});
  try {
    await run.initialize();
    return undefined;
  } catch (error) {
    const stray = run.lines.findLast((line) => line.from === "agent" && line.message === undefined);
    return { problem: `the agent could not be checked: ${(error as Error).message}`, ...(stray ? { line: stray.text.trim() } : {}) };
  } finally {
    await run.stop();
  }
}

/** `env` with each `{name}` of `places` in its values replaced by the place. */
function withPlaces(env: Record<string, string | undefined>, places: Record<string, string>): Record<string, string | undefined> {
  const named = new RegExp(`\\{(${Object.keys(places).join("|")})\\}`, "g");
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value?.replace(named, (_, place: string) => places[place] ?? place)]));
}

interface ScenarioSetup {
  command: AgentCommand;
  model: ConformanceModel;
  project: string;
  token: string;
  waitMs: number;
  agentLines: Array<{ line: WireLine; run: AgentRun }>;
}

async function runScenario(scenario: Scenario, setup: ScenarioSetup): Promise<ScenarioResult> {
  const started = performance.now();
  const runs: AgentRun[] = [];
  const spawn = () => {
    const run = new AgentRun(setup.command, setup.waitMs, (line, owner) => {
      if (line.from === "agent") {
        setup.agentLines.push({ line, run: owner });
      }
    });
    runs.push(run);
    return run;
  };
  setup.model.onActivity = () => {
    for (const run of runs) {
      run.poke();
    }
  };
  const context: ScenarioContext = {
    model: setup.model,
    project: setup.project,
    token: setup.token,
    waitMs: setup.waitMs,
    agentLines: setup.agentLines,
    spawn,
    async start() {
      const run = spawn();
      return { run, init: await run.initialize() };
    },
    async startSession() {
      const started = await context.start();
      return { ...started, sessionId: await started.run.newSession(setup.project) };
    },
  };
  const unservedBefore = setup.model.unserved.length;
  const linesBefore = setup.agentLines.length;
  let result: Omit<ScenarioResult, "durationMs">;
  try {
    await scenario.run(context);
    result = { id: scenario.id, tier: scenario.tier, status: "passed" };
  } catch (error) {
    if (error instanceof Verdict && error.status === "skipped") {
      result = { id: scenario.id, tier: scenario.tier, status: "skipped", reason: error.message };
    } else if (error instanceof Verdict) {
      result = { id: scenario.id, tier: scenario.tier, status: "failed", problem: error.message, ...(error.line ? { line: error.line.text.trim() } : {}) };
    } else {
      result = { id: scenario.id, tier: scenario.tier, status: "failed", problem: (error as Error).message };
    }
  } finally {
    setup.model.forget(setup.token);
    setup.model.forget(`${setup.token}-one`);
    setup.model.forget(`${setup.token}-two`);
    setup.model.onText = undefined;
    setup.model.onActivity = undefined;
    setup.model.release();
    await Promise.all(runs.map((run) => run.stop()));
  }
  // A rule for every tool call of every scenario, whatever the scenario checks: a failure the
  // scenario found itself comes first.
  const relative = result.status === "failed" ? undefined : relativePathProblem(setup.agentLines.slice(linesBefore).map(({ line }) => line));
  if (relative) {
    result = { id: scenario.id, tier: scenario.tier, status: "failed", problem: relative.problem, line: relative.line.text.trim() };
  }
  const unserved = setup.model.unserved.slice(unservedBefore);
  if (unserved.length > 0 && result.status === "failed") {
    // The agent's model calls went where the check serves nothing: say so rather than blame the agent.
    const calls = [...new Set(unserved.map((call) => `${call.method} ${call.url}${call.api ? ` (${call.api})` : ""}`))].join(", ");
    const hints = [...new Set(unserved.map((call) => call.hint))].join(" ");
    result = { id: scenario.id, tier: scenario.tier, status: "failed", problem: `the agent's model calls did not reach the fake model: ${calls}. ${hints}\nWhat the scenario saw: ${result.problem ?? result.reason ?? ""}` };
  }
  if (result.status === "failed" && scenario.tier === "product") {
    result = { ...result, status: "noted" };
  }
  return { ...result, durationMs: Math.round(performance.now() - started) };
}

/** The first line of a report: what is checked. */
export function reportHeading(agent: string): string {
  return `ACP conformance check of ${agent}\n\n`;
}

/** One scenario's result as text: a line with its verdict, tier and time, then the problem and its wire line. */
export function formatResult(result: ScenarioResult): string {
  const mark = { passed: "pass", failed: "FAIL", skipped: "skip", noted: "note" } as const;
  const why = result.status === "skipped" ? `: ${result.reason ?? ""}` : "";
  const lines = [`  ${mark[result.status]}  ${result.id.padEnd(22)} ${result.tier.padEnd(8)} ${(result.durationMs / 1000).toFixed(1).padStart(5)} s${why}`];
  if (result.status === "failed" || result.status === "noted") {
    if (result.status === "noted") {
      lines.push("        not required by ACP: a product behaviour this agent does not have");
    }
    lines.push(...(result.problem ?? "").split("\n").map((line) => `        ${line}`));
    if (result.line) {
      lines.push(`        wire line: ${result.line.length > 600 ? `${result.line.slice(0, 600)}…` : result.line}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The summary: a row per tier, then the totals. */
export function formatSummary(report: CheckReport): string {
  const statuses = ["passed", "failed", "skipped", "noted"] as const;
  const lines = ["", `  ${"tier".padEnd(8)} ${statuses.map((status) => status.padStart(7)).join(" ")}`];
  for (const tier of TIERS) {
    const here = report.results.filter((result) => result.tier === tier);
    if (here.length > 0) {
      lines.push(`  ${tier.padEnd(8)} ${statuses.map((status) => String(here.filter((result) => result.status === status).length).padStart(7)).join(" ")}`);
    }
  }
  lines.push("", `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped${report.noted > 0 ? `, ${report.noted} noted` : ""} in ${(report.durationMs / 1000).toFixed(1)} s`);
  return `${lines.join("\n")}\n`;
}

/** The report as text for a person: the heading, each result, and the summary. */
export function formatReport(report: CheckReport): string {
  return reportHeading(report.agent) + report.results.map(formatResult).join("") + formatSummary(report);
}

/**
 * Runs the check and throws an Error with the report's text when a scenario failed, so that it
 * can be a test in any runner (vitest, jest, node:test): `it("conforms", () => expectAcpAgentToConform({...}))`.
 * Resolves with the report otherwise.
 */
export async function expectAcpAgentToConform(options: CheckAcpAgentOptions): Promise<CheckReport> {
  const report = await checkAcpAgent(options);
  if (report.failed > 0) {
    throw new Error(`The agent failed ${report.failed} ACP conformance scenario${report.failed === 1 ? "" : "s"}.\n\n${formatReport(report)}`);
  }
  return report;
}
