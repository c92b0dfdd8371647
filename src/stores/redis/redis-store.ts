// The Redis store, on core commands only (no modules, no KEYS). Each namespace's items share a hash
// tag, so one session's or one thread's keys sit in one cluster slot and every write is one atomic
// Lua script on that slot. A sorted set of namespaces (its own slot) serves prefix searches.
//
// Layout, with P the key prefix and T a hash of the namespace:
//   P:{T}:i:<key>   hash: v (JSON), c (created), u (updated), r (revision), e (expiry, ms)
//   P:{T}:k         sorted set of the namespace's keys (all scores 0, so ordered by bytes)
//   P:namespaces    sorted set of encoded namespaces (scores 0)

import { createHash } from "node:crypto";

import { Redis } from "ioredis";

import { inSeconds } from "../../errors/in-seconds.js";
import { StoreUnavailableError } from "../../errors/store-errors.js";
import type { JsonValue } from "../../types/json.js";
import type { CompareAndPutOptions, ListNamespacesOptions, Namespace, PutOptions, SearchOptions, Store, StoreItem } from "../../types/store.js";
import { jsonBytes } from "../../store-core/json-bytes.js";
import { selectNamespaces } from "../../store-core/list-namespaces.js";
import { pageOf, takePageAsync } from "../../store-core/page.js";
import { checkKey, checkNamespace, decodeNamespace, encodeNamespace, prefixRange } from "../../store-core/namespace.js";
import { checkTimeout, takeTimeoutParameters } from "../timeout-parameters.js";

export interface RedisStoreOptions {
  /** A client to use (and not close). For failures to surface as errors instead of queued
   * commands, create it with `enableOfflineQueue: false`, a small `maxRetriesPerRequest` and a
   * `commandTimeout`: the timeouts below apply only to the store's own client. */
  client?: Redis | undefined;
  /**
   * Or a URL for a client of the store's own, such as `redis://127.0.0.1:6379/0`. It may carry
   * `connect_timeout_ms` and `command_timeout_ms` parameters, read as the options of those names
   * (the options win).
   */
  url?: string | undefined;
  /** Prefix of every key. Default `weft`. */
  prefix?: string | undefined;
  /**
   * How long the store's own client may take to connect, up to Redis answering its first command.
   * Default 5000.
   */
  connectTimeoutMs?: number | undefined;
  /**
   * How long a command may go without an answer; then the call fails with StoreUnavailableError.
   * Default 10000: every command of the store is quick, so one unanswered for 10 s is stuck.
   */
  commandTimeoutMs?: number | undefined;
}

// KEYS: item, keyset. ARGV: key, value, time, expiresAt ('' for none), expected revision ('' for an
// unconditional put; '0' for "only if absent"). Returns the new revision, or -1 on a lost race.
const WRITE = `
local current = redis.call('HMGET', KEYS[1], 'r', 'c')
local revision = tonumber(current[1]) or 0
if ARGV[5] ~= '' and revision ~= tonumber(ARGV[5]) then return -1 end
local created = current[2] or ARGV[3]
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'c', created, 'u', ARGV[3], 'r', revision + 1)
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'e', ARGV[4])
  redis.call('PEXPIREAT', KEYS[1], ARGV[4])
else
  redis.call('HDEL', KEYS[1], 'e')
  redis.call('PERSIST', KEYS[1])
end
redis.call('ZADD', KEYS[2], 0, ARGV[1])
return revision + 1
`;

// KEYS: item, keyset. ARGV: key.
const REMOVE = `
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
`;

// KEYS: keyset, then the items of ARGV's keys. Drops keys whose item expired.
const PRUNE = `
for index, key in ipairs(ARGV) do
  if redis.call('EXISTS', KEYS[index + 1]) == 0 then redis.call('ZREM', KEYS[1], key) end
end
return 1
`;

type Scripted = Redis & {
  weftWrite(item: string, keyset: string, key: string, value: Buffer, time: string, expiresAt: string, expected: string): Promise<number>;
  weftRemove(item: string, keyset: string, key: string): Promise<number>;
  weftPrune(...args: [number, ...string[]]): Promise<number>;
};

const CHUNK = 1000;
const CONNECT_TIMEOUT_MS = 5_000;
const COMMAND_TIMEOUT_MS = 10_000;

export class RedisStore implements Store {
  readonly client: Redis;
  private readonly ownsClient: boolean;
  private readonly prefix: string;
  private readonly connectTimeoutMs: number;
  private ready: Promise<void> | undefined;

