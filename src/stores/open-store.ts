// Opens a store from a string, as the `weft` command and test fixtures take it: `memory`, a SQLite
// file path (or `sqlite:<path>`), `postgres://…` (a `schema` query parameter picks the schema) or
// `redis://…` (a `prefix` query parameter picks the key prefix). Drivers load only when chosen.

import { MemoryStore } from "./memory/memory-store.js";
import type { Store } from "../types/store.js";

export async function openStore(spec: string): Promise<Store> {
  if (spec === "memory") {
    return new MemoryStore();
  }
  if (/^postgres(ql)?:\/\//.test(spec)) {
    const { url, option: schema } = takeParameter(spec, "schema");
    const { PostgresStore } = await import("./postgres/postgres-store.js");
    return new PostgresStore(schema ? { connectionString: url, schema } : { connectionString: url });
  }
  if (/^rediss?:\/\//.test(spec)) {
    const { url, option: prefix } = takeParameter(spec, "prefix");
    const { RedisStore } = await import("./redis/redis-store.js");
    return new RedisStore(prefix ? { url, prefix } : { url });
  }
  const { SqliteStore } = await import("./sqlite/sqlite-store.js");
  return new SqliteStore({ path: spec.startsWith("sqlite:") ? spec.slice("sqlite:".length) : spec });
}

/** Removes one query parameter of ours from a URL before the driver sees it. */
function takeParameter(spec: string, name: string): { url: string; option: string | undefined } {
  const url = new URL(spec);
  const option = url.searchParams.get(name) ?? undefined;
  url.searchParams.delete(name);
  return { url: url.toString(), option };
}
