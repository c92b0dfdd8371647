import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Command } from "@langchain/langgraph";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { afterAll, describe, expect, it } from "vitest";

import { expectResumeAfterRestart } from "../../test/support/checkpointer-scenarios.js";
import { paintGraph } from "../../test/support/paint-graph.js";
import { MemoryStore } from "../store-core/memory-store.js";
import { SqliteStore } from "../stores/sqlite/sqlite-store.js";
import type { Namespace, SearchOptions, Store, StoreItem } from "../types/store.js";
import { WeftCheckpointSaver } from "./weft-checkpoint-saver.js";

const dir = mkdtempSync(join(tmpdir(), "weft-langgraph-graph-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("WeftCheckpointSaver with a LangGraph graph", () => {
  it("keeps an interrupted run on SQLite across a restart, and a new process resumes it with Command({ resume })", async () => {
    const path = join(dir, "restart.db");
    await expectResumeAfterRestart(() => new SqliteStore({ path }), (store) => new WeftCheckpointSaver(store), "paint-1");
  });

  it("stores each channel value once per version, not again at every step", async () => {
    const store = new MemoryStore();
    const graph = paintGraph(new WeftCheckpointSaver(store), {});
    const config = { configurable: { thread_id: "paint-2" } };
    await graph.invoke({ topic: "the fence" }, config);
    await graph.invoke(new Command({ resume: "red" }), config);
    const checkpoints = await store.search(["weft", "langgraph", "checkpoints", "paint-2"], { limit: 100 });
    const blobs = await store.search(["weft", "langgraph", "blobs", "paint-2"], { limit: 100 });
    const topicBlobs = blobs.filter((item) => (JSON.parse(item.key) as string[])[0] === "topic");
    expect(checkpoints.length).toBeGreaterThan(3);
    // topic was written by the input step only; five checkpoints later it is still one value.
    expect(topicBlobs).toHaveLength(1);
  });

  it("keeps a branch's values when another branch is forked from the same checkpoint", async () => {
    const graph = paintGraph(new WeftCheckpointSaver(new MemoryStore()));
    const config = { configurable: { thread_id: "paint-3" } };
    await graph.invoke({ topic: "the gate" }, config);
    const asking = await graph.getState(config);
    await graph.invoke(new Command({ resume: "green" }), config);
    const finished = await graph.getState(config);
    // A fork from the checkpoint that asked writes `answer` too, one step after the same parent.
    const fork = await graph.updateState(asking.config, { answer: "red" }, "ask");
    expect((await graph.getState(fork)).values.answer).toBe("red");
    expect((await graph.getState(finished.config)).values).toMatchObject({ answer: "green", log: ["plan the gate", "asked, got green", "paint it green"] });
  });
});

