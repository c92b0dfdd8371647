// The better-sqlite3 driver: a compiled addon, an optional dependency kept for Node versions
// without node:sqlite (Node 20). Its types come from @types/better-sqlite3, used here only.

import { createRequire } from "node:module";

import type BetterSqlite3 from "better-sqlite3";

import type { SqliteConnection, SqliteOpener, SqliteStatement } from "./sqlite-connection.js";

const requireModule = createRequire(import.meta.url);

/**
 * Loads better-sqlite3 and its native addon, and returns its opener; throws when the package is
 * missing or its addon was never built (install scripts blocked) or built for another Node.
 */
export function loadBetterSqlite3(): SqliteOpener {
  const Database = requireModule("better-sqlite3") as typeof BetterSqlite3;
  // The addon loads with the first database, so open one in memory to know it works.
  new Database(":memory:").close();
  return (path) => connect(new Database(path));
}

function connect(database: BetterSqlite3.Database): SqliteConnection {
  return {
    driver: "better-sqlite3",
    exec: (sql) => void database.exec(sql),
    prepare: (sql) => wrap(database.prepare(sql)),
    close: () => void database.close(),
  };
}

function wrap(statement: BetterSqlite3.Statement): SqliteStatement {
  return {
    get: (parameters) => (parameters ? statement.get(parameters) : statement.get()),
    all: (parameters) => (parameters ? statement.all(parameters) : statement.all()),
    run: (parameters) => void (parameters ? statement.run(parameters) : statement.run()),
    iterate: (parameters) => (parameters ? statement.iterate(parameters) : statement.iterate()),
  };
}
