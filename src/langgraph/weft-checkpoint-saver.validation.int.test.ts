// LangGraph's checkpointer conformance suite on WeftCheckpointSaver over the real Postgres and
// Redis servers: one fresh schema / key prefix for the file, dropped at the end, and a namespace of
// its own for each saver the suite creates. Skipped, saying how to run them, without the servers.

import pg from "pg";
import { afterAll, describe } from "vitest";

import { validateSaver } from "../../test/support/checkpoint-validation.js";
import { deleteRedisPrefix, postgresSkip, postgresUrl, redisSkip, redisUrl, uniqueName } from "../../test/support/servers.js";
import { PostgresStore } from "../stores/postgres/postgres-store.js";
import { RedisStore } from "../stores/redis/redis-store.js";
import { WeftCheckpointSaver } from "./weft-checkpoint-saver.js";

let instances = 0;
const freshNamespace = () => ["validation", `saver-${++instances}`];

describe.skipIf(postgresSkip !== undefined)(`postgres${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`, () => {
  const schema = uniqueName("weft_langgraph");
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 8 });
  pool.on("error", () => undefined);
  const store = new PostgresStore({ pool, schema });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });
  validateSaver({ name: "weft-postgres", create: async () => new WeftCheckpointSaver(store, { namespace: freshNamespace() }) });
});

describe.skipIf(redisSkip !== undefined)(`redis${redisSkip ? ` (skipped: ${redisSkip})` : ""}`, () => {
  const prefix = uniqueName("weft-langgraph");
  const store = new RedisStore({ url: redisUrl as string, prefix });
  afterAll(async () => {
    await store.close();
    await deleteRedisPrefix(redisUrl as string, prefix);
  });
  validateSaver({ name: "weft-redis", create: async () => new WeftCheckpointSaver(store, { namespace: freshNamespace() }) });
});
