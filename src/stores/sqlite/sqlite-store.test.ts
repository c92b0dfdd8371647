import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { StoreBusyError, StoreUnavailableError } from "../../errors/store-errors.js";
import { WeftError } from "../../errors/weft-error.js";
import { describeStoreContract } from "../../../test/contracts/store-contract.js";
import type { SqliteDriverName } from "./sqlite-connection.js";
import { sqliteDrivers, sqliteOpener } from "./sqlite-driver.js";
import { SqliteStore } from "./sqlite-store.js";
import { SqliteUnavailableError } from "./sqlite-unavailable-error.js";

const dir = mkdtempSync(join(tmpdir(), "weft-sqlite-"));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fresh = (name: string) => join(dir, `${name}-${files++}.db`);

/** Why a driver cannot load here (node:sqlite before Node 22.13, better-sqlite3 not installed or not built), or undefined. */
function whyNot(driver: SqliteDriverName): string | undefined {
  try {
    sqliteOpener(driver);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const unavailable = new Map(sqliteDrivers.map((driver) => [driver, whyNot(driver)]));

for (const driver of sqliteDrivers) {
  const skip = unavailable.get(driver);
  describeStoreContract({ name: `sqlite on ${driver}`, create: async () => new SqliteStore({ path: fresh("contract"), driver }), ...(skip ? { skip } : {}) });

  describe.skipIf(skip !== undefined)(`SqliteStore on ${driver}${skip ? ` (skipped: ${skip})` : ""}`, () => {
    it("uses WAL and shares one file between two connections", async () => {
      const path = fresh("shared");
      const first = new SqliteStore({ path, driver });
      const second = new SqliteStore({ path, driver });
      try {
        expect(first.driver).toBe(driver);
        await first.put(["a"], "k", 1);
        expect(existsSync(`${path}-wal`)).toBe(true);
        expect((await second.get(["a"], "k"))?.value).toBe(1);
        const [one, two] = await Promise.all([first.compareAndPut(["a"], "k", 2, { expected: 1 }), second.compareAndPut(["a"], "k", 3, { expected: 1 })]);
        expect([one, two].filter((revision) => revision !== undefined)).toEqual([2]);
      } finally {
        await first.close();
        await second.close();
      }
    });

    it("gives a statement's rows as arrays in its column order, and as objects again afterwards", () => {
      const connection = sqliteOpener(driver)(":memory:");
      try {
        connection.exec("CREATE TABLE t (b TEXT, a INTEGER, c TEXT)");
        connection.prepare("INSERT INTO t (b, a, c) VALUES (@b, @a, @c)").run({ b: "one", a: 1, c: "x" });
        connection.prepare("INSERT INTO t (b, a, c) VALUES (@b, @a, @c)").run({ b: "two", a: 2, c: "y" });
        const statement = connection.prepare("SELECT c, a, b FROM t WHERE a >= @least ORDER BY a");
        expect(statement.rows({ least: 1 })).toEqual([
          ["x", 1, "one"],
          ["y", 2, "two"],
        ]);
        expect(statement.all({ least: 2 })).toEqual([{ c: "y", a: 2, b: "two" }]);
      } finally {
        connection.close();
      }
    });

    it("says the file is busy, not that the store is unavailable, when another connection keeps its lock past the busy timeout", async () => {
      const path = fresh("locked");
      await new SqliteStore({ path, driver }).close();
      const store = new SqliteStore({ path, driver, busyTimeoutMs: 0 });
      const holder = sqliteOpener(driver)(path);
      try {
        holder.exec("BEGIN IMMEDIATE");
        const refused = await store.put(["a"], "k", 1).catch((error: unknown) => error);
        expect(StoreBusyError.isInstance(refused)).toBe(true);
        expect(StoreUnavailableError.isInstance(refused)).toBe(false);
        expect((refused as StoreBusyError).code).toBe("store_busy");
        expect((refused as Error).message).toMatch(/^The sqlite store is busy: another connection held the database file's lock for longer than the busy timeout \(0 s\): database is locked$/);
        holder.exec("ROLLBACK");
        // Nothing was written, and the same call works once the lock is let go.
        expect(await store.get(["a"], "k")).toBeUndefined();
        await store.put(["a"], "k", 1);
        expect((await store.get(["a"], "k"))?.value).toBe(1);
      } finally {
        holder.close();
        await store.close();
      }
    });

    it("records its migrations once, however often it is opened", async () => {
      const path = fresh("migrated");
      await new SqliteStore({ path, driver }).close();
      await new SqliteStore({ path, driver }).close();
      const connection = sqliteOpener(driver)(path);
      try {
        expect(connection.prepare("SELECT version FROM weft_migrations").all()).toEqual([{ version: 1 }]);
      } finally {
        connection.close();
      }
    });
  });
}

describe("SqliteStore drivers", () => {
  it("uses node:sqlite where it loads, else better-sqlite3", async () => {
    const expected = sqliteDrivers.find((driver) => unavailable.get(driver) === undefined);
    if (!expected) {
      expect(() => new SqliteStore({ path: fresh("default") })).toThrow(SqliteUnavailableError);
      return;
    }
    const store = new SqliteStore({ path: fresh("default") });
    try {
      expect(store.driver).toBe(expected);
    } finally {
      await store.close();
    }
  });

  const both = [...unavailable.values()].every((reason) => reason === undefined);
  it.skipIf(!both)(`reads with one driver what the other wrote${both ? "" : " (skipped: needs both drivers, and one does not load here)"}`, async () => {
    const path = fresh("both");
    const writer = new SqliteStore({ path, driver: "better-sqlite3" });
    await writer.put(["docs"], "a", { text: "written by better-sqlite3" }, { ttlMs: 60_000 });
    await writer.close();
    const reader = new SqliteStore({ path, driver: "node:sqlite" });
    try {
      expect((await reader.get(["docs"], "a"))?.value).toEqual({ text: "written by better-sqlite3" });
      expect(await reader.compareAndPut(["docs"], "a", { text: "and then by node:sqlite" }, { expected: 1 })).toBe(2);
    } finally {
      await reader.close();
    }
  });

  const missing = sqliteDrivers.find((driver) => unavailable.get(driver) !== undefined);
  it.skipIf(!missing)(`says plainly why a driver that cannot load here did not${missing ? "" : " (skipped: every driver loads here)"}`, () => {
    const driver = missing as SqliteDriverName;
    const path = fresh("missing");
    let thrown: unknown;
    try {
      new SqliteStore({ path, driver });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SqliteUnavailableError);
    expect(WeftError.isInstance(thrown) && thrown.code).toBe("sqlite_unavailable");
    const message = (thrown as Error).message;
    expect(message).toMatch(/^No SQLite driver could load\. /);
    expect(message).toContain(`${driver}: `);
    expect(message).not.toContain("Could not locate the bindings file");
    expect(message).toContain(driver === "node:sqlite" ? `node:sqlite: Node ${process.versions.node} does not have it` : "better-sqlite3: ");
    expect((thrown as SqliteUnavailableError).failures.map((failure) => failure.driver)).toEqual([driver]);
    // Nothing was created for a store that never opened.
    expect(existsSync(path)).toBe(false);
  });

  it("refuses a driver it does not know", () => {
    expect(() => new SqliteStore({ path: fresh("unknown"), driver: "sqlite3" as SqliteDriverName })).toThrow(/Unknown SQLite driver "sqlite3"/);
  });
});
