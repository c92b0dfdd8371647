// The kit checks itself: its example agent (test/fixtures/conformance-agent.ts, written on the
// ACP SDK, not on weft) passes every scenario when clean, and with each of its deliberate bugs
// switched on alone fails exactly the scenarios the bug is meant for, each failure with its
// problem and the wire line that shows it, and passes all the others.
//
// Every check runs the whole list of scenarios, so that "exactly" means what it says. To keep the
// time down the agent is bundled once (a node start without tsx's compile is about a second
// shorter, and a check starts the agent some 25 times) and three checks run at once: each has its
// own model servers, home and state folder, and most of a check's time is spent waiting.
// The checks start in beforeAll; each test awaits its own.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fixturesDir } from "../../../test/support/agent-process.js";
import { checkAcpAgent, type CheckReport, formatReport, SCENARIO_IDS } from "./check-acp-agent.js";

/** Each deliberate bug, the scenarios it must fail, and what the wire line of each failure shows. */
const BUGS: Record<string, Record<string, RegExp>> = {
  // The empty closing chunk, sent after the answer (of a closed session's prompt too, so after the close answer).
  "late-updates": { "answer-order": /"sessionUpdate":"agent_message_chunk","content":\{"type":"text","text":""\}/, "close-running": /"sessionUpdate":"agent_message_chunk","content":\{"type":"text","text":""\}/ },
  // The whole reply in one chunk.
  "no-streaming": { streaming: /"sessionUpdate":"agent_message_chunk","content":\{"type":"text","text":"[^"]+ [^"]+ [^"]+"/ },
  // The cancelled prompts answered end_turn.
  "ignore-cancel": { "cancel-streaming": /"result":\{"stopReason":"end_turn"\}/, "cancel-permission": /"result":\{"stopReason":"end_turn"\}/ },
  // The rejected write ran to completion.
  "wrong-permission": { "permission-reject": /"sessionUpdate":"tool_call_update".*"status":"completed"/ },
  "allow-on-error": { "permission-error": /"sessionUpdate":"tool_call_update".*"status":"completed"/ },
  // The live line of the tool call the replay dropped (replay-fidelity finds it dropped too).
  "replay-drops-tools": { replay: /"sessionUpdate":"tool_call(_update)?"/, "replay-fidelity": /"sessionUpdate":"tool_call(_update)?"/ },
  // A location not starting with a slash: the kit holds the rule after every scenario, so every
  // scenario with a tool call fails, on that call's first line.
  "relative-paths": Object.fromEntries(
    ["tool-calls", "permission-allow", "permission-reject", "permission-error", "cancel-permission", "replay", "schema", "always-remembered", "replay-fidelity", "permission-diff", "fs-read"].map((id) => [id, /"locations":\[\{"path":"[^/"]/]),
  ),
  // The title as an object.
  "bad-schema": { schema: /"sessionUpdate":"session_info_update","title":\{/ },
  // The version that does not exist, echoed.
  "echo-version": { initialize: /"result":\{"protocolVersion":99,/ },
  // Not a bug: 2 for 99, -32022 for 0, as the SDK's schema allows. It fails nothing.
  "v2-versions": {},
  // The second write's permission request, asked after an "always" answer.
  "forget-always": { "always-remembered": /"method":"session\/request_permission"/ },
  // The replayed tool call, without its locations and content.
  "replay-drops-content": { "replay-fidelity": /"sessionUpdate":"tool_call","toolCallId":"[^"]+","title":"[^"]+","kind":"edit","status":"completed"\}/ },
  // The permission request whose toolCall is its id alone.
  "bare-permission": { "permission-diff": /"toolCall":\{"toolCallId":"[^"]+"\},/ },
  // The read's result, with no fs/read_text_file request before it.
  "fs-read-disk": { "fs-read": /"sessionUpdate":"tool_call_update".*"status":"completed"/ },
  // The prompt's answer, with no plan update in the turn.
  "silent-plan": { "plan-updates": /"result":\{"stopReason":"end_turn"\}/ },
  // The session surface's. The closed session's prompt, run to its end.
  "close-keeps-running": { "close-running": /"result":\{"stopReason":"end_turn"\}/ },
  // The list for one directory with a session of another in it.
  "list-ignores-cwd": { "list-by-cwd": /"result":\{"sessions":\[.*"cwd":"[^"]*\/projects\/(?!list-by-cwd\/here")/ },
  // The commands, before the session/new answer.
  "early-commands": { "commands-after-new": /"sessionUpdate":"available_commands_update"/ },
  // The set_config_option answer with the old value.
  "stale-config": { "config-options": /"result":\{"configOptions":\[\{"id":"writes"[^\]]*"currentValue":"ask"/ },
  // The reply's 7 tokens as the window.
  "usage-over-window": { "usage-bounds": /"sessionUpdate":"usage_update","used":\d+,"size":7\}/ },
  // The list's entry without the title.
  "list-drops-title": { "title-in-list": /"sessions":\[.*\{"sessionId":"[^"]+","cwd":"[^"]*\/projects\/title-in-list","updatedAt":"[^"]+"\}/ },
};

let folder: string;
let agentFile: string;
const reports = new Map<string, Promise<CheckReport>>();

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "weft-self-check-"));
  agentFile = join(folder, "conformance-agent.mjs");
  await build({
    entryPoints: [join(fixturesDir, "conformance-agent.ts")],
    outfile: agentFile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
    // Some dependencies are CommonJS and `require` node's modules.
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  });
  const running = limit(3);
  for (const bugs of ["", ...Object.keys(BUGS)]) {
    const report = running(() => checkAcpAgent({ command: process.execPath, args: [agentFile], env: { CONFORMANCE_AGENT_BUGS: bugs } }));
    // Awaited by its test; until then a rejection is not "unhandled".
    report.catch(() => {});
    reports.set(bugs, report);
  }
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The report for `bugs`, once its check has run. */
async function reportFor(bugs: string): Promise<CheckReport> {
  const report = await (reports.get(bugs) as Promise<CheckReport>);
  process.stderr.write(`CONFORMANCE_AGENT_BUGS=${bugs || "(none)"}\n${formatReport(report)}`);
  return report;
}

/** Runs tasks given to it, at most `count` at a time. */
function limit(count: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    while (active >= count) {
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

describe("the conformance kit against its example agent", () => {
  it("passes the clean agent on every scenario, none skipped", { timeout: 400_000 }, async () => {
    const report = await reportFor("");
    expect(report.results.map((result) => result.id)).toEqual(SCENARIO_IDS);
    expect(report.results.filter((result) => result.status !== "passed"), formatReport(report)).toEqual([]);
  });

  it.each(Object.entries(BUGS))("catches %s in exactly the scenarios meant for it", { timeout: 400_000 }, async (bug, caughtBy) => {
    const report = await reportFor(bug);
    expect(report.results.map((result) => result.id)).toEqual(SCENARIO_IDS);
    // A product scenario that catches a bug notes it (ACP does not require it); any other fails.
    const failed = report.results.filter((result) => result.status === "failed" || result.status === "noted");
    expect(failed.map((result) => result.id), formatReport(report)).toEqual(SCENARIO_IDS.filter((id) => id in caughtBy));
    expect(report.results.filter((result) => result.status === "skipped"), formatReport(report)).toEqual([]);
    for (const result of failed) {
      expect(result.status, result.id).toBe(result.tier === "product" ? "noted" : "failed");
      expect(result.problem, result.id).toMatch(/\w/);
      // Every one of these bugs is on the wire, so each failure quotes the line that shows it.
      expect(result.line, result.id).toMatch(caughtBy[result.id] as RegExp);
    }
  });
});
