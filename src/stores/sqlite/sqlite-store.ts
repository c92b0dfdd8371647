// The SQLite store: a file any number of local processes can share (WAL mode, a busy timeout,
// writes in IMMEDIATE transactions), with versioned migrations. It is the embedded default: a
// person gets durable sessions with nothing to set up. It runs on node:sqlite where Node has it
// and on better-sqlite3 elsewhere (sqlite-driver.ts); the file is the same either way. Each call
// runs its statements to the end before it yields, so calls never overlap on the connection.

import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

import { StoreUnavailableError } from "../../errors/store-errors.js";
import type { JsonValue } from "../../types/json.js";
import type { CompareAndPutOptions, ListNamespacesOptions, Namespace, PutOptions, SearchOptions, Store, StoreItem } from "../../types/store.js";
import { jsonBytes } from "../../store-core/json-bytes.js";
import { selectNamespaces } from "../../store-core/list-namespaces.js";
import { pageOf, takePage } from "../../store-core/page.js";
import { ITEM_COLUMNS, type ItemRow, type ItemTuple, rowToItem as toItem, tupleToItem } from "../sql-rows.js";
import { checkKey, checkNamespace, decodeNamespace, encodeNamespace, prefixRange } from "../../store-core/namespace.js";
import type { SqliteConnection, SqliteDriverName, SqliteParameters, SqliteStatement } from "./sqlite-connection.js";
import { sqliteOpener } from "./sqlite-driver.js";
import { sqliteFailure } from "./sqlite-failure.js";

export interface SqliteStoreOptions {
  /** A file path, or `:memory:`. The file's directory is created if missing. */
  path: string;
  /** Table name prefix. Default `weft`. */
  tablePrefix?: string | undefined;
  /**
   * How long a call waits for another connection's lock on the file, in ms, before it fails with
   * StoreBusyError. Default 10 s. SQLite waits inside the call, and the process does nothing else
   * meanwhile; the store's writes hold the lock for one statement each, so a wait this long means
   * the other connection is stuck or runs a long transaction of its own.
   */
  busyTimeoutMs?: number | undefined;
  /**
   * The driver to use. Default: node:sqlite where Node has it (22.13 and later), else
   * better-sqlite3 (an optional dependency, compiled at install). When the one asked for, or
   * every one, fails to load, the constructor throws `SqliteUnavailableError` saying why.
   */
  driver?: SqliteDriverName | undefined;
}

const MIGRATIONS: Array<(items: string) => string> = [
  (items) => `
    CREATE TABLE ${items} (
      ns TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      expires_at INTEGER,
      revision INTEGER NOT NULL,
      PRIMARY KEY (ns, key)
    ) WITHOUT ROWID;
    CREATE INDEX ${items}_expires ON ${items} (expires_at) WHERE expires_at IS NOT NULL;
  `,
];

const LIVE = "(expires_at IS NULL OR expires_at > @now)";

export class SqliteStore implements Store {
  /** The driver this store runs on. */
  readonly driver: SqliteDriverName;
  private readonly db: SqliteConnection;
  private readonly items: string;
  private writes = 0;
  private readonly busyTimeoutMs: number;
  private readonly statements: {
    get: SqliteStatement;
    upsert: SqliteStatement;
    update: SqliteStatement;
    insertFresh: SqliteStatement;
    delete: SqliteStatement;
    sweep: SqliteStatement;
    namespaces: SqliteStatement;
  };

