import { describeStoreContract } from "../../test/contracts/store-contract.js";
import { MemoryStore } from "./memory-store.js";

describeStoreContract({ name: "memory", create: async () => new MemoryStore() });
