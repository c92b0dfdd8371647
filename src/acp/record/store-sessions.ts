// storeAcpSessions(): ACP sessions in any long-term Store. Each session lives in one namespace: a
// `meta` item (everything but the conversation), one item per message, and a `lease` item while a
// process runs a turn of it. A write adds only the messages that are new, under keys no other write
// uses, then commits by replacing `meta` with a compare-and-put, so writing a turn costs the size of
// the turn, and a process working from a stale copy is refused without touching anything the
// committed record reads. Each project's permission ledger is one item under `ledger`, keyed by a
// hash of its directory, changed with a compare-and-put.
//
// The messages of one write are a segment: the items `m:<index>:<write>` from its first index on,
// each naming the segment it follows. `meta` names the segment that holds the last message; a read
// walks from it back through the segments it follows, taking each index from the newest segment
// that covers it. Items no committed record reaches (a write that was refused or cut short, or
// messages a later write replaced) are removed by the next write that commits.
//
// This file keeps the orchestration (read, write and commit, list, delete, claim, the ledger's
// retries); each stored item's form is its codec's: stored-meta-codec.ts, stored-message-codec.ts
// (read back by stored-conversation.ts), stored-index-codec.ts, stored-ledger-codec.ts, and the
// lease's graph/lease.ts.

import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

import { decodeLease, encodeLease, type Lease } from "../../graph/lease.js";
import { claimLease, type LeaseSlot } from "../../graph/lease-keeper.js";
import type { Namespace, Store } from "../../types/store.js";
import {
  type AcpSessionClaim,
  type AcpSessionQuery,
  type AcpSessionRecord,
  type AcpSessionStore,
  type AcpSessionSummary,
} from "./session-store.js";
import { type AcpGrant, withGrant, withoutGrant } from "./permission-grants.js";
import { decodeIndexEntry, encodeIndexEntry } from "./stored-index-codec.js";
import { decodeMeta, encodeMeta, recordOf } from "./stored-meta-codec.js";
import { readConversation } from "./stored-conversation.js";
import { encodeMessageItem, type MessageItem, messageKey } from "./stored-message-codec.js";
import { decodeLedger, encodeLedger, ledgerKey } from "./stored-ledger-codec.js";
import { SessionConflictError } from "../errors/session-errors.js";

export { SessionConflictError };

/** An AcpSessionStore that several processes can share. */
export interface SharedAcpSessionStore extends AcpSessionStore {
  list(options: AcpSessionQuery): Promise<AcpSessionSummary[]>;
  delete(sessionId: string): Promise<void>;
  /** Claims a session for a turn; undefined while another live process holds it. */
  claim(sessionId: string): Promise<AcpSessionClaim | undefined>;
  grants(cwd: string): Promise<AcpGrant[]>;
  putGrant(cwd: string, grant: AcpGrant): Promise<void>;
  deleteGrant(cwd: string, tool: string, scope: string): Promise<void>;
}

interface Known {
  revision: number;
  record: AcpSessionRecord;
  /** The segment each message of the record was read from. */
  segments: string[];
  /** Message items no committed record reaches, as last read: the next committed write removes them. */
  garbage: string[];
}

/** How often a read starts over when the session changed under it before it gives up. */
const READ_ATTEMPTS = 5;

const PAGE = 1000;

