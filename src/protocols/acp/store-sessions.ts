// storeAcpSessions(): ACP sessions in any long-term Store. Each session lives in one namespace: a
// `meta` item (everything but the conversation), one item per message, and a `lease` item while a
// process runs a turn of it. A write appends only the messages that are new, then commits by
// replacing `meta` with a compare-and-put, so writing a turn costs the size of the turn and a
// process working from a stale copy is refused instead of overwriting someone else's turn.

import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

import { dropOwner, holdOwner, leaseHeld, newLease, type Lease } from "../../graph/lease.js";
import type { JsonValue } from "../../types/json.js";
import type { Message } from "../../types/messages.js";
import type { Namespace, Store } from "../../types/store.js";
import type { ProtocolInterrupt } from "../shared.js";
import {
  type AcpSessionClaim,
  type AcpSessionInfo,
  type AcpSessionRecord,
  type AcpSessionStore,
  type AcpSessionSummary,
  type AcpTurnRecord,
  sessionTitle,
} from "./session-store.js";
import { SessionConflictError } from "./session-errors.js";

export { SessionConflictError };

/** An AcpSessionStore that several processes can share. */
export interface SharedAcpSessionStore extends AcpSessionStore {
  list(options: { cwd?: string | undefined; offset: number; limit: number }): Promise<AcpSessionSummary[]>;
  delete(sessionId: string): Promise<void>;
  /** Claims a session for a turn; undefined while another live process holds it. */
  claim(sessionId: string): Promise<AcpSessionClaim | undefined>;
}

interface Meta {
  v: 1;
  info: AcpSessionInfo;
  always: Array<[string, boolean]>;
  pending?: ProtocolInterrupt[] | undefined;
  answered?: Record<string, unknown> | undefined;
  turn?: AcpTurnRecord | undefined;
  updatedAt: string;
  /** How many messages the conversation has; message items at or past it are leftovers. */
  count: number;
}

interface Known {
  revision: number;
  record: AcpSessionRecord;
}

const PAGE = 1000;

export function storeAcpSessions(store: Store, options: { namespace?: readonly string[] | undefined; leaseMs?: number | undefined } = {}): SharedAcpSessionStore {
  return new StoredSessions(store, options.namespace ?? ["weft", "acp"], options.leaseMs ?? 30_000);
}

