// storeAcpSessions() over Postgres (a fresh schema per store) and Redis (a fresh key prefix per
// store) against the AcpSessionStore contract, each view on its own connection.

import pg from "pg";

import { storeSessionsUnderTest } from "../../../test/support/acp-session-stores.js";
import { deleteRedisPrefix, postgresSkip, postgresUrl, redisSkip, redisUrl, uniqueName } from "../../../test/support/servers.js";
import { PostgresStore } from "../../stores/postgres/postgres-store.js";
import { RedisStore } from "../../stores/redis/redis-store.js";
import { describeAcpSessionStoreContract } from "../../../test/contracts/acp-session-store-contract.js";

describeAcpSessionStoreContract({
  name: "storeAcpSessions over Postgres",
  skip: postgresSkip,
  create: storeSessionsUnderTest(() => {
    const schema = uniqueName("weft_test");
    return {
      connect: () => new PostgresStore({ connectionString: postgresUrl as string, schema }),
      remove: async () => {
        const admin = new pg.Client({ connectionString: postgresUrl });
        await admin.connect();
        try {
          await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        } finally {
          await admin.end();
        }
      },
    };
  }),
});

describeAcpSessionStoreContract({
  name: "storeAcpSessions over Redis",
  skip: redisSkip,
  create: storeSessionsUnderTest(() => {
    const prefix = uniqueName("weft-test");
    return { connect: () => new RedisStore({ url: redisUrl as string, prefix }), remove: () => deleteRedisPrefix(redisUrl as string, prefix) };
  }),
});
