// Rows of the SQL drivers' items table, turned into store items.

import type { JsonValue } from "../types/json.js";
import type { StoreItem } from "../types/store.js";
import { decodeNamespace } from "../store-core/namespace.js";

export interface ItemRow {
  ns: string;
  key: string;
  value: string;
  created_at: string;
  updated_at: string;
  /** Milliseconds since the epoch (Postgres returns BIGINT as a string). */
  expires_at: number | string | null;
  revision: number | string;
}

/** Rows come in namespace order, so decoding the last namespace seen again is the common case. */
let lastEncoded = "";
let lastDecoded: string[] = [];

function decodeCached(encoded: string): string[] {
  if (encoded !== lastEncoded) {
    lastEncoded = encoded;
    lastDecoded = decodeNamespace(encoded);
  }
  return lastDecoded.slice();
}

export function rowToItem(row: ItemRow): StoreItem {
  const item: StoreItem = {
    namespace: decodeCached(row.ns),
    key: row.key,
    value: JSON.parse(row.value) as JsonValue,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    revision: Number(row.revision),
  };
  if (row.expires_at !== null) {
    item.expiresAt = new Date(Number(row.expires_at)).toISOString();
  }
  return item;
}
