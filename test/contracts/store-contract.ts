// The behaviour every Store driver must show, written once. A driver's test file calls
// `describeStoreContract` with a factory; any case a driver skips must say why.

import { afterEach, describe, expect, it } from "vitest";

import { InvalidNamespaceError } from "../../src/errors/store-errors.js";
import type { Store } from "../../src/types/store.js";

export interface StoreContractOptions {
  /** Shown in the suite's name. */
  name: string;
  /** A store that sees no items from earlier tests (a fresh file, schema or key prefix). */
  create: () => Promise<Store>;
  /** Removes what `create` made. Defaults to `store.close()`. */
  destroy?: ((store: Store) => Promise<void>) | undefined;
  /** Why the suite cannot run here (for example a server that is not configured); it is then skipped with that reason. */
  skip?: string | undefined;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

export function describeStoreContract(options: StoreContractOptions): void {
  const title = options.skip ? `Store contract: ${options.name} (skipped: ${options.skip})` : `Store contract: ${options.name}`;
  describe.skipIf(options.skip !== undefined)(title, () => {
    const opened: Store[] = [];
    async function open(): Promise<Store> {
      const store = await options.create();
      opened.push(store);
      return store;
    }
    afterEach(async () => {
      for (const store of opened.splice(0)) {
        await (options.destroy ? options.destroy(store) : store.close?.());
      }
    });

    it("returns what was put, with times and a first revision of 1", async () => {
      const store = await open();
      const value = { text: "héllo", list: [1, 2.5, null, true], nested: { deep: { n: -3 } } };
      await store.put(["docs"], "a", value);
      const item = await store.get(["docs"], "a");
      expect(item?.value).toEqual(value);
      expect(item?.namespace).toEqual(["docs"]);
      expect(item?.key).toBe("a");
      expect(item?.revision).toBe(1);
      expect(Number.isNaN(Date.parse(item?.createdAt ?? ""))).toBe(false);
      expect(item?.expiresAt).toBeUndefined();
    });

    it("keeps any text exactly, large or small, by put and by compareAndPut, and gives what JSON would make of the rest", async () => {
      const store = await open();
      const text = 'quotes " and \\ backslashes, \n\t\r\u0000\u001f controls, é 漢字 😀 \ud800 lone \udc00 surrogates';
      const value = { text, [text]: "as a key", long: `${"word ".repeat(200_000)}${text}`, list: [text, -0, 1e21], when: new Date(Date.UTC(2026, 0, 2)), gone: undefined };
      const expected = JSON.parse(JSON.stringify(value)) as unknown;
      await store.put(["texts"], "put", value as never);
      expect((await store.get(["texts"], "put"))?.value).toStrictEqual(expected);
      await store.compareAndPut(["texts"], "cas", value as never, { expected: 0 });
      await store.compareAndPut(["texts"], "cas", value as never, { expected: 1 });
      expect((await store.get(["texts"], "cas"))?.value).toStrictEqual(expected);
      expect((await store.search(["texts"], { filter: { text } })).map((item) => item.key)).toEqual(["cas", "put"]);
    });

    it("keeps scalar and array values", async () => {
      const store = await open();
      await store.put(["values"], "string", "just text");
      await store.put(["values"], "number", 42);
      await store.put(["values"], "null", null);
      await store.put(["values"], "array", ["a", { b: 1 }]);
      expect((await store.get(["values"], "string"))?.value).toBe("just text");
      expect((await store.get(["values"], "number"))?.value).toBe(42);
      expect((await store.get(["values"], "null"))?.value).toBeNull();
      expect((await store.get(["values"], "array"))?.value).toEqual(["a", { b: 1 }]);
    });

    it("answers undefined for an item that does not exist", async () => {
      const store = await open();
      expect(await store.get(["nothing"], "here")).toBeUndefined();
    });

    it("replaces a value, keeps createdAt and counts revisions", async () => {
      const store = await open();
      await store.put(["docs"], "a", { v: 1 });
      const first = await store.get(["docs"], "a");
      await sleep(5);
      await store.put(["docs"], "a", { v: 2 });
      const second = await store.get(["docs"], "a");
      expect(second?.value).toEqual({ v: 2 });
      expect(second?.createdAt).toBe(first?.createdAt);
      expect(Date.parse(second?.updatedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(first?.updatedAt ?? ""));
      expect(second?.revision).toBe(2);
    });

    it("deletes, and deleting a missing item is not an error", async () => {
      const store = await open();
      await store.put(["docs"], "a", 1);
      await store.delete(["docs"], "a");
      expect(await store.get(["docs"], "a")).toBeUndefined();
      await expect(store.delete(["docs"], "never")).resolves.toBeUndefined();
    });

    it("gives callers copies, not shared objects", async () => {
      const store = await open();
      const value = { list: [1] };
      await store.put(["docs"], "a", value);
      value.list.push(2);
      const item = await store.get(["docs"], "a");
      (item?.value as { list: number[] }).list.push(3);
      expect((await store.get(["docs"], "a"))?.value).toEqual({ list: [1] });
    });

    it("matches namespace labels whole, never as string prefixes", async () => {
      const store = await open();
      await store.put(["alice"], "k", "alice");
      await store.put(["alicia"], "k", "alicia");
      await store.put(["alice", "notes"], "k", "alice-notes");
      await store.put(["a", "lice"], "k", "a-lice");
      const underAlice = await store.search(["alice"]);
      expect(underAlice.map((item) => item.value)).toEqual(["alice", "alice-notes"]);
      expect((await store.get(["alice"], "k"))?.value).toBe("alice");
      expect((await store.get(["a", "lice"], "k"))?.value).toBe("a-lice");
    });

    it("keeps labels with _, :, /, ., %, spaces, control characters and non-ASCII apart", async () => {
      const store = await open();
      const labels = ["user_1", "user%1", "a:b", "a/b", "a.b", "with space", "日本語", "émoji🙂", "\u0001", "\u0002x", "x\u0001y"];
      for (const label of labels) {
        await store.put(["tenant", label], "key:/_%", { label });
      }
      for (const label of labels) {
        expect((await store.get(["tenant", label], "key:/_%"))?.value).toEqual({ label });
        const found = await store.search(["tenant", label]);
        expect(found.map((item) => item.value)).toEqual([{ label }]);
      }
      expect(await store.search(["tenant"], { limit: 100 })).toHaveLength(labels.length);
      expect(await store.get(["tenant", "user"], "key:/_%")).toBeUndefined();
      expect(await store.get(["tenant", "a"], "key:/_%")).toBeUndefined();
    });

    it("refuses empty namespaces, empty labels and NUL with InvalidNamespaceError", async () => {
      const store = await open();
      await expect(store.put([], "k", 1)).rejects.toBeInstanceOf(InvalidNamespaceError);
      await expect(store.put(["a", ""], "k", 1)).rejects.toBeInstanceOf(InvalidNamespaceError);
      await expect(store.put(["a\u0000b"], "k", 1)).rejects.toBeInstanceOf(InvalidNamespaceError);
      await expect(store.put(["a"], "", 1)).rejects.toBeInstanceOf(InvalidNamespaceError);
      await expect(store.get(["a"], "k\u0000")).rejects.toBeInstanceOf(InvalidNamespaceError);
    });

    it("searches everything with [] in namespace-then-key code-point order, with limit and offset", async () => {
      const store = await open();
      await store.put(["b"], "2", 4);
      await store.put(["a", "z"], "1", 3);
      await store.put(["a"], "b", 2);
      await store.put(["a"], "a", 1);
      await store.put(["b"], "10", 5);
      await store.put(["b"], "\u{1F600}", 7);
      await store.put(["b"], "\uFFFD", 6);
      const all = await store.search([], { limit: 100 });
      expect(all.map((item) => item.value)).toEqual([1, 2, 3, 5, 4, 6, 7]);
      expect((await store.search([])).length).toBe(7);
      const page = await store.search([], { limit: 2, offset: 2 });
      expect(page.map((item) => item.value)).toEqual([3, 5]);
      expect(await store.search([], { offset: 50 })).toEqual([]);
    });

    it("defaults search to 10 results", async () => {
      const store = await open();
      for (let index = 0; index < 12; index++) {
        await store.put(["many"], `k${String(index).padStart(2, "0")}`, index);
      }
      expect(await store.search(["many"])).toHaveLength(10);
    });

    it("filters on values: equality, comparisons, sets, existence and dotted paths", async () => {
      const store = await open();
      await store.put(["f"], "1", { n: 1, tag: "red", meta: { owner: "ann" } });
      await store.put(["f"], "2", { n: 2, tag: "blue", meta: { owner: "bob" } });
      await store.put(["f"], "3", { n: 3, tag: "red" });
      await store.put(["f"], "4", { n: "3", tag: null });
      const keys = async (filter: Parameters<Store["search"]>[1]) =>
        (await store.search(["f"], { limit: 100, ...filter })).map((item) => item.key);
      expect(await keys({ filter: { tag: "red" } })).toEqual(["1", "3"]);
      expect(await keys({ filter: { tag: { $eq: "blue" } } })).toEqual(["2"]);
      expect(await keys({ filter: { tag: { $ne: "red" } } })).toEqual(["2", "4"]);
      expect(await keys({ filter: { n: { $gt: 1 } } })).toEqual(["2", "3"]);
      expect(await keys({ filter: { n: { $gte: 2, $lt: 3 } } })).toEqual(["2"]);
      expect(await keys({ filter: { n: { $lte: 1 } } })).toEqual(["1"]);
      expect(await keys({ filter: { n: { $in: [1, "3"] } } })).toEqual(["1", "4"]);
      expect(await keys({ filter: { tag: { $nin: ["red", "blue"] } } })).toEqual(["4"]);
      expect(await keys({ filter: { meta: { $exists: true } } })).toEqual(["1", "2"]);
      expect(await keys({ filter: { meta: { $exists: false } } })).toEqual(["3", "4"]);
      expect(await keys({ filter: { "meta.owner": "bob" } })).toEqual(["2"]);
      expect(await keys({ filter: { tag: null } })).toEqual(["4"]);
      expect(await keys({ filter: { tag: "red", n: 3 } })).toEqual(["3"]);
      expect(await keys({ filter: { tag: "red" }, limit: 1, offset: 1 })).toEqual(["3"]);
    });

    it("serves writes and deletes made while a filtered search runs, and the search finds each item there throughout once", async () => {
      const store = await open();
      const name = (letter: string, index: number) => `${letter}${String(index).padStart(5, "0")}`;
      // Items removed during the search sort before the ones it must find, and there are more
      // of those than a driver reads at once: a driver that read by position would skip some.
      const doomed = Array.from({ length: 300 }, (_, index) => name("a", index));
      const kept = Array.from({ length: 1200 }, (_, index) => name("k", index));
      await Promise.all(doomed.map((key) => store.put(["overlap"], key, { kind: "doomed" })));
      await Promise.all(kept.map((key, index) => store.put(["overlap"], key, { kind: "kept", index })));

      let searching = true;
      const search = store.search(["overlap"], { filter: { kind: "kept" }, limit: 5000 }).finally(() => {
        searching = false;
      });
      // The first delete and put are called before the search has had a turn of the event loop,
      // as an editor's session/delete arrives during its session/list; more follow until it ends.
      const changes = (async () => {
        let made = 0;
        do {
          await store.delete(["overlap"], name("a", made));
          await store.put(["overlap"], name("z", made), { kind: "fresh" });
          made++;
        } while (searching && made < doomed.length);
        return made;
      })();
      const [found, made] = await Promise.all([search, changes]);

      expect(found.map((item) => item.key)).toEqual(kept);
      const left = await store.search(["overlap"], { filter: { kind: { $ne: "kept" } }, limit: 5000 });
      expect(left.map((item) => item.key)).toEqual([...doomed.slice(made), ...Array.from({ length: made }, (_, index) => name("z", index))]);
    });

    it("hides items once their TTL has passed, from get, search and listNamespaces", async () => {
      const store = await open();
      await store.put(["ttl", "short"], "gone", 1, { ttlMs: 60 });
      await store.put(["ttl", "long"], "kept", 2, { ttlMs: 600_000 });
      await store.put(["ttl", "long"], "forever", 3);
      const kept = await store.get(["ttl", "long"], "kept");
      expect(kept?.value).toBe(2);
      expect(Date.parse(kept?.expiresAt ?? "")).toBeGreaterThan(Date.now() + 500_000);
      await sleep(250);
      expect(await store.get(["ttl", "short"], "gone")).toBeUndefined();
      expect((await store.search(["ttl"])).map((item) => item.key)).toEqual(["forever", "kept"]);
      expect(await store.listNamespaces({ prefix: ["ttl"] })).toEqual([["ttl", "long"]]);
    });

    it("clears an expiry when an item is put again without a TTL", async () => {
      const store = await open();
      await store.put(["ttl"], "k", 1, { ttlMs: 60 });
      await store.put(["ttl"], "k", 2);
      await sleep(150);
      const item = await store.get(["ttl"], "k");
      expect(item?.value).toBe(2);
      expect(item?.expiresAt).toBeUndefined();
    });

    it("compareAndPut writes only over the revision the caller read", async () => {
      const store = await open();
      expect(await store.compareAndPut(["cas"], "k", "first", { expected: 0 })).toBe(1);
      expect(await store.compareAndPut(["cas"], "k", "again", { expected: 0 })).toBeUndefined();
      expect(await store.compareAndPut(["cas"], "k", "stale", { expected: 5 })).toBeUndefined();
      expect((await store.get(["cas"], "k"))?.value).toBe("first");
      expect(await store.compareAndPut(["cas"], "k", "second", { expected: 1 })).toBe(2);
      await store.put(["cas"], "k", "plain");
      expect((await store.get(["cas"], "k"))?.revision).toBe(3);
    });

    it("lets exactly one of several racing compareAndPuts win", async () => {
      const store = await open();
      await store.put(["cas"], "race", 0);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, index) => store.compareAndPut(["cas"], "race", index + 1, { expected: 1 })),
      );
      expect(results.filter((result) => result !== undefined)).toEqual([2]);
    });

    it("treats an expired item as absent for compareAndPut", async () => {
      const store = await open();
      await store.put(["cas"], "lease", "old", { ttlMs: 40 });
      await sleep(150);
      expect(await store.compareAndPut(["cas"], "lease", "new", { expected: 0, ttlMs: 60_000 })).toBe(1);
      expect((await store.get(["cas"], "lease"))?.value).toBe("new");
    });

    it("lists namespaces by prefix, suffix and depth, in order, with paging", async () => {
      const store = await open();
      await store.put(["app", "users", "ann"], "k", 1);
      await store.put(["app", "users", "bob"], "k", 1);
      await store.put(["app", "docs"], "k", 1);
      await store.put(["other", "users"], "k", 1);
      expect(await store.listNamespaces()).toEqual([
        ["app", "docs"],
        ["app", "users", "ann"],
        ["app", "users", "bob"],
        ["other", "users"],
      ]);
      expect(await store.listNamespaces({ prefix: ["app", "users"] })).toEqual([
        ["app", "users", "ann"],
        ["app", "users", "bob"],
      ]);
      expect(await store.listNamespaces({ suffix: ["users"] })).toEqual([["other", "users"]]);
      expect(await store.listNamespaces({ maxDepth: 2 })).toEqual([
        ["app", "docs"],
        ["app", "users"],
        ["other", "users"],
      ]);
      expect(await store.listNamespaces({ limit: 2, offset: 1 })).toEqual([
        ["app", "users", "ann"],
        ["app", "users", "bob"],
      ]);
      await store.delete(["app", "docs"], "k");
      expect(await store.listNamespaces({ maxDepth: 1 })).toEqual([["app"], ["other"]]);
      expect(await store.listNamespaces({ prefix: ["app", "docs"] })).toEqual([]);
    });

    it("keeps a value of a megabyte", async () => {
      const store = await open();
      const big = "x".repeat(1024 * 1024);
      await store.put(["big"], "k", { big });
      expect(((await store.get(["big"], "k"))?.value as { big: string }).big.length).toBe(big.length);
    });
  });
}
