// weftjs/stores/redis: the Redis store.

export { RedisStore, type RedisStoreOptions } from "./redis-store.js";
