// The statement adapter both drivers share, over a real better-sqlite3 statement: rows as arrays
// by switching the statement, and from each row's object where a driver cannot switch (node:sqlite
// before Node 22.16), in the order of the columns either way.

import { createRequire } from "node:module";

import type BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";

import { adaptStatement } from "./driver-statement.js";

/** better-sqlite3, or undefined where it is not installed or its addon was never built. */
const Database = ((): typeof BetterSqlite3 | undefined => {
  try {
    const loaded = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
    new loaded(":memory:").close();
    return loaded;
  } catch {
    return undefined;
  }
})();

function table(): BetterSqlite3.Database {
  const database = new (Database as typeof BetterSqlite3)(":memory:");
  database.exec("CREATE TABLE t (b TEXT, a INTEGER); INSERT INTO t VALUES ('one', 1), ('two', 2);");
  return database;
}

describe.skipIf(Database === undefined)(`adaptStatement${Database ? "" : " (skipped: better-sqlite3 does not load here)"}`, () => {
  it("gives rows as arrays in column order, switching the statement back after, with and without parameters", () => {
    const database = table();
    const statement = database.prepare("SELECT b, a FROM t WHERE a >= @least ORDER BY a");
    const switched: boolean[] = [];
    const adapted = adaptStatement(statement, (enabled) => {
      switched.push(enabled);
      statement.raw(enabled);
    });
    expect(adapted.rows({ least: 2 })).toEqual([["two", 2]]);
    expect(adapted.all({ least: 1 })).toEqual([{ b: "one", a: 1 }, { b: "two", a: 2 }]);
    expect(switched).toEqual([true, false]);
    const all = adaptStatement(database.prepare("SELECT b, a FROM t ORDER BY a"), undefined);
    expect(all.rows()).toEqual([["one", 1], ["two", 2]]);
    expect(all.get()).toEqual({ b: "one", a: 1 });
    expect([...all.iterate()]).toHaveLength(2);
    database.close();
  });

  it("makes rows from each row's object where the driver cannot switch", () => {
    const database = table();
    const adapted = adaptStatement(database.prepare("SELECT a, b FROM t ORDER BY a"), undefined);
    expect(adapted.rows()).toEqual([[1, "one"], [2, "two"]]);
    adaptStatement(database.prepare("INSERT INTO t VALUES (@b, @a)"), undefined).run({ b: "three", a: 3 });
    expect(adapted.rows()).toHaveLength(3);
    database.close();
  });
});
