// The lease keeper: takes a lease on one stored record with a compare-and-put, renews it on a
// period, notices when someone else has written the record (the lease is lost) and lets it go. A
// run keeps its thread's lease in the thread's head; the ACP session store keeps a session's in an
// item of its own. Both hold it through this one protocol.

import { dropOwner, holdOwner, leaseHeld, newLease, type Lease } from "./lease.js";

/** A record as read, with the revision a compare-and-put names to replace it. */
export interface Revised<T> {
  value: T;
  revision: number;
}

/** Where a lease is kept: one record, read and replaced with a compare-and-put. */
export interface LeaseSlot<T> {
  read(): Promise<Revised<T> | undefined>;
  /** The lease that protects the record now, if any: a claim is refused while it is held. */
  leaseOf(value: T): Lease | undefined;
  /** The record holding `lease`, or without one when it is undefined. */
  withLease(value: T, lease: Lease | undefined): T;
  /** Replaces the record if it is still at `expected` (0: there is none); its new revision, or undefined when another write came first. */
  put(value: T, expected: number): Promise<number | undefined>;
}

export interface LeaseClaim<T> {
  owner: string;
  durationMs: number;
  /** How often the lease is renewed; a few times within its duration, so one failed renewal is survived. */
  renewEveryMs: number;
  /** How many compare-and-puts a claim tries when other writes come between its reads and its writes. */
  attempts: number;
  /** The record a claim writes over what it read (undefined: there was nothing). */
  take(current: T | undefined, lease: Lease): T;
  /** Called once, when a write finds the record written by someone else; nothing is written after it. */
  onLost?: (() => void) | undefined;
}

/**
 * Takes the lease over `current` (the record as the caller last read it), reading again when
 * another write came first; undefined while a live holder has it or when every attempt lost a race.
 * A store error rejects, with nothing held.
 */
export async function claimLease<T>(slot: LeaseSlot<T>, claim: LeaseClaim<T>, current: Revised<T> | undefined): Promise<LeaseKeeper<T> | undefined> {
  for (let attempt = 1; ; attempt++) {
    if (current && leaseHeld(slot.leaseOf(current.value))) {
      return undefined;
    }
    const value = claim.take(current?.value, newLease(claim.owner, claim.durationMs));
    // Marked live before the write: a reader in this process that sees the new lease must find
    // its owner live, or it would take the lease for a dead one's.
    const added = holdOwner(claim.owner);
    let revision: number | undefined;
    try {
      revision = await slot.put(value, current?.revision ?? 0);
    } catch (error) {
      if (added) {
        dropOwner(claim.owner);
      }
      throw error;
    }
    if (revision !== undefined) {
      return new LeaseKeeper(slot, claim, { value, revision });
    }
    if (added) {
      dropOwner(claim.owner);
    }
    if (attempt >= claim.attempts) {
      return undefined;
    }
    current = await slot.read();
  }
}

/**
 * A lease held on a record. Every write of the record goes through `write`, one at a time in the
 * order asked, each naming the revision the one before it produced; a write that finds another
 * revision means someone else took the record: the lease is lost and nothing more is written.
 */
export class LeaseKeeper<T> {
  private current: Revised<T>;
  private writes: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private lostLease = false;
  private released = false;

  constructor(
    private readonly slot: LeaseSlot<T>,
    private readonly claim: LeaseClaim<T>,
    claimed: Revised<T>,
  ) {
    this.current = claimed;
    this.timer = setInterval(() => {
      void this.write((value) => value, "renew").catch(() => {
        // A renewal that fails (store down) is tried again next period; the lease has slack for it.
      });
    }, claim.renewEveryMs);
    this.timer.unref();
  }

  /** The record as this keeper last wrote it. */
  get value(): T {
    return this.current.value;
  }

  /** True once a write found the record taken by someone else. */
  get lost(): boolean {
    return this.lostLease;
  }

  /**
   * Writes the record `change` makes of it, with the lease renewed, or dropped (which also stops
   * the renewals: a record without a lease has nothing to renew). Resolves false when the lease is
   * lost, now or before, and nothing was written; rejects when the store fails.
   */
  write(change: (value: T) => T, lease: "renew" | "drop"): Promise<boolean> {
    if (lease === "drop") {
      this.stopRenewing();
    }
    const write = this.writes.then(async () => {
      if (this.lostLease) {
        return false;
      }
      const value = this.slot.withLease(change(this.current.value), lease === "renew" ? newLease(this.claim.owner, this.claim.durationMs) : undefined);
      const revision = await this.slot.put(value, this.current.revision);
      if (revision === undefined) {
        this.lostLease = true;
        this.stopRenewing();
        this.claim.onLost?.();
        return false;
      }
      this.current = { value, revision };
      return true;
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  /**
   * Lets the lease go, once: writes the record `change` makes of it without the lease (unless the
   * lease was lost) and stops holding it in this process. Store errors are swallowed: a lease
   * that could not be cleared runs out, and this process no longer counts as its live holder.
   */
  async release(change: (value: T) => T = (value) => value): Promise<void> {
    if (this.released) {
      return;
    }
    this.released = true;
    await this.write(change, "drop").catch(() => undefined);
    this.stop();
  }

  /** Stops renewing and holding the lease in this process, without writing anything. */
  stop(): void {
    this.stopRenewing();
    dropOwner(this.claim.owner);
  }

  private stopRenewing(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
