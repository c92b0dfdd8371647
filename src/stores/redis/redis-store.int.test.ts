import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";

import { deleteRedisPrefix, redisSkip, redisUrl, uniqueName } from "../../../test/support/servers.js";
import { describeStoreContract } from "../store-contract.js";
import { RedisStore } from "./redis-store.js";

const prefixes: string[] = [];

afterAll(async () => {
  if (redisUrl) {
    for (const prefix of prefixes) {
      await deleteRedisPrefix(redisUrl, prefix);
    }
  }
});

function freshStore(): RedisStore {
  const prefix = uniqueName("weft-test");
  prefixes.push(prefix);
  return new RedisStore({ url: redisUrl as string, prefix });
}

describeStoreContract({ name: "redis", create: async () => freshStore(), skip: redisSkip });

describe.skipIf(redisSkip !== undefined)("RedisStore", () => {
  it("keeps every key of one namespace in one cluster slot", async () => {
    const store = freshStore();
    await store.put(["sessions", "s1"], "meta", 1);
    await store.put(["sessions", "s1"], "h:000001", 2);
    const admin = new Redis(redisUrl as string);
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, found] = await admin.scan(cursor, "MATCH", `${prefixes.at(-1)}:{*`, "COUNT", 500);
      cursor = next;
      keys.push(...found);
    } while (cursor !== "0");
    admin.disconnect();
    const tags = new Set(keys.map((key) => /\{([^}]*)\}/.exec(key)?.[1]));
    expect(keys).toHaveLength(3);
    expect(tags.size).toBe(1);
    await store.close();
  });

  it("reports an unreachable server as StoreUnavailableError", async () => {
    const store = new RedisStore({ url: "redis://127.0.0.1:1" });
    await expect(store.get(["a"], "k")).rejects.toMatchObject({ name: "StoreUnavailableError" });
    await store.close();
  });
});
