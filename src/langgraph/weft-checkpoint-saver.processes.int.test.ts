// Two processes write LangGraph threads of their own into one store at once, through
// WeftCheckpointSaver, on SQLite (one file), Postgres and Redis; a third handle then reads every
// thread back whole.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, it } from "vitest";

import { expectThreadsFromTwoProcesses } from "../../test/support/checkpointer-scenarios.js";
import { cleanUpStores, storesUnderTest } from "../../test/support/servers.js";
import { openStore } from "../stores/open-store.js";
import { WeftCheckpointSaver } from "./weft-checkpoint-saver.js";

const dir = mkdtempSync(join(tmpdir(), "weft-langgraph-processes-"));
const specs: string[] = [];

afterAll(async () => {
  await cleanUpStores(specs);
  rmSync(dir, { recursive: true, force: true });
});

for (const driver of storesUnderTest(() => dir)) {
  describe.skipIf(driver.skip !== undefined)(`WeftCheckpointSaver on ${driver.name}${driver.skip ? ` (skipped: ${driver.skip})` : ""}`, () => {
    it("keeps the threads two processes write at once apart and whole", async () => {
      const spec = driver.spec();
      specs.push(spec);
      const store = await openStore(spec);
      try {
        await expectThreadsFromTwoProcesses(spec, new WeftCheckpointSaver(store, { namespace: ["graph", "processes"] }));
      } finally {
        await store.close?.();
      }
    });
  });
}
