// The kit against `weft acp` itself (the built bin): weft is the reference, so it passes every
// scenario, none skipped. The report's time is printed for the record. And --env's places: an
// agent pointed at the fake through them reaches it, and one pointed where the fake serves
// nothing is told so, with the call it made.

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

  const weft = { command: process.execPath, args: [join(repoRoot, "bin/weft.js"), "acp"] };

  it("puts the fake's origin in --env values that name {model_v1}", async () => {
    const report = await checkAcpAgent({ ...weft, env: { WEFT_BASE_URL: "{model_v1}" }, scenarios: ["streaming"] });
    expect(report.results, formatReport(report)).toMatchObject([{ id: "streaming", status: "passed" }]);
  });

  it("says which model call the fake could not serve, not that the agent never called the model", async () => {
    const report = await checkAcpAgent({ ...weft, env: { WEFT_BASE_URL: "{model}/v2" }, scenarios: ["streaming"] });
    expect(report.results).toMatchObject([{ id: "streaming", status: "failed" }]);
    const problem = report.results[0]?.problem ?? "";
    expect(problem).toMatch(/^the agent's model calls did not reach the fake model: POST \/v2\/chat\/completions \(Chat Completions\)\. An OpenAI client's base URL should be http:\/\/127\.0\.0\.1:\d+\/v1 /);
    expect(problem).toContain("What the scenario saw: the agent answered without calling the model.");
  });
});
