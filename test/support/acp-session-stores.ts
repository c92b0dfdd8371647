// storeAcpSessions() over a Store, as the AcpSessionStore contract opens it: views over several
// connections to one backing store (as several agent processes have), and claims left behind by
// holders that are gone, written where the session store keeps its leases.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { hostname } from "node:os";

import type { Lease } from "../../src/graph/lease.js";
import type { AcpSessionStoreUnderTest } from "../contracts/acp-session-store-contract.js";
import { storeAcpSessions } from "../../src/acp/record/store-sessions.js";
import type { JsonValue } from "../../src/types/json.js";
import type { Store } from "../../src/types/store.js";

/** A backing store no other test uses: how to connect to it (as often as asked), and how to remove it. */
export interface BackingStore {
  connect(): Store | Promise<Store>;
  remove?: (() => Promise<void>) | undefined;
}

/** How long the contract's claims last unless renewed: short, so the renewal case waits little. */
export const contractLeaseMs = 1_500;

/** The pid of a process that has ended. */
function endedPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid ?? 0x7ffffffe;
}

/** A factory for `describeAcpSessionStoreContract`: storeAcpSessions() over a fresh backing store. */
export function storeSessionsUnderTest(fresh: () => BackingStore): () => Promise<AcpSessionStoreUnderTest> {
  return async () => {
    const backing = fresh();
    const connections: Store[] = [];
    const connect = async () => {
      const connection = await backing.connect();
      connections.push(connection);
      return connection;
    };
    const first = await connect();
    return {
      store: storeAcpSessions(first, { leaseMs: contractLeaseMs }),
      another: async () => storeAcpSessions(await connect(), { leaseMs: contractLeaseMs }),
      leaseMs: contractLeaseMs,
      leaveClaim: async (sessionId, holder) => {
        const now = Date.now();
        const lease: Lease =
          holder === "stopped"
            ? { owner: "ended-process", pid: endedPid(), host: hostname(), expiresAt: now + 60_000 }
            : { owner: "far-away", pid: process.pid, host: "another-machine.invalid", expiresAt: holder === "expired" ? now - 1_000 : now + 60_000 };
        await first.put(["weft", "acp", "sessions", sessionId], "lease", lease as unknown as JsonValue);
      },
      corruptLedger: async (cwd) => {
        // Where storeAcpSessions() keeps a project's ledger: under `ledger`, keyed by a hash of its directory.
        await first.put(["weft", "acp", "ledger"], createHash("sha256").update(cwd).digest("hex"), { cwd, grants: [{ tool: "run_command", allow: "yes" }] });
      },
      destroy: async () => {
        for (const connection of new Set(connections)) {
          await connection.close?.();
        }
        await backing.remove?.();
      },
    };
  };
}
