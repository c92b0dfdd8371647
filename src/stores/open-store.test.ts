import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { openStore } from "./open-store.js";
import type { SqliteDriverName } from "./sqlite/sqlite-connection.js";
import { sqliteDrivers, sqliteOpener } from "./sqlite/sqlite-driver.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import { SqliteUnavailableError } from "./sqlite/sqlite-unavailable-error.js";

const dir = mkdtempSync(join(tmpdir(), "weft-open-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function loads(driver: SqliteDriverName): boolean {
  try {
    sqliteOpener(driver);
    return true;
  } catch {
    return false;
  }
}

describe("openStore", () => {
  it("opens a SQLite file on the driver asked for", async () => {
    const driver = sqliteDrivers.find(loads);
    if (!driver) {
      await expect(openStore(join(dir, "none.db"))).rejects.toBeInstanceOf(SqliteUnavailableError);
      return;
    }
    const store = await openStore(`sqlite:${join(dir, "chosen.db")}`, { sqliteDriver: driver });
    try {
      expect(store).toBeInstanceOf(SqliteStore);
      expect((store as SqliteStore).driver).toBe(driver);
    } finally {
      await store.close?.();
    }
  });

  const missing = sqliteDrivers.find((driver) => !loads(driver));
  it.skipIf(!missing)(`names --sessions memory when no SQLite driver loads${missing ? "" : " (skipped: every SQLite driver loads here)"}`, async () => {
    const failure = await openStore(join(dir, "missing.db"), { sqliteDriver: missing as SqliteDriverName }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SqliteUnavailableError);
    expect((failure as Error).message).toMatch(/^No SQLite driver could load\. .* Or keep sessions in memory while the agent runs: --sessions memory \(or WEFT_SESSIONS=memory\)\.$/);
  });
});
