// How a thread is kept in a Store: one namespace per thread holding a small head item (status,
// lease, pending interrupts) and one record per step (what the step changed, what runs next).
// Everything of one thread shares a namespace, so drivers that shard by namespace keep it together.

import type { JsonValue } from "../types/json.js";
import type { FieldCondition, Namespace, Store } from "../types/store.js";
import type { ChannelChange } from "./channels.js";
import type { Interrupt } from "./interrupt.js";
import type { Lease } from "./lease.js";
import type { RunFinish } from "./run-outcome.js";

export type ThreadStatus = "running" | "interrupted" | "completed" | "cancelled" | "failed";

export interface ThreadHead {
  v: 1;
  /** The sequence number of the newest step record. */
  seq: number;
  runId: string;
  status: ThreadStatus;
  pending?: Interrupt[] | undefined;
  lease?: Lease | undefined;
  finish?: RunFinish | undefined;
  error?: { name: string; message: string; code?: string | undefined } | undefined;
  updatedAt: string;
}

export interface StepRecord {
  v: 1;
  seq: number;
  runId: string;
  kind: "input" | "step" | "paused" | "resume";
  /** Steps taken since the run began (resumes carry on counting). */
  step: number;
  /** The seq of the record that scheduled `next`; default interrupt ids are derived from it. */
  scheduledAt: number;
  changes?: Record<string, ChannelChange> | undefined;
  /** Nodes to run in the next step. */
  next: string[];
  status: "running" | "interrupted" | "completed";
  pending?: Interrupt[] | undefined;
  /** Answers gathered for the paused step so far. */
  answers?: Record<string, JsonValue> | undefined;
  /** Writes of nodes that finished in a paused step, so they do not run again. */
  done?: Record<string, Record<string, unknown>> | undefined;
  /** Results a paused node memoised, by node and key. */
  memos?: Record<string, Record<string, JsonValue>> | undefined;
  finish?: RunFinish | undefined;
}

const HEAD = "head";
const PAGE = 1000;

export function recordKey(seq: number): string {
  return `s:${String(seq).padStart(12, "0")}`;
}

/** Reads and writes one graph's threads in a store. */
export class ThreadStore {
  constructor(
    readonly store: Store,
    readonly namespace: Namespace,
  ) {}

  threadNamespace(threadId: string): string[] {
    return [...this.namespace, threadId];
  }

  async readHead(threadId: string): Promise<{ head: ThreadHead; revision: number } | undefined> {
    const item = await this.store.get(this.threadNamespace(threadId), HEAD);
    return item && { head: item.value as unknown as ThreadHead, revision: item.revision };
  }

  /** Writes the head only over `revision`; resolves with the new revision, or undefined on a lost race. */
  writeHead(threadId: string, head: ThreadHead, revision: number): Promise<number | undefined> {
    return this.store.compareAndPut(this.threadNamespace(threadId), HEAD, head as unknown as JsonValue, { expected: revision });
  }

  writeRecord(threadId: string, record: StepRecord): Promise<void> {
    return this.store.put(this.threadNamespace(threadId), recordKey(record.seq), record as unknown as JsonValue);
  }

  /** Removes everything kept for a thread. */
  async deleteThread(threadId: string): Promise<void> {
    const namespace = this.threadNamespace(threadId);
    for (;;) {
      const items = await this.store.search(namespace, { limit: PAGE });
      await Promise.all(items.map((item) => this.store.delete(namespace, item.key)));
      if (items.length < PAGE) {
        return;
      }
    }
  }

  /** Step records with a seq above `afterSeq`, oldest first. */
  async readRecords(threadId: string, afterSeq = 0): Promise<StepRecord[]> {
    const records: StepRecord[] = [];
    const filter: Record<string, FieldCondition> = afterSeq > 0 ? { seq: { $gt: afterSeq } } : { kind: { $exists: true } };
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.store.search(this.threadNamespace(threadId), { filter, limit: PAGE, offset });
      for (const item of page) {
        if (item.key !== HEAD) {
          records.push(item.value as unknown as StepRecord);
        }
      }
      if (page.length < PAGE) {
        return records;
      }
    }
  }
}
