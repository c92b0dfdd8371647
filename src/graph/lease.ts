// Leases: who holds something (a thread, a session) until when. A lease is held while it has not
// expired and, when its holder runs on this machine, while that process is still alive, so a crash
// frees what it held at once instead of when its time runs out. Runs claim threads with them; the
// ACP session store claims sessions with the same rules.

import { hostname } from "node:os";

import type { JsonObject } from "../types/json.js";

export interface Lease {
  owner: string;
  pid: number;
  host: string;
  expiresAt: number;
}

const host = hostname();

/** Owners holding a lease in this process right now. */
const liveOwners = new Set<string>();

/**
 * Marks `owner` as holding a lease from this process (until `dropOwner`); false if it already was.
 * Mark it before writing the lease: a reader in this process that sees the new lease must find its
 * owner live, or it would take the lease for a dead one's and claim it too.
 */
export function holdOwner(owner: string): boolean {
  const added = !liveOwners.has(owner);
  liveOwners.add(owner);
  return added;
}

/** This process no longer holds anything as `owner`, even if its lease record could not be cleared. */
export function dropOwner(owner: string): void {
  liveOwners.delete(owner);
}

/** A lease as a store keeps it. */
export function encodeLease(lease: Lease): JsonObject {
  return { owner: lease.owner, pid: lease.pid, host: lease.host, expiresAt: lease.expiresAt };
}

/** The lease a stored value holds, or undefined when it holds none (a released or foreign value). */
export function decodeLease(value: unknown): Lease | undefined {
  if (typeof value !== "object" || value === null) {
    return undefined;
  }
  const { owner, pid, host: leaseHost, expiresAt } = value as Partial<Record<keyof Lease, unknown>>;
  if (typeof owner !== "string" || typeof pid !== "number" || typeof leaseHost !== "string" || typeof expiresAt !== "number") {
    return undefined;
  }
  return { owner, pid, host: leaseHost, expiresAt };
}

export function newLease(owner: string, durationMs: number): Lease {
  return { owner, pid: process.pid, host, expiresAt: Date.now() + durationMs };
}

/** True when a lease still protects what it covers. */
export function leaseHeld(lease: Lease | undefined | null): boolean {
  if (!lease || typeof lease.expiresAt !== "number" || lease.expiresAt <= Date.now()) {
    return false;
  }
  if (lease.host !== host) {
    return true;
  }
  if (lease.pid === process.pid) {
    // Our own lease: held only while its owner is still at work here (a failed release after a
    // store outage must not lock the thread until the lease runs out).
    return liveOwners.has(lease.owner);
  }
  try {
    process.kill(lease.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; ESRCH: it is gone.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
