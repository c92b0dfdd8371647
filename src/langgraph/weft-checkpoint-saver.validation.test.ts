// LangGraph's checkpointer conformance suite on WeftCheckpointSaver over the in-process store and
// SQLite (a temp file). Each saver the suite creates gets a namespace of its own, so no state
// leaks from one to the next.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll } from "vitest";

import { validateSaver } from "../../test/support/checkpoint-validation.js";
import { MemoryStore } from "../store-core/memory-store.js";
import { SqliteStore } from "../stores/sqlite/sqlite-store.js";
import { WeftCheckpointSaver } from "./weft-checkpoint-saver.js";

validateSaver({ name: "weft-memory", create: async () => new WeftCheckpointSaver(new MemoryStore()) });

const dir = mkdtempSync(join(tmpdir(), "weft-langgraph-"));
const sqlite = new SqliteStore({ path: join(dir, "checkpoints.db") });
let instances = 0;

afterAll(async () => {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

validateSaver({ name: "weft-sqlite", create: async () => new WeftCheckpointSaver(sqlite, { namespace: ["validation", `saver-${++instances}`] }) });
