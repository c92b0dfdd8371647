// The better-sqlite3 driver: a compiled addon, an optional dependency kept for Node versions
// without node:sqlite (Node 20). Its types come from @types/better-sqlite3, used here only.

import { createRequire } from "node:module";

import type BetterSqlite3 from "better-sqlite3";

import { adaptStatement } from "./driver-statement.js";
import type { SqliteConnection, SqliteOpener } from "./sqlite-connection.js";

const requireModule = createRequire(import.meta.url);

/**
 * Loads better-sqlite3 and its native addon, and returns its opener; throws when the package is
 * missing or its addon was never built (install scripts blocked) or built for another Node.
 */
export function loadBetterSqlite3(): SqliteOpener {
  const Database = requireModule("better-sqlite3") as typeof BetterSqlite3;
  const options: BetterSqlite3.Options = {};
  const addon = builtAddon();
  if (addon) {
    options.nativeBinding = addon;
  }
  // The addon loads with the first database, so open one in memory to know it works.
  new Database(":memory:", options).close();
  return (path) => connect(new Database(path, options));
}

/**
 * Where an install builds the addon, when it is there. Naming it spares the package's search for
 * it (the `bindings` package tries a dozen paths, each a failed require), a few milliseconds on
 * the way to the first session; without it the package searches as usual.
 */
function builtAddon(): string | undefined {
  try {
    return requireModule.resolve("better-sqlite3/build/Release/better_sqlite3.node");
  } catch {
    return undefined;
  }
}

function connect(database: BetterSqlite3.Database): SqliteConnection {
  return {
    driver: "better-sqlite3",
    exec: (sql) => void database.exec(sql),
    prepare: (sql) => {
      const statement = database.prepare(sql);
      return adaptStatement(statement, (enabled) => void statement.raw(enabled));
    },
    close: () => void database.close(),
  };
}
