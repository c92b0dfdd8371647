// weftjs/stores/sqlite: the SQLite store.

export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
