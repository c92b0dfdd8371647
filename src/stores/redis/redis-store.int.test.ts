import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";

import { deleteRedisPrefix, redisSkip, redisUrl, uniqueName } from "../../../test/support/servers.js";
import { TcpProxy } from "../../../test/support/tcp-proxy.js";
import { describeStoreContract } from "../../../test/contracts/store-contract.js";
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

  it("fails a command within the command timeout while the server is silent, and works again once it answers", async () => {
    const { proxy, url } = await proxied("connect_timeout_ms=500&command_timeout_ms=500");
    const prefix = uniqueName("weft-test");
    prefixes.push(prefix);
    const store = new RedisStore({ url, prefix });
    try {
      await store.put(["a"], "k", 1);
      proxy.stall();
      await expect(store.get(["a"], "k")).rejects.toMatchObject({
        name: "StoreUnavailableError",
        message: `The redis store is unavailable: 127.0.0.1:${proxy.port} did not answer within 0.5 s (the command timeout).`,
      });
      // A search reads with a pipeline: it has the same timeout.
      await expect(store.search(["a"])).rejects.toMatchObject({ name: "StoreUnavailableError", message: expect.stringContaining("within 0.5 s (the command timeout)") });
      proxy.resume();
      expect((await store.get(["a"], "k"))?.value).toBe(1);
    } finally {
      await store.close();
      await proxy.down();
    }
  });

  it("fails its first connect within the connect timeout when the server accepts and says nothing, and connects once it answers", async () => {
    const { proxy, url } = await proxied("connect_timeout_ms=500&command_timeout_ms=500");
    const prefix = uniqueName("weft-test");
    prefixes.push(prefix);
    const store = new RedisStore({ url, prefix });
    try {
      proxy.stall();
      await expect(store.get(["a"], "k")).rejects.toMatchObject({
        name: "StoreUnavailableError",
        message: `The redis store is unavailable: 127.0.0.1:${proxy.port} did not answer within 0.5 s while connecting (the connect timeout).`,
      });
      proxy.resume();
      // The client goes on connecting by itself; calls fail at once until it is ready.
      await expect.poll(() => store.put(["a"], "k", 2).then(() => "written", () => "not yet"), { timeout: 10_000, interval: 100 }).toBe("written");
      expect((await store.get(["a"], "k"))?.value).toBe(2);
    } finally {
      await store.close();
      await proxy.down();
    }
  });

  it("refuses a timeout that is not a positive number", () => {
    expect(() => new RedisStore({ url: "redis://127.0.0.1:1?command_timeout_ms=0" })).toThrow(
      expect.objectContaining({ code: "invalid_option", message: expect.stringContaining("command_timeout_ms must be a positive whole number") }),
    );
    expect(() => new RedisStore({ url: "redis://127.0.0.1:1", connectTimeoutMs: -1 })).toThrow(expect.objectContaining({ code: "invalid_option" }));
  });
});

/** The shared server behind a TCP proxy, with `parameters` added to its URL. */
async function proxied(parameters: string): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(redisUrl as string);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
  await proxy.up();
  const url = new URL(target);
  url.port = String(proxy.port);
  url.search = parameters;
  return { proxy, url: url.toString() };
}
