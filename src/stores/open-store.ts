// Opens a store from a string, as the `weft` command and test fixtures take it: `memory`, a SQLite
// file path (or `sqlite:<path>`), `postgres://…` (a `schema` query parameter picks the schema) or
// `redis://…` (a `prefix` query parameter picks the key prefix). Drivers load only when chosen,
// and a driver that cannot load gives an error that says what to do, `--sessions memory` included.

import { MissingPackageError } from "../errors/missing-package-error.js";
import { MemoryStore } from "../store-core/memory-store.js";
import type { SqliteDriverName } from "./sqlite/sqlite-connection.js";
import { SqliteUnavailableError } from "./sqlite/sqlite-unavailable-error.js";
import type { Store } from "../types/store.js";

export interface OpenStoreOptions {
  /** For a SQLite file: the driver to use. Default: node:sqlite where Node has it, else better-sqlite3. */
  sqliteDriver?: SqliteDriverName | undefined;
}

const MEMORY_ADVICE = "Or keep sessions in memory while the agent runs: --sessions memory (or WEFT_SESSIONS=memory).";

export async function openStore(spec: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (spec === "memory") {
    return new MemoryStore();
  }
  if (/^postgres(ql)?:\/\//.test(spec)) {
    const { url, option: schema } = takeParameter(spec, "schema");
    const { PostgresStore } = await importDriver(() => import("./postgres/postgres-store.js"), "pg", "postgres:// sessions");
    return new PostgresStore(schema ? { connectionString: url, schema } : { connectionString: url });
  }
  if (/^rediss?:\/\//.test(spec)) {
    const { url, option: prefix } = takeParameter(spec, "prefix");
    const { RedisStore } = await importDriver(() => import("./redis/redis-store.js"), "ioredis", "redis:// sessions");
    return new RedisStore(prefix ? { url, prefix } : { url });
  }
  const { SqliteStore } = await import("./sqlite/sqlite-store.js");
  try {
    return new SqliteStore({ path: spec.startsWith("sqlite:") ? spec.slice("sqlite:".length) : spec, driver: options.sqliteDriver });
  } catch (error) {
    throw error instanceof SqliteUnavailableError ? new SqliteUnavailableError(error.failures, { advice: MEMORY_ADVICE }) : error;
  }
}

/** Imports a store module whose driver package is an optional peer, naming the package if it is missing. */
async function importDriver<T>(load: () => Promise<T>, packageName: string, feature: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (MissingPackageError.isMissing(error, packageName)) {
      throw new MissingPackageError(packageName, feature, { cause: error, advice: `With npx: npx -y -p weftjs -p ${packageName} weft acp --sessions …` });
    }
    throw error;
  }
}

/** Removes one query parameter of ours from a URL before the driver sees it. */
function takeParameter(spec: string, name: string): { url: string; option: string | undefined } {
  const url = new URL(spec);
  const option = url.searchParams.get(name) ?? undefined;
  url.searchParams.delete(name);
  return { url: url.toString(), option };
}
