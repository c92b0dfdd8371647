// A graph's thread states. A state is folded from the thread's step records; the newest ones are
// kept between runs, so a run on a thread whose head has not moved reads nothing but the head, and
// one whose head moved reads only the records after what is kept.

import { applyChange } from "./channels.js";
import type { ChannelMap, StateOf } from "./graph-definition.js";
import type { StepRecord, ThreadStore } from "./thread-store.js";

/** A thread's state as of a step record. */
export interface LoadedThread<S> {
  seq: number;
  state: S;
  last: StepRecord | undefined;
}

const CACHE_LIMIT = 256;

export class ThreadStates<C extends ChannelMap> {
  private readonly cache = new Map<string, LoadedThread<StateOf<C>>>();

  constructor(
    private readonly channels: C,
    private readonly threads: ThreadStore,
  ) {}

  /** The thread's state and last record as of `headSeq`, using the cache when it is current. */
  async load(threadId: string, headSeq: number): Promise<LoadedThread<StateOf<C>>> {
    const cached = this.cache.get(threadId);
    if (cached && cached.seq === headSeq) {
      return cached;
    }
    const base = cached && cached.seq < headSeq ? cached : { seq: 0, state: this.initial(), last: undefined };
    const records = await this.threads.readRecords(threadId, base.seq);
    let state = base.state;
    let last = base.last;
    for (const record of records) {
      if (record.changes) {
        state = { ...state };
        for (const [name, change] of Object.entries(record.changes)) {
          if (name in this.channels) {
            (state as Record<string, unknown>)[name] = applyChange(state[name], change);
          }
        }
      }
      last = record;
    }
    const loaded = { seq: last?.seq ?? 0, state, last };
    this.remember(threadId, loaded);
    return loaded;
  }

  /** Keeps `loaded` as the thread's newest state (a run does this after every step it commits). */
  remember(threadId: string, loaded: LoadedThread<StateOf<C>>): void {
    this.cache.delete(threadId);
    this.cache.set(threadId, loaded);
    if (this.cache.size > CACHE_LIMIT) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) {
        this.cache.delete(oldest);
      }
    }
  }

  forget(threadId: string): void {
    this.cache.delete(threadId);
  }

  private initial(): StateOf<C> {
    const state: Record<string, unknown> = {};
    for (const [name, channel] of Object.entries(this.channels)) {
      state[name] = channel.initial();
    }
    return state as StateOf<C>;
  }
}
