// The Postgres store, for teams whose agent processes (on one machine or many) share sessions.
// Bring your own pg.Pool or a connection string; the schema is created on first use, and
// migrations run one at a time under an advisory lock. Every write is one atomic statement.
// A server that goes silent (a network partition) fails each call within the query timeout, as
// StoreUnavailableError, instead of leaving it waiting.

import pg from "pg";

import { inSeconds } from "../../errors/in-seconds.js";
import { StoreUnavailableError } from "../../errors/store-errors.js";
import type { JsonValue } from "../../types/json.js";
import type { CompareAndPutOptions, ListNamespacesOptions, Namespace, PutOptions, SearchOptions, Store, StoreItem } from "../../types/store.js";
import { jsonBytes } from "../../store-core/json-bytes.js";
import { selectNamespaces } from "../../store-core/list-namespaces.js";
import { pageOf, takePageAsync } from "../../store-core/page.js";
import { type ItemRow, rowToItem as toItem } from "../sql-rows.js";
import { checkKey, checkNamespace, decodeNamespace, encodeNamespace, prefixRange } from "../../store-core/namespace.js";
import { checkTimeout, takeTimeoutParameters } from "../timeout-parameters.js";

export interface PostgresStoreOptions {
  /**
   * A pool to use (and not close). Give it an `error` listener: pg emits one when an idle
   * connection breaks, and a `connectionTimeoutMillis`: `connectTimeoutMs` applies only to the
   * store's own pool.
   */
  pool?: pg.Pool | undefined;
  /**
   * Or a connection string for a pool of the store's own. It may carry `connect_timeout_ms` and
   * `query_timeout_ms` parameters, read as the options of those names (the options win).
   */
  connectionString?: string | undefined;
  /**
   * How long the store's own pool may take to open a connection (the TCP connect and Postgres's
   * handshake), or to hand one out when all are busy. Default 5000.
   */
  connectTimeoutMs?: number | undefined;
  /**
   * How long a query may go without an answer. Then the call fails with StoreUnavailableError and
   * its connection is closed (the server may never answer on it). On the store's own pool the
   * server is also told (`statement_timeout`) to stop a statement that runs that long. Applies to
   * a pool passed in too. Default 10000: the store's statements touch a few rows each, so one that
   * has not answered in 10 s is stuck, not slow.
   */
  queryTimeoutMs?: number | undefined;
  /** The schema for the store's tables. Default `public`; created if missing. */
  schema?: string | undefined;
  /** Table name prefix. Default `weft`. */
  tablePrefix?: string | undefined;
}

const MIGRATIONS: Array<(items: string, prefix: string) => string> = [
  (items, prefix) => `
    CREATE TABLE ${items} (
      ns TEXT COLLATE "C" NOT NULL,
      key TEXT COLLATE "C" NOT NULL,
      value TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      expires_at BIGINT,
      revision BIGINT NOT NULL,
      PRIMARY KEY (ns, key)
    );
    CREATE INDEX "${prefix}_items_expires" ON ${items} (expires_at) WHERE expires_at IS NOT NULL;
  `,
];

const BATCH = 500;
const CONNECT_TIMEOUT_MS = 5_000;
const QUERY_TIMEOUT_MS = 10_000;

