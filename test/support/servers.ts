// The real Postgres and Redis servers integration tests use, from WEFT_TEST_POSTGRES_URL and
// WEFT_TEST_REDIS_URL. Without them the suites that need them are skipped, saying how to run them.

export const postgresUrl = process.env.WEFT_TEST_POSTGRES_URL;
export const redisUrl = process.env.WEFT_TEST_REDIS_URL;

export const postgresSkip = postgresUrl
  ? undefined
  : "set WEFT_TEST_POSTGRES_URL (for example postgres://root@127.0.0.1:5432/test) or run bash .ci/run, which starts PostgreSQL and sets it";
export const redisSkip = redisUrl ? undefined : "set WEFT_TEST_REDIS_URL (for example redis://127.0.0.1:6379) or run bash .ci/run, which starts Redis and sets it";

/** A fresh name for a schema or key prefix, so tests never see each other's data. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

export interface StoreUnderTest {
  name: string;
  /** Why it cannot run here, if it cannot. */
  skip: string | undefined;
  /** A spec for `openStore()` naming a place no other test uses. */
  spec(): string;
}

/** SQLite (a temp file), Postgres (a fresh schema) and Redis (a fresh key prefix). */
export function storesUnderTest(tempDir: () => string): StoreUnderTest[] {
  return [
    { name: "sqlite", skip: undefined, spec: () => `${tempDir()}/sessions-${uniqueName("db")}.db` },
    { name: "postgres", skip: postgresSkip, spec: () => withParameter(postgresUrl ?? "", "schema", uniqueName("weft_test")) },
    { name: "redis", skip: redisSkip, spec: () => withParameter(redisUrl ?? "", "prefix", uniqueName("weft-test")) },
  ];
}

function withParameter(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

/** Drops what tests created on the shared servers: Postgres schemas and Redis key prefixes. */
export async function cleanUpStores(specs: readonly string[]): Promise<void> {
  const pg = await import("pg");
  for (const spec of specs) {
    const url = new URL(spec.startsWith("/") ? `file://${spec}` : spec);
    const schema = url.searchParams.get("schema");
    const prefix = url.searchParams.get("prefix");
    url.searchParams.delete("schema");
    url.searchParams.delete("prefix");
    if (schema && postgresUrl) {
      const client = new pg.default.Client({ connectionString: url.toString() });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
    if (prefix && redisUrl) {
      await deleteRedisPrefix(url.toString(), prefix);
    }
  }
}

/** Deletes every key under a prefix (test clean-up only: the store itself never scans keys). */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const { Redis } = await import("ioredis");
  const admin = new Redis(url);
  let cursor = "0";
  do {
    const [next, keys] = await admin.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) {
      await admin.del(...keys);
    }
  } while (cursor !== "0");
  admin.disconnect();
}
