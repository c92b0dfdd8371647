import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { describeStoreContract } from "../store-contract.js";
import { SqliteStore } from "./sqlite-store.js";

const dir = mkdtempSync(join(tmpdir(), "weft-sqlite-"));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreContract({ name: "sqlite", create: async () => new SqliteStore({ path: join(dir, `contract-${files++}.db`) }) });

describe("SqliteStore", () => {
  it("uses WAL and shares one file between two connections", async () => {
    const path = join(dir, "shared.db");
    const first = new SqliteStore({ path });
    const second = new SqliteStore({ path });
    try {
      expect(first.db.pragma("journal_mode", { simple: true })).toBe("wal");
      await first.put(["a"], "k", 1);
      expect((await second.get(["a"], "k"))?.value).toBe(1);
      const [one, two] = await Promise.all([first.compareAndPut(["a"], "k", 2, { expected: 1 }), second.compareAndPut(["a"], "k", 3, { expected: 1 })]);
      expect([one, two].filter((revision) => revision !== undefined)).toEqual([2]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("records its migrations once, however often it is opened", async () => {
    const path = join(dir, "migrated.db");
    await new SqliteStore({ path }).close();
    const store = new SqliteStore({ path });
    try {
      expect(store.db.prepare("SELECT version FROM weft_migrations").all()).toEqual([{ version: 1 }]);
    } finally {
      await store.close();
    }
  });
});