export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly schema: string;
  private readonly prefix: string;
  private readonly items: string;
  private readonly migrations: string;
  private readonly connectTimeoutMs: number;
  private readonly queryTimeoutMs: number;
  private ready: Promise<void> | undefined;
  private writes = 0;

  constructor(options: PostgresStoreOptions) {
    const schema = options.schema ?? "public";
    const prefix = options.tablePrefix ?? "weft";
    for (const name of [schema, prefix]) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        throw new Error(`Invalid SQL identifier ${JSON.stringify(name)}.`);
      }
    }
    this.schema = schema;
    this.prefix = prefix;
    this.items = `"${schema}"."${prefix}_items"`;
    this.migrations = `"${schema}"."${prefix}_migrations"`;
    const { url, timeouts } = options.connectionString
      ? takeTimeoutParameters(options.connectionString, ["connect_timeout_ms", "query_timeout_ms"])
      : { url: undefined, timeouts: {} };
    this.connectTimeoutMs = checkTimeout("connectTimeoutMs", options.connectTimeoutMs ?? timeouts.connect_timeout_ms ?? CONNECT_TIMEOUT_MS);
    this.queryTimeoutMs = checkTimeout("queryTimeoutMs", options.queryTimeoutMs ?? timeouts.query_timeout_ms ?? QUERY_TIMEOUT_MS);
    if (options.pool) {
      this.pool = options.pool;
      this.ownsPool = false;
    } else {
      this.pool = new pg.Pool({
        connectionString: url,
        max: 10,
        connectionTimeoutMillis: this.connectTimeoutMs,
        statement_timeout: this.queryTimeoutMs,
      });
      this.ownsPool = true;
      // An idle connection that breaks (the server restarted) must not crash the process. A pool
      // passed in is its owner's to watch.
      this.pool.on("error", () => undefined);
    }
  }

  async get(namespace: Namespace, key: string): Promise<StoreItem | undefined> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const { rows } = await this.query<ItemRow>(`SELECT * FROM ${this.items} WHERE ns = $1 AND key = $2 AND (expires_at IS NULL OR expires_at > $3)`, [
      encodeNamespace(namespace),
      key,
      Date.now(),
    ]);
    return rows[0] && toItem(rows[0]);
  }

  async put(namespace: Namespace, key: string, value: JsonValue, options: PutOptions = {}): Promise<void> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const now = Date.now();
    await this.query(
      `INSERT INTO ${this.items} AS items (ns, key, value, created_at, updated_at, expires_at, revision)
       VALUES ($1, $2, $3, $4, $4, $5, 1)
       ON CONFLICT (ns, key) DO UPDATE SET
         value = excluded.value,
         updated_at = excluded.updated_at,
         expires_at = excluded.expires_at,
         created_at = CASE WHEN items.expires_at IS NOT NULL AND items.expires_at <= $6 THEN excluded.created_at ELSE items.created_at END,
         revision = CASE WHEN items.expires_at IS NOT NULL AND items.expires_at <= $6 THEN 1 ELSE items.revision + 1 END`,
      [encodeNamespace(namespace), key, jsonBytes(value), new Date(now).toISOString(), expiry(now, options.ttlMs), now],
    );
    if (++this.writes % 500 === 0) {
      await this.query(`DELETE FROM ${this.items} WHERE expires_at IS NOT NULL AND expires_at <= $1`, [Date.now()]);
    }
  }

  async compareAndPut(namespace: Namespace, key: string, value: JsonValue, options: CompareAndPutOptions): Promise<number | undefined> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const now = Date.now();
    const params = [encodeNamespace(namespace), key, jsonBytes(value), new Date(now).toISOString(), expiry(now, options.ttlMs), now];
    const { rows } =
      options.expected === 0
        ? await this.query<{ revision: string }>(
            `INSERT INTO ${this.items} AS items (ns, key, value, created_at, updated_at, expires_at, revision)
             VALUES ($1, $2, $3, $4, $4, $5, 1)
             ON CONFLICT (ns, key) DO UPDATE SET
               value = excluded.value, created_at = excluded.created_at, updated_at = excluded.updated_at,
               expires_at = excluded.expires_at, revision = 1
             WHERE items.expires_at IS NOT NULL AND items.expires_at <= $6
             RETURNING revision`,
            params,
          )
        : await this.query<{ revision: string }>(
            `UPDATE ${this.items} SET value = $3, updated_at = $4, expires_at = $5, revision = revision + 1
             WHERE ns = $1 AND key = $2 AND revision = $7 AND (expires_at IS NULL OR expires_at > $6)
             RETURNING revision`,
            [...params, options.expected],
          );
    return rows[0] ? Number(rows[0].revision) : undefined;
  }

  async delete(namespace: Namespace, key: string): Promise<void> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    await this.query(`DELETE FROM ${this.items} WHERE ns = $1 AND key = $2`, [encodeNamespace(namespace), key]);
  }

  async search(prefix: Namespace, options: SearchOptions = {}): Promise<StoreItem[]> {
    checkNamespace(prefix, { allowEmpty: true });
    const { lower, upper } = prefixRange(prefix);
    const { filter, limit, offset } = pageOf(options);
    const range = upper === undefined ? "" : "AND ns >= $2 AND ns < $3";
    const live = `SELECT * FROM ${this.items} WHERE (expires_at IS NULL OR expires_at > $1) ${range}`;
    const bounds: unknown[] = upper === undefined ? [Date.now()] : [Date.now(), lower, upper];
    const at = bounds.length;
    if (!filter) {
      const { rows } = await this.query<ItemRow>(`${live} ORDER BY ns, key LIMIT $${at + 1} OFFSET $${at + 2}`, [...bounds, limit, offset]);
      return rows.map(toItem);
    }
    // A batch at a time, each starting after the last row of the one before rather than at an
    // offset: rows written or removed between batches (by this process or another) then cannot
    // make the search skip a row or read one twice.
    const query = this.query.bind(this);
    const items = async function* () {
      let after: ItemRow | undefined;
      for (;;) {
        const { rows } = after
          ? await query<ItemRow>(`${live} AND (ns, key) > ($${at + 2}, $${at + 3}) ORDER BY ns, key LIMIT $${at + 1}`, [...bounds, BATCH, after.ns, after.key])
          : await query<ItemRow>(`${live} ORDER BY ns, key LIMIT $${at + 1}`, [...bounds, BATCH]);
        yield* rows.map(toItem);
        after = rows.at(-1);
        if (rows.length < BATCH) {
          return;
        }
      }
    };
    return takePageAsync(items(), options);
  }

  async listNamespaces(options: ListNamespacesOptions = {}): Promise<string[][]> {
    const { rows } = await this.query<{ ns: string }>(`SELECT DISTINCT ns FROM ${this.items} WHERE expires_at IS NULL OR expires_at > $1`, [Date.now()]);
    return selectNamespaces(
      rows.map((row) => decodeNamespace(row.ns)),
      options,
    );
  }

  async close(): Promise<void> {
    if (this.ownsPool) {
      await this.pool.end();
    }
  }

  /** Creates the schema and runs pending migrations, once per store and under an advisory lock. */
  private migrate(): Promise<void> {
    this.ready ??= (async () => {
      const client = await this.pool.connect();
      const query = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => client.query<R>(timed(text, values, this.queryTimeoutMs));
      let failure: unknown;
      try {
        await query("BEGIN");
        await query("SELECT pg_advisory_xact_lock(hashtext($1))", [`weft:${this.migrations}`]);
        await query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
        await query(`CREATE TABLE IF NOT EXISTS ${this.migrations} (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
        const { rows } = await query<{ version: number }>(`SELECT version FROM ${this.migrations}`);
        const applied = new Set(rows.map((row) => row.version));
        for (const [index, migration] of MIGRATIONS.entries()) {
          if (!applied.has(index + 1)) {
            await query(migration(this.items, this.prefix));
            await query(`INSERT INTO ${this.migrations} (version, applied_at) VALUES ($1, $2)`, [index + 1, new Date().toISOString()]);
          }
        }
        await query("COMMIT");
      } catch (error) {
        failure = error;
        await query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        // A connection that failed may be broken or still busy: close it rather than reuse it.
        client.release(failure !== undefined);
      }
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /**
   * Runs one statement with the query timeout. A timed-out query's connection is closed by the
   * pool (pg hands it back with the error), so no later call waits behind it.
   */
  private async query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      await this.migrate();
      return await this.pool.query<R>(timed(sql, params, this.queryTimeoutMs));
    } catch (error) {
      if (!isConnectionError(error)) {
        throw error;
      }
      const detail = timeoutDetail(error, this.connectTimeoutMs, this.queryTimeoutMs);
      throw new StoreUnavailableError("postgres", detail ? { cause: error, detail } : { cause: error });
    }
  }
}

/**
 * Errors that mean the server cannot be reached or used right now, rather than a bad query: no
 * SQLSTATE (a network error or a timeout of ours), a connection exception (08), an operator
 * intervention such as a shutdown or a cancelled statement (57), or too little of a resource (53).
 */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code)) {
    return true;
  }
  return code.startsWith("08") || code.startsWith("57") || code.startsWith("53");
}

/** A statement with a client-side timeout (pg reads `query_timeout` from a query too; its types leave it out). */
function timed(text: string, values: unknown[], timeoutMs: number): pg.QueryConfig {
  return { text, values, query_timeout: timeoutMs } as pg.QueryConfig;
}

/** What a timeout means, in plain words, when the error is one. */
function timeoutDetail(error: unknown, connectTimeoutMs: number, queryTimeoutMs: number): string | undefined {
  const message = error instanceof Error ? error.message : "";
  const code = (error as { code?: unknown } | undefined)?.code;
  if (message === "Query read timeout" || code === "57014") {
    return `the server did not answer within ${inSeconds(queryTimeoutMs)} (the query timeout).`;
  }
  if (/timeout exceeded when trying to connect|connection timeout/i.test(message)) {
    return `could not connect within ${inSeconds(connectTimeoutMs)} (the connect timeout).`;
  }
  return undefined;
}

function expiry(now: number, ttlMs: number | undefined): number | null {
  return ttlMs === undefined ? null : now + ttlMs;
}
