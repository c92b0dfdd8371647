// `weft check -- <agent command…>`: the ACP conformance check of any agent, from the command line.
// Prints each scenario's line as it finishes and a summary (or the whole report as JSON with
// --json); exits 0 only when no scenario failed.

import { checkAcpAgent, formatResult, formatSummary, reportHeading, SCENARIO_IDS, SCENARIO_TIERS } from "../testing/conformance/check-acp-agent.js";
import { type Tier, TIERS } from "../testing/conformance/scenario.js";
import { UsageError } from "./usage-error.js";

export interface CheckFlags {
  json?: boolean | undefined;
  env?: string[] | undefined;
  scenario?: string[] | undefined;
  only?: string[] | undefined;
  tier?: string[] | undefined;
  list?: boolean | undefined;
  timeout?: string | undefined;
}

export async function runCheck(flags: CheckFlags, command: readonly string[]): Promise<number> {
  if (flags.list) {
    process.stdout.write(SCENARIO_TIERS.map(({ id, tier }) => `${tier.padEnd(8)} ${id}\n`).join(""));
    return 0;
  }
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
  const only = [...(flags.scenario ?? []), ...(flags.only ?? []).flatMap((list) => list.split(","))].map((id) => id.trim()).filter(Boolean);
  const unknown = only.filter((id) => !SCENARIO_IDS.includes(id));
  if (unknown.length > 0) {
    throw new UsageError(`unknown scenario ${unknown.map((id) => JSON.stringify(id)).join(", ")}; the scenarios are ${SCENARIO_IDS.join(", ")}`);
  }
  const tiers = (flags.tier ?? []).flatMap((list) => list.split(",")).map((tier) => tier.trim());
  const unknownTier = tiers.filter((tier) => !(TIERS as readonly string[]).includes(tier));
  if (unknownTier.length > 0) {
    throw new UsageError(`unknown tier ${unknownTier.map((tier) => JSON.stringify(tier)).join(", ")}; the tiers are ${TIERS.join(", ")}`);
  }
  const seconds = flags.timeout === undefined ? undefined : Number(flags.timeout);
  if (seconds !== undefined && !(seconds > 0)) {
    throw new UsageError(`--timeout takes a number of seconds, not ${JSON.stringify(flags.timeout)}`);
  }
  if (!flags.json) {
    process.stdout.write(reportHeading([program, ...args].join(" ")));
  }
  const report = await checkAcpAgent({
    command: program,
    args,
    env,
    ...(only.length > 0 ? { scenarios: only } : {}),
    ...(tiers.length > 0 ? { tiers: tiers as Tier[] } : {}),
    ...(seconds !== undefined ? { timeoutMs: seconds * 1000 } : {}),
    // A line per scenario as it finishes: a whole check takes a minute or more.
    ...(flags.json ? {} : { onResult: (result) => process.stdout.write(formatResult(result)) }),
  });
  process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatSummary(report));
  return report.failed > 0 ? 1 : 0;
}
