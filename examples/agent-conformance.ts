// Your agent's conformance check as a test: it fails with the report's text when a scenario
// fails. Any test runner does (vitest, jest); this one is Node's own.
import { test } from "node:test";

import { expectAcpAgentToConform } from "weftjs/testing";

await test("keeps the Agent Client Protocol", { timeout: 300_000 }, async () => {
  await expectAcpAgentToConform({ command: process.execPath, args: ["dist/my-agent.js"], env: { MY_AGENT_LOG: "error" } });
});
