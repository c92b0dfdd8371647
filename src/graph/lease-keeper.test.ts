import { describe, expect, it } from "vitest";

import { decodeLease, encodeLease, leaseHeld, newLease, type Lease } from "./lease.js";
import { claimLease, type LeaseClaim, type LeaseSlot, type Revised } from "./lease-keeper.js";

/** One record kept in memory, written with a compare-and-put; `writes` sees every accepted write. */
function memorySlot(writes: Array<Lease | undefined> = []) {
  let kept: Revised<Lease | undefined> | undefined;
  const slot: LeaseSlot<Lease | undefined> & { steal(): void; fail: boolean } = {
    fail: false,
    read: async () => kept,
    leaseOf: (value) => value,
    withLease: (_value, lease) => lease,
    put: async (value, expected) => {
      if (slot.fail) {
        throw new Error("store down");
      }
      if ((kept?.revision ?? 0) !== expected) {
        return undefined;
      }
      kept = { value, revision: expected + 1 };
      writes.push(value);
      return kept.revision;
    },
    steal: () => {
      kept = { value: newLease("thief", 60_000), revision: (kept?.revision ?? 0) + 1 };
    },
  };
  return slot;
}

function claimOf(owner: string, extra: Partial<LeaseClaim<Lease | undefined>> = {}): LeaseClaim<Lease | undefined> {
  return { owner, durationMs: 60_000, renewEveryMs: 60_000, attempts: 1, take: (_current, lease) => lease, ...extra };
}

describe("the lease keeper", () => {
  it("claims a free record, refuses it to another owner while held, and frees it on release", async () => {
    const slot = memorySlot();
    const first = await claimLease(slot, claimOf("first"), await slot.read());
    expect(first?.value?.owner).toBe("first");
    expect(leaseHeld((await slot.read())?.value)).toBe(true);
    expect(await claimLease(slot, claimOf("second"), await slot.read())).toBeUndefined();
    await first?.release();
    expect((await slot.read())?.value).toBeUndefined();
    const second = await claimLease(slot, claimOf("second"), await slot.read());
    expect(second?.value?.owner).toBe("second");
    second?.stop();
  });

  it("reads again when another write came between its read and its write, up to its attempts", async () => {
    const slot = memorySlot();
    const stale = await slot.read();
    const other = await claimLease(slot, claimOf("other"), stale);
    await other?.release();
    expect(await claimLease(slot, claimOf("once"), stale)).toBeUndefined();
    const keeper = await claimLease(slot, claimOf("twice", { attempts: 2 }), stale);
    expect(keeper?.value?.owner).toBe("twice");
    keeper?.stop();
  });

  it("renews the lease on its period with a later expiry", async () => {
    const writes: Array<Lease | undefined> = [];
    const slot = memorySlot(writes);
    let renewed!: () => void;
    const twice = new Promise<void>((resolve) => (renewed = resolve));
    const put = slot.put;
    slot.put = async (value, expected) => {
      const revision = await put(value, expected);
      if (writes.length === 3) {
        renewed();
      }
      return revision;
    };
    const keeper = await claimLease(slot, claimOf("renewing", { renewEveryMs: 5 }), undefined);
    await twice;
    keeper?.stop();
    expect(writes.map((lease) => lease?.owner)).toEqual(["renewing", "renewing", "renewing"]);
    expect(writes[2]?.expiresAt).toBeGreaterThanOrEqual(writes[0]?.expiresAt ?? Infinity);
  });

  it("finds the lease lost when someone else writes the record, says so once, and writes nothing more", async () => {
    const slot = memorySlot();
    let lost = 0;
    const keeper = await claimLease(slot, claimOf("holder", { onLost: () => lost++ }), undefined);
    slot.steal();
    expect(await keeper?.write((value) => value, "renew")).toBe(false);
    expect(await keeper?.write((value) => value, "renew")).toBe(false);
    await keeper?.release();
    expect(keeper?.lost).toBe(true);
    expect(lost).toBe(1);
    expect((await slot.read())?.value?.owner).toBe("thief");
  });

  it("rejects a claim the store fails, holding nothing, and swallows a release the store fails", async () => {
    const slot = memorySlot();
    slot.fail = true;
    await expect(claimLease(slot, claimOf("failing"), undefined)).rejects.toThrow("store down");
    slot.fail = false;
    const keeper = await claimLease(slot, claimOf("failing"), undefined);
    slot.fail = true;
    await keeper?.release();
    // The lease could not be cleared, but this process no longer counts as its live holder.
    expect(leaseHeld((await slot.read())?.value)).toBe(false);
  });
});

describe("a stored lease", () => {
  it("reads back as it was written, and a released or foreign value holds none", () => {
    const lease = newLease("owner", 1_000);
    expect(decodeLease(JSON.parse(JSON.stringify(encodeLease(lease))))).toEqual(lease);
    expect(decodeLease({ owner: null, expiresAt: 0 })).toBeUndefined();
    expect(decodeLease("lease")).toBeUndefined();
    expect(decodeLease(null)).toBeUndefined();
  });
});
