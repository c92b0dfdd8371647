// The Postgres store, for teams whose agent processes (on one machine or many) share sessions.
// Bring your own pg.Pool or a connection string; the schema is created on first use, and
// migrations run one at a time under an advisory lock. Every write is one atomic statement.

import pg from "pg";

import { StoreUnavailableError } from "../../errors/store-errors.js";
import type { JsonValue } from "../../types/json.js";
import type {
  CompareAndPutOptions,
  ListNamespacesOptions,
  Namespace,
  PutOptions,
  SearchOptions,
  Store,
  StoreItem,
} from "../../types/store.js";
import { selectNamespaces } from "../list-namespaces.js";
import { takePage } from "../page.js";
import { type ItemRow, rowToItem as toItem } from "../sql-rows.js";
import { checkKey, checkNamespace, decodeNamespace, encodeNamespace, prefixUpperBound } from "../namespace.js";

export interface PostgresStoreOptions {
  /** A pool to use (and not close). Give it an `error` listener: pg emits one when an idle connection breaks. */
  pool?: pg.Pool;
  /** Or a connection string for a pool of the store's own. */
  connectionString?: string;
  /** The schema for the store's tables. Default `public`; created if missing. */
  schema?: string;
  /** Table name prefix. Default `weft`. */
  tablePrefix?: string;
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

export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly schema: string;
  private readonly prefix: string;
  private readonly items: string;
  private readonly migrations: string;
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
    if (options.pool) {
      this.pool = options.pool;
      this.ownsPool = false;
    } else {
      this.pool = new pg.Pool({ connectionString: options.connectionString, max: 10, connectionTimeoutMillis: 5_000 });
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
      [encodeNamespace(namespace), key, JSON.stringify(value), new Date(now).toISOString(), expiry(now, options.ttlMs), now],
    );
    if (++this.writes % 500 === 0) {
      await this.query(`DELETE FROM ${this.items} WHERE expires_at IS NOT NULL AND expires_at <= $1`, [Date.now()]);
    }
  }

  async compareAndPut(namespace: Namespace, key: string, value: JsonValue, options: CompareAndPutOptions): Promise<number | undefined> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const now = Date.now();
    const params = [encodeNamespace(namespace), key, JSON.stringify(value), new Date(now).toISOString(), expiry(now, options.ttlMs), now];
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
    const { filter, limit = 10, offset = 0 } = options;
    const lower = encodeNamespace(prefix);
    const upper = prefixUpperBound(lower);
    const range = upper === undefined ? "" : "AND ns >= $2 AND ns < $3";
    const base = `SELECT * FROM ${this.items} WHERE (expires_at IS NULL OR expires_at > $1) ${range} ORDER BY ns, key`;
    const bounds: unknown[] = upper === undefined ? [Date.now()] : [Date.now(), lower, upper];
    const at = bounds.length;
    if (!filter) {
      const { rows } = await this.query<ItemRow>(`${base} LIMIT $${at + 1} OFFSET $${at + 2}`, [...bounds, limit, offset]);
      return rows.map(toItem);
    }
    const query = this.query.bind(this);
    const items = async function* () {
      for (let page = 0; ; page += BATCH) {
        const { rows } = await query<ItemRow>(`${base} LIMIT $${at + 1} OFFSET $${at + 2}`, [...bounds, BATCH, page]);
        yield* rows.map(toItem);
        if (rows.length < BATCH) {
          return;
        }
      }
    };
    return takePage(items(), options);
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
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`weft:${this.migrations}`]);
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.migrations} (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
        const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${this.migrations}`);
        const applied = new Set(rows.map((row) => row.version));
        for (const [index, migration] of MIGRATIONS.entries()) {
          if (!applied.has(index + 1)) {
            await client.query(migration(this.items, this.prefix));
            await client.query(`INSERT INTO ${this.migrations} (version, applied_at) VALUES ($1, $2)`, [index + 1, new Date().toISOString()]);
          }
        }
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      await this.migrate();
      return await this.pool.query<R>(sql, params);
    } catch (error) {
      throw isConnectionError(error) ? new StoreUnavailableError("postgres", { cause: error }) : error;
    }
  }
}

/** Errors that mean the server cannot be reached or used right now, rather than a bad query. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code)) {
    return true;
  }
  return code.startsWith("08") || code.startsWith("57P") || code.startsWith("53");
}

function expiry(now: number, ttlMs: number | undefined): number | null {
  return ttlMs === undefined ? null : now + ttlMs;
}
