// LangGraph's checkpointer on weft's Store, so one store (memory, SQLite, Postgres or Redis) holds
// both a server's sessions and its LangGraph graphs' checkpoints. Where each item lives is
// checkpoint-layout.ts; how a value is kept, stored-value.ts.

import { randomBytes } from "node:crypto";

import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  compareWritesSortKeys,
  getCheckpointId,
  maxChannelVersion,
  type PendingWrite,
  type SerializerProtocol,
  TASKS,
  WRITES_IDX_MAP,
  writesSortKey,
} from "@langchain/langgraph-checkpoint";

import { WeftError } from "../errors/weft-error.js";
import type { JsonObject, JsonValue } from "../types/json.js";
import type { Namespace, Store, StoreItem } from "../types/store.js";
import { listConditions, matches } from "./checkpoint-list-filter.js";
import { blobKey, type CheckpointRecord, CheckpointLayout, missing, namespaceOf, newestFirstKey, PAGE, threadOf, type WriteBatch, type WriteRecord } from "./checkpoint-layout.js";
import { decodeValue, encodeValue, type Stored } from "./stored-value.js";

export interface WeftCheckpointSaverOptions {
  /** Where the saver keeps its items in the store. Default `["weft", "langgraph"]`. */
  namespace?: Namespace | undefined;
  /** How values are turned into bytes and back. Default: LangGraph's own serializer. */
  serde?: SerializerProtocol | undefined;
}

/**
 * A LangGraph `BaseCheckpointSaver` on a weft `Store`. Pass it as a graph's `checkpointer`. Several
 * processes may share one store: each thread's items live under their own namespaces and every
 * write is one store item, so writes to different threads never touch the same item. Writes to one
 * thread are ordered by the LangGraph run that makes them.
 */
export class WeftCheckpointSaver extends BaseCheckpointSaver {
  readonly store: Store;
  private readonly layout: CheckpointLayout;

  constructor(store: Store, options: WeftCheckpointSaverOptions = {}) {
    super(options.serde);
    this.store = store;
    this.layout = new CheckpointLayout([...(options.namespace ?? ["weft", "langgraph"])]);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const thread = threadOf(config);
    if (thread === undefined) {
      return undefined;
    }
    const ns = namespaceOf(config);
    const id = getCheckpointId(config);
    const where = this.layout.checkpoints(thread, ns);
    const item = id ? await this.store.get(where, newestFirstKey(id)) : (await this.store.search(where, { limit: 1 }))[0];
    return item && this.toTuple(item.value as unknown as CheckpointRecord);
  }

