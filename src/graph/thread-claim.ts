// A run's hold on its thread: the lease in the thread's head, taken, renewed and let go through the
// lease keeper, and every head write the run makes, each made under that lease.

import { LeaseLostError } from "./graph-errors.js";
import { claimLease, type LeaseKeeper, type LeaseSlot } from "./lease-keeper.js";
import type { ThreadHead, ThreadStore } from "./thread-store.js";

/** How many compare-and-puts a claim tries when other runs write the head between its reads and writes. */
const CLAIM_ATTEMPTS = 5;

export interface ThreadClaimOptions {
  runId: string;
  leaseMs: number;
  /** Keep the interrupts the head waits on (a resume or continue); a new run starts without them. */
  keepPending: boolean;
  /** Called once when another writer took the thread; the run must stop. */
  onLost: () => void;
}

/**
 * Takes the thread's lease with a compare-and-put on its head, starting from the head the caller
 * read; undefined while another live run holds it. A store error rejects.
 */
export async function claimThread(
  threads: ThreadStore,
  threadId: string,
  options: ThreadClaimOptions,
  read: { head: ThreadHead; revision: number } | undefined,
): Promise<ThreadClaim | undefined> {
  const slot: LeaseSlot<ThreadHead> = {
    read: async () => {
      const again = await threads.readHead(threadId);
      return again && { value: again.head, revision: again.revision };
    },
    // A finished thread's head may still carry the lease of the run that finished it.
    leaseOf: (head) => (head.status === "running" ? head.lease : undefined),
    withLease: (head, lease) => {
      const next: ThreadHead = { ...head, updatedAt: new Date().toISOString() };
      if (lease) {
        next.lease = lease;
      } else {
        delete next.lease;
      }
      return next;
    },
    put: (head, expected) => threads.writeHead(threadId, head, expected),
  };
  const keeper = await claimLease(
    slot,
    {
      owner: options.runId,
      durationMs: options.leaseMs,
      renewEveryMs: Math.max(50, Math.floor(options.leaseMs / 3)),
      attempts: CLAIM_ATTEMPTS,
      take: (current, lease) => {
        const head: ThreadHead = { v: 1, seq: current?.seq ?? 0, runId: options.runId, status: "running", lease, updatedAt: new Date().toISOString() };
        if (current?.pending && options.keepPending) {
          head.pending = current.pending;
        }
        return head;
      },
      onLost: options.onLost,
    },
    read && { value: read.head, revision: read.revision },
  );
  return keeper && new ThreadClaim(threadId, keeper);
}

/** A claimed thread: its head as last written, and the writes that keep or let go of it. */
export class ThreadClaim {
  constructor(
    private readonly threadId: string,
    private readonly keeper: LeaseKeeper<ThreadHead>,
  ) {}

  get head(): ThreadHead {
    return this.keeper.value;
  }

  /** True once another writer took the thread. */
  get lost(): boolean {
    return this.keeper.lost;
  }

  /**
   * Writes the head with `patch`, renewing the lease while the run goes on, or dropping it with a
   * `final` status. Rejects with LeaseLostError when the thread is no longer ours.
   */
  async writeHead(patch: Partial<ThreadHead>, final: boolean): Promise<void> {
    const written = await this.keeper.write(
      (head) => {
        const next: ThreadHead = { ...head, ...patch };
        if (!final) {
          // Keep the head free of stale fields between steps.
          delete next.finish;
        }
        return next;
      },
      final ? "drop" : "renew",
    );
    if (!written) {
      throw new LeaseLostError(this.threadId);
    }
  }

  /** Drops the lease with a final status, once, if the thread is still ours. Store errors are swallowed. */
  release(patch: Partial<ThreadHead>): Promise<void> {
    return this.keeper.release((head) => ({ ...head, ...patch }));
  }

  /** Stops renewing and holding the lease in this process (the run is over, however it ended). */
  stop(): void {
    this.keeper.stop();
  }
}
