// A Store wrapper that counts what is written through it: the bytes of every value and key put,
// so a benchmark can say what a turn costs in storage.

import type { JsonValue } from "../src/types/json.js";
import type { CompareAndPutOptions, Namespace, PutOptions, Store } from "../src/types/store.js";

export class CountingStore implements Store {
  bytes = 0;
  writes = 0;

  constructor(readonly inner: Store) {}

  get(namespace: Namespace, key: string) {
    return this.inner.get(namespace, key);
  }

  put(namespace: Namespace, key: string, value: JsonValue, options?: PutOptions) {
    this.count(namespace, key, value);
    return this.inner.put(namespace, key, value, options);
  }

  compareAndPut(namespace: Namespace, key: string, value: JsonValue, options: CompareAndPutOptions) {
    this.count(namespace, key, value);
    return this.inner.compareAndPut(namespace, key, value, options);
  }

  delete(namespace: Namespace, key: string) {
    return this.inner.delete(namespace, key);
  }

  search(...args: Parameters<Store["search"]>) {
    return this.inner.search(...args);
  }

  listNamespaces(...args: Parameters<Store["listNamespaces"]>) {
    return this.inner.listNamespaces(...args);
  }

  async close() {
    await this.inner.close?.();
  }

  private count(namespace: Namespace, key: string, value: JsonValue): void {
    this.writes++;
    this.bytes += Buffer.byteLength(JSON.stringify(value)) + Buffer.byteLength(key) + namespace.reduce((total, label) => total + Buffer.byteLength(label), 0);
  }
}
