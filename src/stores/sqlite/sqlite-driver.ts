// Picks the SQLite driver: node:sqlite where Node has it (22.13 and later), else better-sqlite3.
// Each driver is loaded at most once per process; a driver that failed to load is not retried.

import { loadBetterSqlite3 } from "./better-sqlite3-driver.js";
import { loadNodeSqlite } from "./node-sqlite-driver.js";
import type { SqliteDriverName, SqliteOpener } from "./sqlite-connection.js";
import { type SqliteDriverFailure, SqliteUnavailableError, describeLoadFailure } from "./sqlite-unavailable-error.js";

/** The drivers in the order they are tried. */
export const sqliteDrivers: readonly SqliteDriverName[] = ["node:sqlite", "better-sqlite3"];

const loaders: Record<SqliteDriverName, () => SqliteOpener> = {
  "node:sqlite": loadNodeSqlite,
  "better-sqlite3": loadBetterSqlite3,
};

const loaded = new Map<SqliteDriverName, SqliteOpener | SqliteDriverFailure>();

/**
 * The opener of the first driver that loads, or of `driver` alone when one is given. Throws
 * `SqliteUnavailableError` saying why each driver failed when none loads.
 */
export function sqliteOpener(driver?: SqliteDriverName): SqliteOpener {
  if (driver !== undefined && !sqliteDrivers.includes(driver)) {
    throw new Error(`Unknown SQLite driver ${JSON.stringify(driver)}: use ${sqliteDrivers.map((name) => JSON.stringify(name)).join(" or ")}.`);
  }
  const failures: SqliteDriverFailure[] = [];
  for (const name of driver ? [driver] : sqliteDrivers) {
    const result = load(name);
    if (typeof result === "function") {
      return result;
    }
    failures.push(result);
  }
  throw new SqliteUnavailableError(failures);
}

function load(driver: SqliteDriverName): SqliteOpener | SqliteDriverFailure {
  let result = loaded.get(driver);
  if (!result) {
    try {
      result = loaders[driver]();
    } catch (error) {
      result = { driver, reason: describeLoadFailure(driver, error), error };
    }
    loaded.set(driver, result);
  }
  return result;
}
