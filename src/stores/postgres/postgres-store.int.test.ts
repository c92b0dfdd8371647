import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

import { postgresSkip, postgresUrl, uniqueName } from "../../../test/support/servers.js";
import { TcpProxy } from "../../../test/support/tcp-proxy.js";
import { describeStoreContract } from "../../../test/contracts/store-contract.js";
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

  it("fails a query within the query timeout while the server is silent, and works again once it answers", async () => {
    const { proxy, url } = await proxied("connect_timeout_ms=500&query_timeout_ms=500");
    const store = new PostgresStore({ connectionString: url, schema: proxiedSchema() });
    try {
      await store.put(["a"], "k", 1);
      proxy.stall();
      // On the open connection: the query is sent and never answered.
      await expect(store.get(["a"], "k")).rejects.toMatchObject({
        name: "StoreUnavailableError",
        message: "The postgres store is unavailable: the server did not answer within 0.5 s (the query timeout).",
      });
      // That connection was closed; a new one gets no answer to its handshake.
      await expect(store.get(["a"], "k")).rejects.toMatchObject({
        name: "StoreUnavailableError",
        message: "The postgres store is unavailable: could not connect within 0.5 s (the connect timeout).",
      });
      proxy.resume();
      expect((await store.get(["a"], "k"))?.value).toBe(1);
    } finally {
      await store.close();
      await proxy.down();
    }
  });

  it("puts the query timeout on a pool it is given too", async () => {
    const { proxy, url } = await proxied();
    const given = new pg.Pool({ connectionString: url, max: 2 });
    given.on("error", () => undefined);
    const store = new PostgresStore({ pool: given, schema: proxiedSchema(), queryTimeoutMs: 500 });
    try {
      await store.put(["a"], "k", 1);
      proxy.stall();
      await expect(store.get(["a"], "k")).rejects.toMatchObject({ name: "StoreUnavailableError", message: expect.stringContaining("within 0.5 s (the query timeout)") });
      proxy.resume();
      expect((await store.get(["a"], "k"))?.value).toBe(1);
    } finally {
      await given.end();
      await proxy.down();
    }
  });

  it("refuses a timeout that is not a positive number", () => {
    expect(() => new PostgresStore({ connectionString: "postgres://root@127.0.0.1:1/test?query_timeout_ms=soon" })).toThrow(
      expect.objectContaining({ code: "invalid_option", message: expect.stringContaining("query_timeout_ms must be a positive whole number") }),
    );
    expect(() => new PostgresStore({ connectionString: "postgres://root@127.0.0.1:1/test", connectTimeoutMs: 0 })).toThrow(expect.objectContaining({ code: "invalid_option" }));
  });
});

/** The shared server behind a TCP proxy, with `parameters` added to its URL. */
async function proxied(parameters = ""): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(postgresUrl as string);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.up();
  const url = new URL(target);
  url.port = String(proxy.port);
  url.search = parameters;
  return { proxy, url: url.toString() };
}

function proxiedSchema(): string {
  const schema = uniqueName("weft_test");
  schemas.push(schema);
  return schema;
}
