// The node:sqlite driver: SQLite built into Node 22.13 and later, so nothing is compiled at install.
// @types/node 20 has no node:sqlite, so the few parts used here are declared below.

import { createRequire } from "node:module";

import type { SqliteConnection, SqliteOpener, SqliteParameters, SqliteStatement } from "./sqlite-connection.js";

interface StatementSync {
  get(parameters?: SqliteParameters): unknown;
  all(parameters?: SqliteParameters): unknown[];
  /** Node 22.16 and later: rows as arrays instead of objects. */
  setReturnArrays?(enabled: boolean): void;
  run(parameters?: SqliteParameters): unknown;
  iterate(parameters?: SqliteParameters): IterableIterator<unknown>;
}

interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}

interface NodeSqliteModule {
  DatabaseSync: new (path: string) => DatabaseSync;
}

const requireModule = createRequire(import.meta.url);

/**
 * Loads node:sqlite and returns its opener; throws where Node has no node:sqlite. Some Node
 * versions print an ExperimentalWarning when it first loads; that one warning is dropped (an
 * editor shows an agent's stderr to people) and every other warning passes through.
 */
export function loadNodeSqlite(): SqliteOpener {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
    const text = typeof warning === "string" ? warning : warning.message;
    if (type === "ExperimentalWarning" && text.includes("SQLite")) {
      return;
    }
    return (emitWarning as (...parameters: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  let module: NodeSqliteModule;
  try {
    module = requireModule("node:sqlite") as NodeSqliteModule;
  } finally {
    process.emitWarning = emitWarning;
  }
  return (path) => connect(new module.DatabaseSync(path));
}

function connect(database: DatabaseSync): SqliteConnection {
  return {
    driver: "node:sqlite",
    exec: (sql) => database.exec(sql),
    prepare: (sql) => wrap(database.prepare(sql)),
    close: () => database.close(),
  };
}

function wrap(statement: StatementSync): SqliteStatement {
  return {
    get: (parameters) => (parameters ? statement.get(parameters) : statement.get()),
    all: (parameters) => (parameters ? statement.all(parameters) : statement.all()),
    rows: (parameters) => {
      if (!statement.setReturnArrays) {
        // Before Node 22.16: objects, whose values keep the order of the columns.
        return (parameters ? statement.all(parameters) : statement.all()).map((row) => Object.values(row as Record<string, unknown>));
      }
      statement.setReturnArrays(true);
      try {
        return (parameters ? statement.all(parameters) : statement.all()) as unknown[][];
      } finally {
        statement.setReturnArrays(false);
      }
    },
    run: (parameters) => void (parameters ? statement.run(parameters) : statement.run()),
    iterate: (parameters) => (parameters ? statement.iterate(parameters) : statement.iterate()),
  };
}
