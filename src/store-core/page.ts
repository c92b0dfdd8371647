// The part of `search` that is the same for every driver: given live items in the contract's
// order, keep those that match the filter, skip `offset`, and stop at `limit`.

import type { SearchOptions, StoreItem } from "../types/store.js";
import { matchesFilter } from "./filter.js";

export async function takePage(items: Iterable<StoreItem> | AsyncIterable<StoreItem>, options: SearchOptions): Promise<StoreItem[]> {
  const { filter, limit = 10, offset = 0 } = options;
  const found: StoreItem[] = [];
  if (limit <= 0) {
    return found;
  }
  let skipped = 0;
  for await (const item of items) {
    if (!matchesFilter(item.value, filter)) {
      continue;
    }
    if (skipped < offset) {
      skipped++;
      continue;
    }
    found.push(item);
    if (found.length >= limit) {
      break;
    }
  }
  return found;
}