/** What the `lease` item holds once its lease is let go. */
const RELEASED = { owner: null, expiresAt: 0 };

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
    for (let attempt = 1; ; attempt++) {
      const meta = await this.store.get(namespace, "meta");
      if (!meta) {
        this.known.delete(sessionId);
        return undefined;
      }
      const known = this.known.get(sessionId);
      if (known && known.revision === meta.revision) {
        return copy(known.record);
      }
      const value = decodeMeta(meta.value);
      if (!value) {
        throw new Error(`Session ${sessionId} has a record this store cannot read.`);
      }
      const read = await readConversation(this.store, namespace, value);
      if (read) {
        const record = recordOf(value, read.history);
        this.known.set(sessionId, { revision: meta.revision, record: copy(record), segments: read.segments, garbage: read.garbage });
        return record;
      }
      // A message the record reaches is missing: a write committed while this read ran and removed
      // what it replaced. Read again; with `meta` unchanged, the record itself is broken.
      const again = await this.store.get(namespace, "meta");
      if (again?.revision === meta.revision || attempt === READ_ATTEMPTS) {
        throw new Error(`Session ${sessionId} is missing messages of its conversation (read ${attempt} times).`);
      }
    }
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
    const from = known?.segments ?? [];
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
    const added = after.slice(keep);
    const write = added.length > 0 ? randomUUID().slice(0, 12) : undefined;
    const segments = from.slice(0, keep);
    if (write !== undefined) {
      const follows = keep > 0 ? from[keep - 1] : undefined;
      await Promise.all(
        added.map((message, offset) => {
          const item: MessageItem = { index: keep + offset, message, write, from: keep, after: follows };
          return this.store.put(namespace, messageKey(keep + offset, write), encodeMessageItem(item));
        }),
      );
      segments.push(...added.map(() => write));
    }
    const meta = encodeMeta(record, after.length, segments.at(-1));
    const revision = await this.store.compareAndPut(namespace, "meta", meta, { expected: known?.revision ?? 0 });
    if (revision === undefined) {
      this.known.delete(sessionId);
      // No committed record reaches this write's messages; they go now, or with the next write that commits.
      if (write !== undefined) {
        await Promise.all(added.map((_message, offset) => this.store.delete(namespace, messageKey(keep + offset, write)))).catch(() => undefined);
      }
      throw new SessionConflictError(sessionId);
    }
    this.known.set(sessionId, { revision, record: copy(record), segments, garbage: [] });
    // What the new record no longer reaches: the messages it replaced or took back, and what the last read found unreached.
    const unreached = [...(known?.garbage ?? [])];
    for (let index = keep; index < before.length; index++) {
      unreached.push(messageKey(index, from[index] ?? ""));
    }
    for (const key of unreached) {
      await this.store.delete(namespace, key);
    }
    await this.store.put(this.indexNamespace(), sessionId, encodeIndexEntry(record));
  }

  async list(options: AcpSessionQuery): Promise<AcpSessionSummary[]> {
    const wanted: Record<string, string> = {};
    if (options.cwd !== undefined) {
      wanted.cwd = options.cwd;
    }
    if (options.owner !== undefined) {
      wanted.owner = options.owner;
    }
    const filter = Object.keys(wanted).length > 0 ? wanted : undefined;
    // Every entry in one search, as they are all sorted here anyway: pages read one after another
    // at growing offsets would skip a session whenever one before it was deleted in between.
    const all = Number.MAX_SAFE_INTEGER;
    const items = await this.store.search(this.indexNamespace(), filter ? { filter, limit: all } : { limit: all });
    const summaries = items.flatMap((item) => decodeIndexEntry(item.key, item.value) ?? []);
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
    // The `lease` item holds the lease, or a released marker (no lease) once it is let go. Each
    // write gives the item a time to live, so a lease nobody renews leaves the store by itself.
    const slot: LeaseSlot<Lease | undefined> = {
      read: async () => {
        const item = await this.store.get(namespace, "lease");
        return item && { value: decodeLease(item.value), revision: item.revision };
      },
      leaseOf: (lease) => lease,
      withLease: (_lease, lease) => lease,
      put: (lease, expected) =>
        this.store.compareAndPut(namespace, "lease", lease ? encodeLease(lease) : RELEASED, { expected, ttlMs: lease ? this.leaseMs : 1_000 }),
    };
    const owner = `${this.instance}:${randomUUID().slice(0, 8)}`;
    const claim = { owner, durationMs: this.leaseMs, renewEveryMs: Math.max(100, Math.floor(this.leaseMs / 3)), attempts: 1, take: (_current: Lease | undefined, lease: Lease) => lease };
    const keeper = await claimLease(slot, claim, await slot.read());
    return keeper && { release: () => keeper.release() };
  }

  async grants(cwd: string): Promise<AcpGrant[]> {
    return (await this.readLedger(cwd)).grants;
  }

  async putGrant(cwd: string, grant: AcpGrant): Promise<void> {
    await this.changeLedger(cwd, (grants) => withGrant(grants, grant));
  }

  async deleteGrant(cwd: string, tool: string, scope: string): Promise<void> {
    await this.changeLedger(cwd, (grants) => withoutGrant(grants, tool, scope));
  }

  /** A project's grants and the revision they were read at (0 when it has none). Throws when they cannot be read. */
  private async readLedger(cwd: string): Promise<{ grants: AcpGrant[]; revision: number }> {
    const item = await this.store.get(this.ledgerNamespace(), ledgerKey(cwd));
    if (!item) {
      return { grants: [], revision: 0 };
    }
    return { grants: decodeLedger(item.value, cwd), revision: item.revision };
  }

  /** Changes a project's grants with a compare-and-put, reading again when another write came first. */
  private async changeLedger(cwd: string, change: (grants: AcpGrant[]) => AcpGrant[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const { grants, revision } = await this.readLedger(cwd);
      const written = await this.store.compareAndPut(this.ledgerNamespace(), ledgerKey(cwd), encodeLedger(cwd, change(grants)), { expected: revision });
      if (written !== undefined) {
        return;
      }
      if (attempt === READ_ATTEMPTS) {
        throw new Error(`The permission grants of ${cwd} kept changing while they were written (tried ${attempt} times).`);
      }
    }
  }

  private ledgerNamespace(): string[] {
    return [...this.root, "ledger"];
  }

  private sessionNamespace(sessionId: string): string[] {
    return [...this.root, "sessions", sessionId];
  }

  private indexNamespace(): string[] {
    return [...this.root, "index"];
  }
}

/**
 * A copy that can be changed without touching the original: everything but the conversation's
 * messages is copied deeply, the conversation as a new array of the same messages (a message is
 * never changed in place, only replaced).
 */
function copy(record: AcpSessionRecord): AcpSessionRecord {
  const { history, ...rest } = record;
  return { ...structuredClone(rest), history: history.slice() };
}
