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
  return toItem(row.ns, row.key, row.value, row.created_at, row.updated_at, row.expires_at, row.revision);
}

/** The columns of the items table, in the order `ItemTuple` has them. */
export const ITEM_COLUMNS = "ns, key, value, created_at, updated_at, expires_at, revision";

/** A row of the items table as an array of its values, selected as `ITEM_COLUMNS`. */
export type ItemTuple = [ns: string, key: string, value: string, createdAt: string, updatedAt: string, expiresAt: number | string | null, revision: number | string];

export function tupleToItem(row: ItemTuple): StoreItem {
  return toItem(row[0], row[1], row[2], row[3], row[4], row[5], row[6]);
}

function toItem(ns: string, key: string, value: string, createdAt: string, updatedAt: string, expiresAt: number | string | null, revision: number | string): StoreItem {
  const item: StoreItem = {
    namespace: decodeCached(ns),
    key,
    value: JSON.parse(value) as JsonValue,
    createdAt,
    updatedAt,
    revision: Number(revision),
  };
  if (expiresAt !== null) {
    item.expiresAt = new Date(Number(expiresAt)).toISOString();
  }
  return item;
}