class StoredSessions implements SharedAcpSessionStore {
  /** What this process last read or wrote of each session, by the revision of its `meta`. */
  private readonly known = new Map<string, Known>();
  private readonly instance = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly store: Store,
    private readonly root: Namespace,
    private readonly leaseMs: number,
  ) {}

  async get(sessionId: string): Promise<AcpSessionRecord | undefined> {
    const namespace = this.sessionNamespace(sessionId);
    const meta = await this.store.get(namespace, "meta");
    if (!meta) {
      this.known.delete(sessionId);
      return undefined;
    }
    const known = this.known.get(sessionId);
    if (known && known.revision === meta.revision) {
      return copy(known.record);
    }
    const value = meta.value as unknown as Meta;
    const history: Message[] = [];
    // One read for the whole conversation (its messages, `meta`, `lease`, and a few leftovers).
    const limit = value.count + 64;
    for (let offset = 0; ; offset += limit) {
      const page = await this.store.search(namespace, { limit, offset });
      for (const item of page) {
        // Message items sort before `meta` and `lease`; ones at or past `count` are leftovers of an unfinished write.
        const entry = item.value as unknown as { index?: number | undefined; message?: Message | undefined };
        if (typeof entry.index === "number" && entry.index < value.count && entry.message) {
          history.push(entry.message);
        }
      }
      if (page.length < limit) {
        break;
      }
    }
    const record = toRecord(value, history);
    this.known.set(sessionId, { revision: meta.revision, record: copy(record) });
    return record;
  }

  async put(record: AcpSessionRecord): Promise<void> {
    const sessionId = record.info.id;
    const namespace = this.sessionNamespace(sessionId);
    let known = this.known.get(sessionId);
    if (!known) {
      // First write from this process: find out what the store already has.
      await this.get(sessionId);
      known = this.known.get(sessionId);
    }
    const before = known?.record.history ?? [];
    const after = record.history;
    // Conversations grow at the end (and change only at the end, when a refused or failed turn is
    // taken back or a changed message replaces one under a new id), so when the last message this
    // process wrote is still in place, everything before it is too.
    const last = before.length - 1;
    let keep = last >= 0 && after.length > last && after[last]?.id === before[last]?.id ? before.length : 0;
    if (keep === 0) {
      while (keep < before.length && keep < after.length && before[keep]?.id === after[keep]?.id) {
        keep++;
      }
    }
    await Promise.all(after.slice(keep).map((message, offset) => this.store.put(namespace, messageKey(keep + offset), { index: keep + offset, message: message as unknown as JsonValue })));
    const meta: Meta = { v: 1, info: record.info, always: record.always, updatedAt: record.updatedAt, count: after.length };
    if (record.pending?.length) {
      meta.pending = record.pending;
    }
    if (record.answered && Object.keys(record.answered).length > 0) {
      meta.answered = record.answered;
    }
    if (record.turn) {
      meta.turn = record.turn;
    }
    const revision = await this.store.compareAndPut(namespace, "meta", meta as unknown as JsonValue, { expected: known?.revision ?? 0 });
    if (revision === undefined) {
      this.known.delete(sessionId);
      throw new SessionConflictError(sessionId);
    }
    this.known.set(sessionId, { revision, record: copy(record) });
    for (let index = after.length; index < before.length; index++) {
      await this.store.delete(namespace, messageKey(index));
    }
    const summary: Record<string, JsonValue> = { cwd: record.info.cwd, updatedAt: record.updatedAt };
    const title = sessionTitle(after);
    if (title) {
      summary.title = title;
    }
    await this.store.put(this.indexNamespace(), sessionId, summary);
  }

  async list(options: { cwd?: string | undefined; offset: number; limit: number }): Promise<AcpSessionSummary[]> {
    const summaries: AcpSessionSummary[] = [];
    const filter = options.cwd === undefined ? undefined : { cwd: options.cwd };
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.store.search(this.indexNamespace(), filter ? { filter, limit: PAGE, offset } : { limit: PAGE, offset });
      for (const item of page) {
        const value = item.value as { cwd: string; updatedAt: string; title?: string | undefined };
        const summary: AcpSessionSummary = { sessionId: item.key, cwd: value.cwd, updatedAt: value.updatedAt };
        if (value.title) {
          summary.title = value.title;
        }
        summaries.push(summary);
      }
      if (page.length < PAGE) {
        break;
      }
    }
    return summaries.sort((left, right) => right.updatedAt.localeCompare(left.updatedAt)).slice(options.offset, options.offset + options.limit);
  }

  async delete(sessionId: string): Promise<void> {
    const namespace = this.sessionNamespace(sessionId);
    await this.store.delete(this.indexNamespace(), sessionId);
    for (;;) {
      const items = await this.store.search(namespace, { limit: PAGE });
      for (const item of items) {
        await this.store.delete(namespace, item.key);
      }
      if (items.length < PAGE) {
        break;
      }
    }
    this.known.delete(sessionId);
  }

  async claim(sessionId: string): Promise<AcpSessionClaim | undefined> {
    const namespace = this.sessionNamespace(sessionId);
    const owner = `${this.instance}:${randomUUID().slice(0, 8)}`;
    const current = await this.store.get(namespace, "lease");
    if (current && leaseHeld(current.value as unknown as Lease)) {
      return undefined;
    }
    let revision = await this.store.compareAndPut(namespace, "lease", newLease(owner, this.leaseMs) as unknown as JsonValue, {
      expected: current?.revision ?? 0,
      ttlMs: this.leaseMs,
    });
    if (revision === undefined) {
      return undefined;
    }
    holdOwner(owner);
    const renew = setInterval(() => {
      void this.store
        .compareAndPut(namespace, "lease", newLease(owner, this.leaseMs) as unknown as JsonValue, { expected: revision ?? 0, ttlMs: this.leaseMs })
        .then((next) => {
          revision = next ?? revision;
        })
        .catch(() => undefined);
    }, Math.max(100, Math.floor(this.leaseMs / 3)));
    renew.unref();
    return {
      release: async () => {
        clearInterval(renew);
        dropOwner(owner);
        await this.store
          .compareAndPut(namespace, "lease", { owner: null, expiresAt: 0 }, { expected: revision ?? 0, ttlMs: 1_000 })
          .catch(() => undefined);
      },
    };
  }

  private sessionNamespace(sessionId: string): string[] {
    return [...this.root, "sessions", sessionId];
  }

  private indexNamespace(): string[] {
    return [...this.root, "index"];
  }
}

function messageKey(index: number): string {
  return `m:${String(index).padStart(9, "0")}`;
}

function toRecord(meta: Meta, history: Message[]): AcpSessionRecord {
  const record: AcpSessionRecord = { info: meta.info, history, always: meta.always ?? [], updatedAt: meta.updatedAt };
  if (meta.pending?.length) {
    record.pending = meta.pending;
  }
  if (meta.answered) {
    record.answered = meta.answered;
  }
  if (meta.turn) {
    record.turn = meta.turn;
  }
  return record;
}

/** A copy whose arrays can be changed without touching the original (messages themselves are never changed). */
function copy(record: AcpSessionRecord): AcpSessionRecord {
  return { ...record, info: { ...record.info }, history: record.history.slice(), always: record.always.map(([name, allowed]) => [name, allowed]) };
}