describe("WeftCheckpointSaver", () => {
  async function startThread(saver: WeftCheckpointSaver, thread: string) {
    return saver.put({ configurable: { thread_id: thread } }, { ...emptyCheckpoint(), id: uuid6(0) }, { source: "input", step: -1, parents: {} }, {});
  }

  it("keeps the first value of a task's write at one index, and the last of an error or interrupt", async () => {
    const saver = new WeftCheckpointSaver(new MemoryStore());
    const config = await startThread(saver, "t");
    await saver.putWrites(config, [["answer", "first"]], "task-a");
    await saver.putWrites(config, [["answer", "again"]], "task-a");
    await saver.putWrites(config, [["__error__", "boom 1"]], "task-b");
    await saver.putWrites(config, [["__error__", "boom 2"]], "task-b");
    expect((await saver.getTuple(config))?.pendingWrites).toEqual([
      ["task-a", "answer", "first"],
      ["task-b", "__error__", "boom 2"],
    ]);
  });

  it("keeps a task's writes all or none: the store failing mid-call (a process dying) leaves no part of them", async () => {
    const store = new FailingStore(new MemoryStore());
    const saver = new WeftCheckpointSaver(store);
    const config = await startThread(saver, "t");
    // The second store write of the call fails; the task's writes must not be half there.
    store.failAfter = 1;
    await saver.putWrites(config, [["messages", ["hi"]], ["branch:to:model", null], ["__error__", "boom"]], "task-a").catch(() => undefined);
    store.failAfter = undefined;
    const regular = (await saver.getTuple(config))?.pendingWrites?.filter(([, channel]) => channel !== "__error__");
    expect([[], [["task-a", "messages", ["hi"]], ["task-a", "branch:to:model", null]]]).toContainEqual(regular);
    // A task that writes more later keeps what it had and adds the rest.
    await saver.putWrites(config, [["messages", ["hi"]], ["branch:to:model", null], ["extra", 1]], "task-a");
    expect((await saver.getTuple(config))?.pendingWrites?.filter(([, channel]) => channel !== "__error__")).toEqual([
      ["task-a", "messages", ["hi"]],
      ["task-a", "branch:to:model", null],
      ["task-a", "extra", 1],
    ]);
  });

  it("returns pending writes ordered by task path, then task id, then index", async () => {
    const saver = new WeftCheckpointSaver(new MemoryStore());
    const config = await startThread(saver, "t");
    await saver.putWrites(config, [["x", 3], ["x", 4]], "task-z", "~__pregel_pull, b");
    await saver.putWrites(config, [["x", 2]], "task-y", "~__pregel_pull, a");
    await saver.putWrites(config, [["x", 1]], "00000000-0000-0000-0000-000000000000");
    const writes = (await saver.getTuple(config))?.pendingWrites?.map(([, , value]) => value);
    expect(writes).toEqual([1, 2, 3, 4]);
  });

  it("lists newest first, and reads only what it returns: the latest of 250 checkpoints is one item", async () => {
    const store = new CountingStore(new MemoryStore());
    const saver = new WeftCheckpointSaver(store);
    let config = await startThread(saver, "long");
    const ids = [config.configurable?.checkpoint_id as string];
    for (let step = 0; step < 249; step++) {
      const id = uuid6(0);
      config = await saver.put(config, { ...emptyCheckpoint(), id }, { source: "loop", step, parents: {} }, {});
      ids.push(id);
    }
    store.read = 0;
    const latest = await saver.getTuple({ configurable: { thread_id: "long" } });
    expect(latest?.checkpoint.id).toBe(ids.at(-1));
    expect(store.read).toBe(1);

    store.read = 0;
    const listed: string[] = [];
    for await (const tuple of saver.list({ configurable: { thread_id: "long" } }, { limit: 3 })) {
      listed.push(tuple.checkpoint.id);
    }
    expect(listed).toEqual(ids.slice(-3).reverse());
    expect(store.read).toBe(3);

    const all: string[] = [];
    for await (const tuple of saver.list({ configurable: { thread_id: "long" } }, { before: { configurable: { checkpoint_id: ids[200] } } })) {
      all.push(tuple.checkpoint.id);
    }
    expect(all).toEqual(ids.slice(0, 200).reverse());
  });

  it("deletes one thread and leaves the others", async () => {
    const store = new MemoryStore();
    const saver = new WeftCheckpointSaver(store);
    const kept = await startThread(saver, "kept");
    const gone = await startThread(saver, "gone");
    await saver.putWrites(gone, [["x", 1]], "task");
    await saver.deleteThread("gone");
    expect(await saver.getTuple(gone)).toBeUndefined();
    expect(await store.search(["weft", "langgraph"], { limit: 100, filter: {} })).toHaveLength(1);
    expect((await saver.getTuple(kept))?.checkpoint.id).toBe(kept.configurable?.checkpoint_id);
  });
});

/** A store that counts the checkpoint items it hands out, to show what a call reads. */
class CountingStore implements Store {
  read = 0;

  constructor(private readonly inner: Store) {}

  async get(namespace: Namespace, key: string) {
    const item = await this.inner.get(namespace, key);
    this.count(item ? [item] : []);
    return item;
  }

  put: Store["put"] = (...args) => this.inner.put(...args);
  compareAndPut: Store["compareAndPut"] = (...args) => this.inner.compareAndPut(...args);
  delete: Store["delete"] = (...args) => this.inner.delete(...args);
  listNamespaces: Store["listNamespaces"] = (...args) => this.inner.listNamespaces(...args);

  async search(prefix: Namespace, options?: SearchOptions) {
    const items = await this.inner.search(prefix, options);
    this.count(items);
    return items;
  }

  private count(items: StoreItem[]) {
    this.read += items.filter((item) => item.namespace.includes("checkpoints")).length;
  }
}

/** A store whose writes fail once `failAfter` of them have gone through, as a process dying between two writes leaves it. */
class FailingStore implements Store {
  failAfter: number | undefined;

  constructor(private readonly inner: Store) {}

  get: Store["get"] = (...args) => this.inner.get(...args);
  search: Store["search"] = (...args) => this.inner.search(...args);
  delete: Store["delete"] = (...args) => this.inner.delete(...args);
  listNamespaces: Store["listNamespaces"] = (...args) => this.inner.listNamespaces(...args);
  put: Store["put"] = (...args) => this.write(() => this.inner.put(...args));
  compareAndPut: Store["compareAndPut"] = (...args) => this.write(() => this.inner.compareAndPut(...args));

  private write<T>(operation: () => Promise<T>): Promise<T> {
    if (this.failAfter !== undefined) {
      if (this.failAfter <= 0) {
        return Promise.reject(new Error("the store went away"));
      }
      this.failAfter--;
    }
    return operation();
  }
}
