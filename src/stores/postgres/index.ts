// weftjs/stores/postgres: the Postgres store.

export { PostgresStore, type PostgresStoreOptions } from "./postgres-store.js";
