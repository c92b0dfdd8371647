import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts", "scratch/**/*.test.ts"],
    // Says which server-backed suites are skipped, and why, before the run starts.
    globalSetup: ["test/support/announce-skips.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits on something an agent process does; on a loaded machine that can take more
    // than the default second.
    expect: { poll: { timeout: 15_000 } },
    // Integration tests spawn agents and talk to real servers; two cores are all we have.
    maxWorkers: 2,
  },
});
