import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

import { postgresSkip, postgresUrl, uniqueName } from "../../../test/support/servers.js";
import { describeStoreContract } from "../store-contract.js";
import { PostgresStore } from "./postgres-store.js";

const schemas: string[] = [];
const pool = postgresUrl ? new pg.Pool({ connectionString: postgresUrl, max: 4 }) : undefined;
pool?.on("error", () => undefined);

afterAll(async () => {
  if (pool) {
    for (const schema of schemas) {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
    await pool.end();
  }
});

function freshStore(): PostgresStore {
  const schema = uniqueName("weft_test");
  schemas.push(schema);
  return new PostgresStore({ pool: pool as pg.Pool, schema });
}

describeStoreContract({ name: "postgres", create: async () => freshStore(), skip: postgresSkip });

describe.skipIf(postgresSkip !== undefined)("PostgresStore", () => {
  it("creates its schema on first use and runs each migration once, even when several stores start together", async () => {
    const schema = uniqueName("weft_test");
    schemas.push(schema);
    const stores = Array.from({ length: 4 }, () => new PostgresStore({ pool: pool as pg.Pool, schema }));
    await Promise.all(stores.map((store, index) => store.put(["start"], `k${index}`, index)));
    const { rows } = await (pool as pg.Pool).query(`SELECT version FROM "${schema}".weft_migrations`);
    expect(rows).toEqual([{ version: 1 }]);
    expect(await stores[0]?.search(["start"])).toHaveLength(4);
  });

  it("reports an unreachable server as StoreUnavailableError", async () => {
    const store = new PostgresStore({ connectionString: "postgres://root@127.0.0.1:1/test" });
    await expect(store.get(["a"], "k")).rejects.toMatchObject({ name: "StoreUnavailableError", code: "store_unavailable" });
    await store.close();
  });
});
