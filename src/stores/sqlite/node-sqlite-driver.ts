// The node:sqlite driver: SQLite built into Node 22.13 and later, so nothing is compiled at install.
// @types/node 20 has no node:sqlite, so the few parts used here are declared below.

import { createRequire } from "node:module";

import { adaptStatement, type DriverStatement } from "./driver-statement.js";
import type { SqliteConnection, SqliteOpener } from "./sqlite-connection.js";

interface StatementSync extends DriverStatement {
  /** Node 22.16 and later: rows as arrays instead of objects. */
  setReturnArrays?(enabled: boolean): void;
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
    prepare: (sql) => {
      const statement = database.prepare(sql);
      return adaptStatement(statement, statement.setReturnArrays?.bind(statement));
    },
    close: () => database.close(),
  };
}
