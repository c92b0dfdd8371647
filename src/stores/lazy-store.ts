// A store that opens on first use, so choosing a driver costs nothing until a session needs it.

import type { JsonValue } from "../types/json.js";
import type { CompareAndPutOptions, ListNamespacesOptions, Namespace, PutOptions, SearchOptions, Store } from "../types/store.js";

export class LazyStore implements Store {
  private opened: Promise<Store> | undefined;

  constructor(private readonly open: () => Promise<Store>) {}

  /** Opens the store now, ahead of its first use; a failure is left for that use to report. */
  warm(): void {
    this.store().catch(() => undefined);
  }

  private store(): Promise<Store> {
    this.opened ??= this.open().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }

  async get(namespace: Namespace, key: string) {
    return (await this.store()).get(namespace, key);
  }

  async put(namespace: Namespace, key: string, value: JsonValue, options?: PutOptions) {
    return (await this.store()).put(namespace, key, value, options);
  }

  async compareAndPut(namespace: Namespace, key: string, value: JsonValue, options: CompareAndPutOptions) {
    return (await this.store()).compareAndPut(namespace, key, value, options);
  }

  async delete(namespace: Namespace, key: string) {
    return (await this.store()).delete(namespace, key);
  }

  async search(prefix: Namespace, options?: SearchOptions) {
    return (await this.store()).search(prefix, options);
  }

  async listNamespaces(options?: ListNamespacesOptions) {
    return (await this.store()).listNamespaces(options);
  }

  async close() {
    if (this.opened) {
      await (await this.opened).close?.();
    }
  }
}
