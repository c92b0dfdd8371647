// `weft check -- <agent command…>`: the ACP conformance check of any agent, from the command line.
// Prints the report as text (or JSON with --json); exits 0 only when no scenario failed.

import { checkAcpAgent, formatReport, SCENARIO_IDS } from "../testing/conformance/index.js";
import { UsageError } from "./usage-error.js";

export interface CheckFlags {
  json?: boolean | undefined;
  env?: string[] | undefined;
  scenario?: string[] | undefined;
  timeout?: string | undefined;
}

export async function runCheck(flags: CheckFlags, command: readonly string[]): Promise<number> {
  const [program, ...args] = command;
  if (program === undefined) {
    throw new UsageError("check needs the agent's command after --, as in weft check -- node dist/my-agent.js");
  }
  const env: Record<string, string> = {};
  for (const pair of flags.env ?? []) {
    const equals = pair.indexOf("=");
    if (equals <= 0) {
      throw new UsageError(`--env takes NAME=value, not ${JSON.stringify(pair)}`);
    }
    env[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  const unknown = (flags.scenario ?? []).filter((id) => !SCENARIO_IDS.includes(id));
  if (unknown.length > 0) {
    throw new UsageError(`unknown scenario ${unknown.map((id) => JSON.stringify(id)).join(", ")}; the scenarios are ${SCENARIO_IDS.join(", ")}`);
  }
  const seconds = flags.timeout === undefined ? undefined : Number(flags.timeout);
  if (seconds !== undefined && !(seconds > 0)) {
    throw new UsageError(`--timeout takes a number of seconds, not ${JSON.stringify(flags.timeout)}`);
  }
  const report = await checkAcpAgent({
    command: program,
    args,
    env,
    ...(flags.scenario?.length ? { scenarios: flags.scenario } : {}),
    ...(seconds !== undefined ? { timeoutMs: seconds * 1000 } : {}),
  });
  process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.failed > 0 ? 1 : 0;
}
