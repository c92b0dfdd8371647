// weftjs/stores/sqlite: the SQLite store, on node:sqlite (Node 22.13 and later) or better-sqlite3.

export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export type { SqliteDriverName } from "./sqlite-connection.js";
export { SqliteUnavailableError, type SqliteDriverFailure } from "./sqlite-unavailable-error.js";