  constructor(options: RedisStoreOptions) {
    this.prefix = options.prefix ?? "weft";
    const { url, timeouts } = takeTimeoutParameters(options.url ?? "redis://127.0.0.1:6379", ["connect_timeout_ms", "command_timeout_ms"]);
    this.connectTimeoutMs = checkTimeout("connectTimeoutMs", options.connectTimeoutMs ?? timeouts.connect_timeout_ms ?? CONNECT_TIMEOUT_MS);
    const commandTimeoutMs = checkTimeout("commandTimeoutMs", options.commandTimeoutMs ?? timeouts.command_timeout_ms ?? COMMAND_TIMEOUT_MS);
    if (options.client) {
      this.client = options.client;
      this.ownsClient = false;
    } else {
      this.client = new Redis(url, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: this.connectTimeoutMs,
        commandTimeout: commandTimeoutMs,
      });
      this.ownsClient = true;
    }
    // Connection errors surface on commands; the client reconnects by itself.
    this.client.on("error", () => undefined);
    this.client.defineCommand("weftWrite", { numberOfKeys: 2, lua: WRITE });
    this.client.defineCommand("weftRemove", { numberOfKeys: 2, lua: REMOVE });
    this.client.defineCommand("weftPrune", { lua: PRUNE });
  }

  async get(namespace: Namespace, key: string): Promise<StoreItem | undefined> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const tag = this.tag(encodeNamespace(namespace));
    const hash = await this.call((redis) => redis.hgetall(this.itemKey(tag, key)));
    return toItem(namespace, key, hash);
  }

  async put(namespace: Namespace, key: string, value: JsonValue, options: PutOptions = {}): Promise<void> {
    await this.write(namespace, key, value, options.ttlMs, "");
  }

  async compareAndPut(namespace: Namespace, key: string, value: JsonValue, options: CompareAndPutOptions): Promise<number | undefined> {
    const revision = await this.write(namespace, key, value, options.ttlMs, String(options.expected));
    return revision === -1 ? undefined : revision;
  }

  async delete(namespace: Namespace, key: string): Promise<void> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const tag = this.tag(encodeNamespace(namespace));
    await this.call((redis) => redis.weftRemove(this.itemKey(tag, key), this.keysetKey(tag), key));
  }

  async search(prefix: Namespace, options: SearchOptions = {}): Promise<StoreItem[]> {
    checkNamespace(prefix, { allowEmpty: true });
    const namespaces = await this.namespacesUnder(prefix);
    const itemsOf = this.itemsOf.bind(this);
    // Without a filter the page is the first offset + limit items: read no more than that.
    const page = pageOf(options);
    const chunk = page.filter ? CHUNK : Math.min(CHUNK, Math.max(1, page.offset + page.limit));
    const items = async function* () {
      for (const encoded of namespaces) {
        yield* itemsOf(encoded, decodeNamespace(encoded), chunk);
      }
    };
    return takePageAsync(items(), options);
  }

  async listNamespaces(options: ListNamespacesOptions = {}): Promise<string[][]> {
    const live: string[][] = [];
    for (const encoded of await this.namespacesUnder(options.prefix ?? [])) {
      const namespace = decodeNamespace(encoded);
      for await (const _item of this.itemsOf(encoded, namespace)) {
        live.push(namespace);
        break;
      }
    }
    return selectNamespaces(live, options);
  }

  async close(): Promise<void> {
    if (this.ownsClient) {
      this.client.disconnect();
    }
  }

  private async write(namespace: Namespace, key: string, value: JsonValue, ttlMs: number | undefined, expected: string): Promise<number> {
    checkNamespace(namespace);
    checkKey(namespace, key);
    const encoded = encodeNamespace(namespace);
    const tag = this.tag(encoded);
    const now = Date.now();
    const revision = await this.call((redis) =>
      redis.weftWrite(this.itemKey(tag, key), this.keysetKey(tag), key, jsonBytes(value), new Date(now).toISOString(), ttlMs === undefined ? "" : String(now + ttlMs), expected),
    );
    if (revision !== -1) {
      await this.call((redis) => redis.zadd(this.namespacesKey(), 0, encoded));
    }
    return revision;
  }

  private async namespacesUnder(prefix: Namespace): Promise<string[]> {
    const { lower, upper } = prefixRange(prefix);
    return this.call((redis) => (upper === undefined ? redis.zrange(this.namespacesKey(), "0", "-1") : redis.zrangebylex(this.namespacesKey(), `[${lower}`, `(${upper}`)));
  }

  /**
   * The live items of one namespace in key order, reading keys a chunk at a time. Each chunk
   * starts after the last key of the one before, not at a rank: keys added or removed between
   * chunks (by this process or another) then cannot make the walk skip a key or read one twice.
   */
  private async *itemsOf(encoded: string, namespace: string[], chunk = CHUNK): AsyncGenerator<StoreItem> {
    const tag = this.tag(encoded);
    for (let from = "-"; ; ) {
      const keys = await this.call((redis) => redis.zrangebylex(this.keysetKey(tag), from, "+", "LIMIT", 0, chunk));
      const last = keys.at(-1);
      if (last === undefined) {
        return;
      }
      from = `(${last}`;
      const pipeline = this.client.pipeline();
      for (const key of keys) {
        pipeline.hgetall(this.itemKey(tag, key));
      }
      const results = (await this.call(() => pipeline.exec())) ?? [];
      const dead: string[] = [];
      for (const [index, key] of keys.entries()) {
        const [error, hash] = results[index] ?? [new Error("no reply"), {}];
        if (error) {
          throw new StoreUnavailableError("redis", { cause: error });
        }
        const item = toItem(namespace, key, hash as Record<string, string>);
        if (item) {
          yield item;
        } else {
          dead.push(key);
        }
      }
      if (dead.length > 0) {
        // Expired items leave their key behind; drop those keys (checking again, atomically).
        await this.call((redis) => redis.weftPrune(1 + dead.length, this.keysetKey(tag), ...dead.map((key) => this.itemKey(tag, key)), ...dead));
      }
      if (keys.length < chunk) {
        return;
      }
    }
  }

  private tag(encoded: string): string {
    return createHash("sha1").update(encoded).digest("hex").slice(0, 16);
  }

  private itemKey(tag: string, key: string): string {
    return `${this.prefix}:{${tag}}:i:${key}`;
  }

  private keysetKey(tag: string): string {
    return `${this.prefix}:{${tag}}:k`;
  }

  private namespacesKey(): string {
    return `${this.prefix}:namespaces`;
  }

  /**
   * The first connect, within the connect timeout. ioredis's own `connectTimeout` ends at the TCP
   * connect; a server that accepts the connection and then says nothing (a partition, a proxy in
   * front of a dead server) is caught here. The client goes on trying by itself, and later calls
   * fail at once until it is ready (the offline queue is off).
   */
  private connect(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const detail = `${this.address()} did not answer within ${inSeconds(this.connectTimeoutMs)} while connecting (the connect timeout).`;
        reject(new StoreUnavailableError("redis", { cause: new Error("Connect timed out"), detail }));
      }, this.connectTimeoutMs);
    });
    return Promise.race([this.client.connect(), timedOut]).finally(() => clearTimeout(timer));
  }

  private async call<T>(command: (redis: Scripted) => Promise<T>): Promise<T> {
    try {
      if (this.ownsClient && this.client.status === "wait") {
        this.ready ??= this.connect().catch((error: unknown) => {
          this.ready = undefined;
          throw error;
        });
      }
      await this.ready;
      return await command(this.client as Scripted);
    } catch (error) {
      if (error instanceof StoreUnavailableError) {
        throw error;
      }
      const timeout = this.client.options.commandTimeout;
      const detail =
        error instanceof Error && error.message === "Command timed out"
          ? `${this.address()} did not answer ${timeout ? `within ${inSeconds(timeout)}` : "in time"} (the command timeout).`
          : this.client.status === "ready"
            ? undefined
            : `not connected to ${this.address()} (${this.client.status}).`;
      throw new StoreUnavailableError("redis", detail ? { cause: error, detail } : { cause: error });
    }
  }

  private address(): string {
    const { host, port } = this.client.options;
    return `${host ?? "127.0.0.1"}:${port ?? 6379}`;
  }
}

function toItem(namespace: Namespace, key: string, hash: Record<string, string>): StoreItem | undefined {
  if (hash.v === undefined || hash.r === undefined) {
    return undefined;
  }
  const item: StoreItem = {
    namespace: [...namespace],
    key,
    value: JSON.parse(hash.v) as JsonValue,
    createdAt: hash.c ?? "",
    updatedAt: hash.u ?? "",
    revision: Number(hash.r),
  };
  if (hash.e !== undefined) {
    const expiresAt = Number(hash.e);
    if (expiresAt <= Date.now()) {
      return undefined;
    }
    item.expiresAt = new Date(expiresAt).toISOString();
  }
  return item;
}
