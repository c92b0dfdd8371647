// What the SQLite store needs from a driver: a connection that runs SQL and prepared statements
// with named parameters. node:sqlite and better-sqlite3 both give it, each behind a small adapter,
// so the store is written once.

/** The drivers the SQLite store can use. */
export type SqliteDriverName = "node:sqlite" | "better-sqlite3";

/**
 * Named parameters, bound by bare name (`{ key: "a" }` binds `@key`). Every name must appear in
 * the statement. Bytes are bound as a blob.
 */
export type SqliteParameters = Readonly<Record<string, string | number | null | Uint8Array>>;

/** A prepared statement. Rows come back as plain objects keyed by column name. */
export interface SqliteStatement {
  /** The first row, or undefined when there is none. */
  get(parameters?: SqliteParameters): unknown;
  all(parameters?: SqliteParameters): unknown[];
  /**
   * Every row as an array of its column values, in the order the statement selects them: cheaper
   * than `all()` when there are many rows, since no object with a property per column is made.
   */
  rows(parameters?: SqliteParameters): unknown[][];
  run(parameters?: SqliteParameters): void;
  /** Rows one at a time; `return()` ends the walk early and frees the statement. */
  iterate(parameters?: SqliteParameters): IterableIterator<unknown>;
}

/** One open database file. All calls are synchronous, as in both drivers. */
export interface SqliteConnection {
  readonly driver: SqliteDriverName;
  /** Runs one or more statements that return nothing (DDL, PRAGMA, BEGIN/COMMIT). */
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** Opens a file (or `:memory:`) with one driver. */
export type SqliteOpener = (path: string) => SqliteConnection;
