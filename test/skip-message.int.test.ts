// Without WEFT_TEST_POSTGRES_URL and WEFT_TEST_REDIS_URL, `npm test` skips the suites that need those
// servers and says so, with how to run them.

import { spawnSync } from "node:child_process";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { repoRoot } from "./support/agent-process.js";

describe("the test run", () => {
  it("says which server suites it skips and how to run them", () => {
    const result = spawnSync(process.execPath, [join(repoRoot, "node_modules/vitest/vitest.mjs"), "run", "src/stores/redis/redis-store.int.test.ts"], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...process.env, WEFT_TEST_POSTGRES_URL: undefined, WEFT_TEST_REDIS_URL: undefined, FORCE_COLOR: "0" },
    });
    expect(result.status).toBe(0);
    // eslint-disable-next-line no-control-regex -- colour codes
    const output = (result.stdout + result.stderr).replace(/\x1b\[[0-9;]*m/g, "");
    expect(output).toContain("skipping the Postgres suites: set WEFT_TEST_POSTGRES_URL");
    expect(output).toContain("skipping the Redis suites: set WEFT_TEST_REDIS_URL (for example redis://127.0.0.1:6379) or run bash .ci/run");
    expect(output).toMatch(/Tests\s+\d+ skipped/);
  });
});
