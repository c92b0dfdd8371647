// Vitest's global set-up: says once, at the start of the run, which suites will be skipped for want
// of a server, and how to run them. Skipped tests are otherwise only a count in the summary.

import { bwrapSkip } from "./bwrap.js";
import { postgresSkip, redisSkip } from "./servers.js";

export default function announceSkips(): void {
  for (const [name, reason] of [
    ["Postgres", postgresSkip],
    ["Redis", redisSkip],
    ["bubblewrap (confined commands)", bwrapSkip],
  ] as const) {
    if (reason) {
      process.stderr.write(`weft tests: skipping the ${name} suites: ${reason}.\n`);
    }
  }
}
