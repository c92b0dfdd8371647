// The kit against `weft acp` itself (the built bin): weft is the reference, so it passes every
// scenario, none skipped. The report's time is printed for the record.

import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { repoRoot } from "../../../test/support/agent-process.js";
import { checkAcpAgent, formatReport, SCENARIO_IDS } from "./check-acp-agent.js";

describe("checkAcpAgent against weft acp", () => {
  it("passes every scenario, none skipped", { timeout: 240_000 }, async () => {
    const report = await checkAcpAgent({ command: process.execPath, args: [join(repoRoot, "bin/weft.js"), "acp"] });
    process.stderr.write(formatReport(report));
    expect(report.results.map((result) => result.id)).toEqual(SCENARIO_IDS);
    expect(report.results.filter((result) => result.status !== "passed"), formatReport(report)).toEqual([]);
    expect(report).toMatchObject({ passed: SCENARIO_IDS.length, failed: 0, skipped: 0 });
  });
});
