// The part of `search` that is the same for every driver: given live items in the contract's
// order, keep those that match the filter, skip `offset`, and stop at `limit`. Items a driver
// already holds (or reads with a synchronous call, as SQLite does) go through `takePage`, which
// never yields to the event loop, so no other call runs while the driver's cursor is open; items
// read a batch at a time from a server go through `takePageAsync`.

import type { SearchOptions, StoreItem } from "../types/store.js";
import { matchesFilter } from "./filter.js";

/** The page `options` asks for: the first `limit` items (10 unless it says) that match `filter`, after `offset` (0) of them. */
export function pageOf(options: SearchOptions): { filter: SearchOptions["filter"]; limit: number; offset: number } {
  return { filter: options.filter, limit: options.limit ?? 10, offset: options.offset ?? 0 };
}

/** The page of `items` that `options` asks for, taken in one synchronous pass. */
export function takePage(items: Iterable<StoreItem>, options: SearchOptions): StoreItem[] {
  const page = new Page(options);
  if (page.full) {
    return page.found;
  }
  for (const item of items) {
    if (!page.offer(item)) {
      break;
    }
  }
  return page.found;
}

/** The page of `items` that `options` asks for, from items that arrive asynchronously. */
export async function takePageAsync(items: AsyncIterable<StoreItem>, options: SearchOptions): Promise<StoreItem[]> {
  const page = new Page(options);
  if (page.full) {
    return page.found;
  }
  for await (const item of items) {
    if (!page.offer(item)) {
      break;
    }
  }
  return page.found;
}

/** A page being filled, one item in the contract's order at a time. */
class Page {
  readonly found: StoreItem[] = [];
  private readonly filter: SearchOptions["filter"];
  private readonly limit: number;
  private skip: number;

  constructor(options: SearchOptions) {
    ({ filter: this.filter, limit: this.limit, offset: this.skip } = pageOf(options));
  }

  /** Whether the page needs no more items. */
  get full(): boolean {
    return this.found.length >= this.limit;
  }

  /** Takes `item` if it belongs on the page; false once the page is full. */
  offer(item: StoreItem): boolean {
    if (!matchesFilter(item.value, this.filter)) {
      return true;
    }
    if (this.skip > 0) {
      this.skip--;
      return true;
    }
    this.found.push(item);
    return !this.full;
  }
}
