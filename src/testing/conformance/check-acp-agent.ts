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
import { type Scenario, type ScenarioContext, Verdict } from "./scenario.js";
import { sessionScenarios } from "./session-scenarios.js";
import { surfaceScenarios } from "./surface-scenarios.js";
import { toolScenarios } from "./tool-scenarios.js";
import { turnScenarios } from "./turn-scenarios.js";

const SCENARIOS: Scenario[] = [...turnScenarios, ...toolScenarios, ...sessionScenarios, ...surfaceScenarios];

/** The ids of the scenarios, in the order they run. */
export const SCENARIO_IDS: readonly string[] = SCENARIOS.map((scenario) => scenario.id);

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
}

export interface ScenarioResult {
  id: string;
  status: "passed" | "failed" | "skipped";
  /** Why it failed: the first problem seen. */
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
  durationMs: number;
}

/** Runs the scenarios against the agent; resolves with the report (it never rejects for the agent's faults). */
export async function checkAcpAgent(options: CheckAcpAgentOptions): Promise<CheckReport> {
  const unknown = (options.scenarios ?? []).filter((id) => !SCENARIO_IDS.includes(id));
  if (unknown.length > 0) {
    throw new Error(`Unknown scenario ${unknown.join(", ")}; the scenarios are ${SCENARIO_IDS.join(", ")}.`);
  }
  const started = performance.now();
  const chosen = options.scenarios ? SCENARIOS.filter((scenario) => options.scenarios?.includes(scenario.id)) : SCENARIOS;
  const home = mkdtempSync(join(tmpdir(), "weft-check-"));
  const model = await ConformanceModel.start();
  const agentLines: Array<{ line: WireLine; run: AgentRun }> = [];
  const results: ScenarioResult[] = [];
  try {
    for (const directory of ["home", "state", "config"]) {
      mkdirSync(join(home, directory));
    }
    for (const [index, scenario] of chosen.entries()) {
      const project = join(home, "projects", scenario.id);
      mkdirSync(project, { recursive: true });
      const places = { model: model.url, model_v1: model.v1, home, project };
      const command: AgentCommand = {
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
      results.push(await runScenario(scenario, { command, model, project, token: `cc${index}x${Math.random().toString(36).slice(2, 8)}`, waitMs: options.timeoutMs ?? 20_000, agentLines }));
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
    durationMs: Math.round(performance.now() - started),
  };
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
  };
  const unservedBefore = setup.model.unserved.length;
  let result: Omit<ScenarioResult, "durationMs">;
  try {
    await scenario.run(context);
    result = { id: scenario.id, status: "passed" };
  } catch (error) {
    if (error instanceof Verdict && error.status === "skipped") {
      result = { id: scenario.id, status: "skipped", reason: error.message };
    } else if (error instanceof Verdict) {
      result = { id: scenario.id, status: "failed", problem: error.message, ...(error.line ? { line: error.line.text.trim() } : {}) };
    } else {
      result = { id: scenario.id, status: "failed", problem: (error as Error).message };
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
  const unserved = setup.model.unserved.slice(unservedBefore);
  if (unserved.length > 0 && result.status !== "passed") {
    // The agent's model calls went where the check serves nothing: say so rather than blame the agent.
    const calls = [...new Set(unserved.map((call) => `${call.method} ${call.url}${call.api ? ` (${call.api})` : ""}`))].join(", ");
    const hints = [...new Set(unserved.map((call) => call.hint))].join(" ");
    result = { id: scenario.id, status: "failed", problem: `the agent's model calls did not reach the fake model: ${calls}. ${hints}\nWhat the scenario saw: ${result.problem ?? result.reason ?? ""}` };
  }
  return { ...result, durationMs: Math.round(performance.now() - started) };
}

/** The report as text for a person: one line a scenario, then the problem and its wire line under each failure. */
export function formatReport(report: CheckReport): string {
  const mark = { passed: "pass", failed: "FAIL", skipped: "skip" } as const;
  const lines = [`ACP conformance check of ${report.agent}`, ""];
  for (const result of report.results) {
    lines.push(`  ${mark[result.status]}  ${result.id}${result.status === "skipped" ? `: ${result.reason ?? ""}` : ""}`);
    if (result.status === "failed") {
      lines.push(...(result.problem ?? "").split("\n").map((line) => `        ${line}`));
      if (result.line) {
        lines.push(`        wire line: ${result.line.length > 600 ? `${result.line.slice(0, 600)}…` : result.line}`);
      }
    }
  }
  lines.push("", `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped in ${(report.durationMs / 1000).toFixed(1)} s`);
  return `${lines.join("\n")}\n`;
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
