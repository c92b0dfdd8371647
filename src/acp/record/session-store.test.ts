// MemoryAcpSessionStore against the AcpSessionStore contract.

import { describeAcpSessionStoreContract } from "../../../test/contracts/acp-session-store-contract.js";
import { MemoryAcpSessionStore } from "./session-store.js";

const noClaims = "MemoryAcpSessionStore has no claims: it serves one process, which runs one turn of a session at a time without one";

describeAcpSessionStoreContract({
  name: "MemoryAcpSessionStore",
  create: async () => ({ store: new MemoryAcpSessionStore() }),
  unsupported: {
    claim: noClaims,
    sharing: "its sessions live in one object of one process; there is no second view of them",
    conflicts: "with a single view there is no stale copy to refuse",
    "stale claims": noClaims,
    renewal: noClaims,
    "corrupt ledger": "its grants are objects in this process, never read back from a stored value",
  },
});