  constructor(options: SqliteStoreOptions) {
    const prefix = options.tablePrefix ?? "weft";
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) {
      throw new Error(`Invalid table prefix ${JSON.stringify(prefix)}.`);
    }
    this.items = `${prefix}_items`;
    const busyTimeoutMs = options.busyTimeoutMs ?? 10_000;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
      throw new Error(`Invalid busy timeout ${JSON.stringify(busyTimeoutMs)}: use a whole number of milliseconds.`);
    }
    this.busyTimeoutMs = busyTimeoutMs;
    // Throws SqliteUnavailableError, not StoreUnavailableError: no driver is a setup problem, not an outage.
    const open = sqliteOpener(options.driver);
    if (options.path !== ":memory:") {
      mkdirSync(dirname(options.path), { recursive: true });
    }
    try {
      this.db = open(options.path);
    } catch (error) {
      throw new StoreUnavailableError("sqlite", { cause: error });
    }
    this.driver = this.db.driver;
    try {
      this.db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      this.db.exec("PRAGMA journal_mode = WAL");
      this.db.exec("PRAGMA synchronous = NORMAL");
      this.migrate(prefix);
    } catch (error) {
      this.db.close();
      throw sqliteFailure(error, busyTimeoutMs);
    }
    const items = this.items;
    this.statements = {
      get: this.db.prepare(`SELECT * FROM ${items} WHERE ns = @ns AND key = @key AND ${LIVE}`),
      upsert: this.db.prepare(`
        INSERT INTO ${items} (ns, key, value, created_at, updated_at, expires_at, revision)
        VALUES (@ns, @key, CAST(@value AS TEXT), @time, @time, @expires, 1)
        ON CONFLICT (ns, key) DO UPDATE SET
          value = excluded.value,
          updated_at = excluded.updated_at,
          expires_at = excluded.expires_at,
          created_at = CASE WHEN ${items}.expires_at IS NOT NULL AND ${items}.expires_at <= @now THEN excluded.created_at ELSE ${items}.created_at END,
          revision = CASE WHEN ${items}.expires_at IS NOT NULL AND ${items}.expires_at <= @now THEN 1 ELSE ${items}.revision + 1 END
        RETURNING revision`),
      update: this.db.prepare(`
        UPDATE ${items} SET value = CAST(@value AS TEXT), updated_at = @time, expires_at = @expires, revision = revision + 1
        WHERE ns = @ns AND key = @key AND revision = @expected AND ${LIVE}
        RETURNING revision`),
      insertFresh: this.db.prepare(`
        INSERT INTO ${items} (ns, key, value, created_at, updated_at, expires_at, revision)
        VALUES (@ns, @key, CAST(@value AS TEXT), @time, @time, @expires, 1)
        ON CONFLICT (ns, key) DO UPDATE SET
          value = excluded.value, created_at = excluded.created_at, updated_at = excluded.updated_at,
          expires_at = excluded.expires_at, revision = 1
        WHERE ${items}.expires_at IS NOT NULL AND ${items}.expires_at <= @now
        RETURNING revision`),
      delete: this.db.prepare(`DELETE FROM ${items} WHERE ns = @ns AND key = @key`),
      sweep: this.db.prepare(`DELETE FROM ${items} WHERE expires_at IS NOT NULL AND expires_at <= @now`),
      namespaces: this.db.prepare(`SELECT DISTINCT ns FROM ${items} WHERE ${LIVE}`),
    };
  }

  async get(namespace: Namespace, key: string): Promise<StoreItem | undefined> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const row = this.run(() => this.statements.get.get({ ns: encodeNamespace(namespace), key, now: Date.now() }) as ItemRow | undefined);
    return row && toItem(row);
  }

  async put(namespace: Namespace, key: string, value: JsonValue, options: PutOptions = {}): Promise<void> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    this.run(() => this.statements.upsert.get(this.params(namespace, key, value, options.ttlMs)));
    this.maybeSweep();
  }

  async compareAndPut(namespace: Namespace, key: string, value: JsonValue, options: CompareAndPutOptions): Promise<number | undefined> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const params = this.params(namespace, key, value, options.ttlMs);
    const row = this.run(() =>
      options.expected === 0
        ? (this.statements.insertFresh.get(params) as { revision: number } | undefined)
        : (this.statements.update.get({ ...params, expected: options.expected }) as { revision: number } | undefined),
    );
    return row?.revision;
  }

  async delete(namespace: Namespace, key: string): Promise<void> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    this.run(() => this.statements.delete.run({ ns: encodeNamespace(namespace), key }));
  }

  async search(prefix: Namespace, options: SearchOptions = {}): Promise<StoreItem[]> {
    checkNamespace(prefix, { allowEmpty: true });
    const { lower, upper } = prefixRange(prefix);
    const { filter, limit, offset } = pageOf(options);
    // node:sqlite refuses parameters the statement does not name, so pass only the ones used.
    const range = upper === undefined ? "" : "AND ns >= @lower AND ns < @upper";
    const bounds: SqliteParameters = upper === undefined ? {} : { lower, upper };
    const now = Date.now();
    if (!filter) {
      // Rows as arrays: a session's conversation is read this way, thousands of rows at once.
      const rows = this.run(
        () => this.db.prepare(`SELECT ${ITEM_COLUMNS} FROM ${this.items} WHERE ${LIVE} ${range} ORDER BY ns, key LIMIT @limit OFFSET @offset`).rows({ ...bounds, now, limit, offset }) as ItemTuple[],
      );
      return rows.map(tupleToItem);
    }
    // The filter is applied here, row by row, until the page is full. The walk is synchronous:
    // better-sqlite3 refuses every other statement on the connection while one is open
    // ("busy executing a query"), so it must be finished and closed before this call yields.
    return this.run(() => {
      const rows = this.db.prepare(`SELECT * FROM ${this.items} WHERE ${LIVE} ${range} ORDER BY ns, key`).iterate({ ...bounds, now }) as IterableIterator<ItemRow>;
      try {
        return takePage(mapRows(rows, toItem), options);
      } finally {
        rows.return?.();
      }
    });
  }

  async listNamespaces(options: ListNamespacesOptions = {}): Promise<string[][]> {
    const rows = this.run(() => this.statements.namespaces.all({ now: Date.now() }) as Array<{ ns: string }>);
    return selectNamespaces(
      rows.map((row) => decodeNamespace(row.ns)),
      options,
    );
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private migrate(prefix: string): void {
    const migrations = `${prefix}_migrations`;
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${migrations} (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
    // IMMEDIATE: two processes opening a new file at once must not both run a migration.
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const applied = new Set((this.db.prepare(`SELECT version FROM ${migrations}`).all() as Array<{ version: number }>).map((row) => row.version));
      MIGRATIONS.forEach((migration, index) => {
        const version = index + 1;
        if (!applied.has(version)) {
          this.db.exec(migration(this.items));
          this.db.prepare(`INSERT INTO ${migrations} (version, applied_at) VALUES (@version, @time)`).run({ version, time: new Date().toISOString() });
        }
      });
      this.db.exec("COMMIT");
    } catch (error) {
      try {
        this.db.exec("ROLLBACK");
      } catch {
        // SQLite already rolled the transaction back; the first error is the one to report.
      }
      throw error;
    }
  }

  private params(namespace: Namespace, key: string, value: JsonValue, ttlMs: number | undefined) {
    const now = Date.now();
    return {
      ns: encodeNamespace(namespace),
      key,
      // The JSON's UTF-8 bytes, bound as a blob and kept as the text they are: no JSON string in
      // the heap, and no copy of one made to encode it (see jsonBytes).
      value: jsonBytes(value),
      time: new Date(now).toISOString(),
      expires: ttlMs === undefined ? null : now + ttlMs,
      now,
    };
  }

  /** Removes expired rows now and then, so they do not pile up. */
  private maybeSweep(): void {
    if (++this.writes % 500 === 0) {
      this.run(() => this.statements.sweep.run({ now: Date.now() }));
    }
  }

  private run<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw sqliteFailure(error, this.busyTimeoutMs);
    }
  }
}

/** `rows` mapped one at a time, as they are read. */
function* mapRows<R, T>(rows: Iterable<R>, map: (row: R) => T): Generator<T> {
  for (const row of rows) {
    yield map(row);
  }
}
