// The one adapter from a driver's prepared statement to SqliteStatement. node:sqlite's and
// better-sqlite3's statements take named parameters or nothing (never `undefined` in their place),
// and both can be switched to give rows as arrays.

import type { SqliteParameters, SqliteStatement } from "./sqlite-connection.js";

/** A driver's prepared statement, as both drivers have it. */
export interface DriverStatement {
  get(parameters?: SqliteParameters): unknown;
  all(parameters?: SqliteParameters): unknown[];
  run(parameters?: SqliteParameters): unknown;
  iterate(parameters?: SqliteParameters): IterableIterator<unknown>;
}

/**
 * `statement` as a SqliteStatement. `returnArrays` switches it to rows as arrays and back; where the
 * driver cannot (node:sqlite before Node 22.16), `rows()` takes the values of each row's object,
 * which keep the order of the columns.
 */
export function adaptStatement(statement: DriverStatement, returnArrays: ((enabled: boolean) => void) | undefined): SqliteStatement {
  const all = (parameters?: SqliteParameters): unknown[] => (parameters ? statement.all(parameters) : statement.all());
  return {
    get: (parameters) => (parameters ? statement.get(parameters) : statement.get()),
    all,
    rows: (parameters) => {
      if (!returnArrays) {
        return all(parameters).map((row) => Object.values(row as Record<string, unknown>));
      }
      returnArrays(true);
      try {
        return all(parameters) as unknown[][];
      } finally {
        returnArrays(false);
      }
    },
    run: (parameters) => void (parameters ? statement.run(parameters) : statement.run()),
    iterate: (parameters) => (parameters ? statement.iterate(parameters) : statement.iterate()),
  };
}