  /**
   * Newest first within each namespace of a thread (namespaces, and threads when none is given, in
   * key order). `filter` matches metadata values by JSON equality. Reads a page at a time and no
   * more than `limit`, so a short list of a long thread stays cheap.
   */
  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { limit, before, filter = {} } = options;
    const thread = threadOf(config);
    const ns = config.configurable?.checkpoint_ns as string | undefined;
    const prefix = this.layout.listed(thread, ns);
    const conditions = listConditions(thread === undefined ? ns : undefined, before?.configurable?.checkpoint_id as string | undefined, filter);
    const storeFilter = Object.keys(conditions.store).length > 0 ? { filter: conditions.store } : {};
    let left = limit ?? Number.POSITIVE_INFINITY;
    const seen = new Set<string>();
    for (let offset = 0; left > 0; ) {
      // Ask for no more than is left to return: a short list reads a short page.
      const size = Math.min(PAGE, left);
      const page = await this.store.search(prefix, { limit: size, offset, ...storeFilter });
      offset += size;
      for (const item of page) {
        // A checkpoint put while we page shifts the pages by one; do not yield an item twice.
        const identity = `${item.namespace.join("\u0000")}\u0000${item.key}`;
        if (seen.has(identity)) {
          continue;
        }
        seen.add(identity);
        const record = item.value as unknown as CheckpointRecord;
        if (!conditions.local.every(([key, value]) => matches((record.metadata as JsonObject)[key], value))) {
          continue;
        }
        yield await this.toTuple(record);
        if (--left <= 0) {
          return;
        }
      }
      if (page.length < size) {
        return;
      }
    }
  }

  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const thread = threadOf(config);
    if (thread === undefined) {
      throw missing("put a checkpoint", "thread_id");
    }
    const ns = namespaceOf(config);
    const { channel_values: values, ...rest } = checkpoint;
    // The values first: a reader that sees the checkpoint finds every value it names.
    await Promise.all(
      Object.entries(newVersions)
        .filter(([channel]) => channel in values)
        .map(async ([channel, version]) =>
          this.store.put(this.layout.blobs(thread, ns), blobKey(channel, version), (await encodeValue(this.serde, values[channel])) as unknown as JsonValue),
        ),
    );
    const encodedMetadata = await encodeValue(this.serde, metadata);
    if (!("json" in encodedMetadata)) {
      throw new WeftError("invalid_option", `The serializer turned checkpoint metadata into ${encodedMetadata.type}; WeftCheckpointSaver needs it as JSON to filter on it.`);
    }
    const record: CheckpointRecord = {
      thread,
      ns,
      id: checkpoint.id,
      parent: (config.configurable?.checkpoint_id as string | undefined) ?? null,
      checkpoint: await encodeValue(this.serde, { ...rest, channel_values: {} }),
      metadata: encodedMetadata.json,
    };
    await this.store.put(this.layout.checkpoints(thread, ns), newestFirstKey(checkpoint.id), record as unknown as JsonValue);
    return { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  /**
   * Keeps a task's writes against a checkpoint. A task's regular writes are one store item, so a
   * process that dies while writing them leaves all or none: a task with some of its writes kept
   * counts as done, and LangGraph would go on without the rest (the edge to the next node, say).
   * Writing the same (task, index) again keeps the first value, as LangGraph expects of a task that
   * re-runs; the special channels (errors, interrupts, resume values, which have negative indexes)
   * are an item each and are replaced instead.
   */
  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath = ""): Promise<void> {
    const thread = threadOf(config);
    if (thread === undefined) {
      throw missing("put writes", "thread_id");
    }
    const id = config.configurable?.checkpoint_id as string | undefined;
    if (!id) {
      throw missing("put writes", "checkpoint_id");
    }
    const where = this.layout.writes(thread, namespaceOf(config), id);
    const records = await Promise.all(
      writes.map(async ([channel, value], position): Promise<WriteRecord> => ({ task: taskId, path: taskPath, index: WRITES_IDX_MAP[channel] ?? position, channel, value: await encodeValue(this.serde, value) })),
    );
    await Promise.all(records.filter((record) => record.index < 0).map((record) => this.store.put(where, JSON.stringify([taskId, record.index]), record as unknown as JsonValue)));
    const regular = records.filter((record) => record.index >= 0);
    if (regular.length > 0) {
      await this.addRegularWrites(where, JSON.stringify([taskId]), regular);
    }
  }

  /** Adds the writes whose index the task's item does not hold yet, in one compare-and-put (again if another writer came first). */
  private async addRegularWrites(where: string[], key: string, records: WriteRecord[]): Promise<void> {
    for (;;) {
      const existing = await this.store.get(where, key);
      const kept = existing ? (existing.value as unknown as WriteBatch).writes : [];
      const held = new Set(kept.map((record) => record.index));
      const added = records.filter((record) => !held.has(record.index));
      if (added.length === 0) {
        return;
      }
      const batch: WriteBatch = { writes: [...kept, ...added] };
      if ((await this.store.compareAndPut(where, key, batch as unknown as JsonValue, { expected: existing?.revision ?? 0 })) !== undefined) {
        return;
      }
    }
  }

  async deleteThread(threadId: string): Promise<void> {
    // Checkpoints first: once they are gone no reader finds the thread, whatever is left behind.
    for (const kind of ["checkpoints", "writes", "blobs"] as const) {
      await this.deleteUnder(this.layout.ofThread(kind, String(threadId)));
    }
  }

  /**
   * Versions are a zero-padded counter plus a random part, as Python's Postgres saver makes them:
   * two branches forked from one checkpoint each get a version of their own, so neither overwrites
   * the other's value (values are kept per channel version). LangGraph compares string versions
   * itself; the declared type is `number` only because `compile({ checkpointer })` asks for a
   * `BaseCheckpointSaver<number>`.
   */
  override getNextVersion(current: number | string | undefined): number {
    const counter = current === undefined ? 0 : typeof current === "number" ? current : Number.parseInt(current.split(".")[0] ?? "0", 10);
    return `${String(counter + 1).padStart(32, "0")}.${randomBytes(8).toString("hex")}` as unknown as number;
  }

  private async toTuple(record: CheckpointRecord): Promise<CheckpointTuple> {
    const { thread, ns, id, parent } = record;
    const checkpoint = (await decodeValue(this.serde, record.checkpoint)) as Checkpoint;
    const [values, writes, metadata] = await Promise.all([
      this.channelValues(thread, ns, checkpoint.channel_versions),
      this.pendingWrites(thread, ns, id),
      this.serde.loadsTyped("json", JSON.stringify(record.metadata)) as Promise<CheckpointMetadata>,
    ]);
    checkpoint.channel_values = values;
    if (checkpoint.v < 4 && parent !== null) {
      await this.migratePendingSends(checkpoint, thread, ns, parent);
    }
    const tuple: CheckpointTuple = {
      config: { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: id } },
      checkpoint,
      metadata,
      pendingWrites: writes.map(({ task, channel, value }) => [task, channel, value]),
    };
    if (parent !== null) {
      tuple.parentConfig = { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: parent } };
    }
    return tuple;
  }

  /** One read per channel the checkpoint names, all at once; a channel with no value is left out. */
  private async channelValues(thread: string, ns: string, versions: ChannelVersions): Promise<Record<string, unknown>> {
    const where = this.layout.blobs(thread, ns);
    const found = await Promise.all(
      Object.entries(versions).map(async ([channel, version]) => {
        const item = await this.store.get(where, blobKey(channel, version));
        return item ? ([channel, await decodeValue(this.serde, item.value as unknown as Stored)] as const) : undefined;
      }),
    );
    return Object.fromEntries(found.filter((entry) => entry !== undefined));
  }

  /** The checkpoint's writes in `(task_path, task_id, idx)` order, the order a run applies them in. */
  private async pendingWrites(thread: string, ns: string, id: string): Promise<Array<{ task: string; channel: string; value: unknown }>> {
    const items = await this.searchAll(this.layout.writes(thread, ns, id));
    // A task's regular writes are one batch item; each special write is an item of its own.
    const records = items.flatMap((item) => {
      const value = item.value as unknown as WriteRecord | WriteBatch;
      return "writes" in value ? value.writes : [value];
    });
    records.sort((left, right) => compareWritesSortKeys(writesSortKey(left.path, left.task, left.index), writesSortKey(right.path, right.task, right.index)));
    return Promise.all(records.map(async ({ task, channel, value }) => ({ task, channel, value: await decodeValue(this.serde, value) })));
  }

  /** Checkpoints before format 4 kept pending sends as the parent's TASKS writes, not as a channel. */
  private async migratePendingSends(checkpoint: Checkpoint, thread: string, ns: string, parent: string): Promise<void> {
    const sends = (await this.pendingWrites(thread, ns, parent)).filter((write) => write.channel === TASKS).map((write) => write.value);
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_values[TASKS] = sends;
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }

  private async searchAll(prefix: string[]): Promise<StoreItem[]> {
    const items: StoreItem[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.store.search(prefix, { limit: PAGE, offset });
      items.push(...page);
      if (page.length < PAGE) {
        return items;
      }
    }
  }

  private async deleteUnder(prefix: string[]): Promise<void> {
    for (;;) {
      const page = await this.store.search(prefix, { limit: PAGE });
      if (page.length === 0) {
        return;
      }
      await Promise.all(page.map((item) => this.store.delete(item.namespace, item.key)));
    }
  }
}
