// storeAcpSessions() over the memory store and SQLite (a temp file) against the AcpSessionStore
// contract (store-sessions.int.test.ts runs it over Postgres and Redis), and how it lays sessions
// out in a Store: segments of messages, what is left behind, the first layout.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { storeSessionsUnderTest } from "../../../test/support/acp-session-stores.js";
import { MemoryStore } from "../../store-core/memory-store.js";
import { SqliteStore } from "../../stores/sqlite/sqlite-store.js";
import type { JsonValue } from "../../types/json.js";
import type { Message } from "../../types/messages.js";
import type { Namespace, SearchOptions, Store, StoreItem } from "../../types/store.js";
import { describeAcpSessionStoreContract, sessionRecord } from "../../../test/contracts/acp-session-store-contract.js";
import { SessionConflictError, storeAcpSessions } from "./store-sessions.js";

const dir = mkdtempSync(join(tmpdir(), "weft-acp-sessions-"));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Why SQLite cannot open here (no driver loads), or undefined. */
function sqliteSkip(): string | undefined {
  try {
    new SqliteStore({ path: ":memory:" }).close().catch(() => undefined);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

describeAcpSessionStoreContract({
  name: "storeAcpSessions over MemoryStore",
  create: storeSessionsUnderTest(() => {
    // Every view shares the one MemoryStore, as connections share one server.
    const store = new MemoryStore();
    return { connect: () => store };
  }),
});

describeAcpSessionStoreContract({
  name: "storeAcpSessions over SQLite",
  skip: sqliteSkip(),
  create: storeSessionsUnderTest(() => {
    const path = join(dir, `sessions-${files++}.db`);
    return { connect: () => new SqliteStore({ path }) };
  }),
});

const user = (id: string, text: string): Message => ({ id, role: "user", parts: [{ type: "text", text }] });
const assistant = (id: string, text: string): Message => ({ id, role: "assistant", parts: [{ type: "text", text }] });
const sessionNamespace = (sessionId: string) => ["weft", "acp", "sessions", sessionId];

/** A memory store that can run something just before it answers its next search, as another process writing while a read is under way. */
class OvertakenStore extends MemoryStore {
  beforeNextSearch: (() => Promise<void>) | undefined;

  override async search(prefix: Namespace, options?: SearchOptions): Promise<StoreItem[]> {
    const before = this.beforeNextSearch;
    this.beforeNextSearch = undefined;
    await before?.();
    return super.search(prefix, options);
  }
}

/** The message keys a session's namespace holds. */
async function messageKeys(store: Store, sessionId: string): Promise<string[]> {
  return (await store.search(sessionNamespace(sessionId), { limit: 1000 })).map((item) => item.key).filter((key) => key.startsWith("m:"));
}

describe("storeAcpSessions' layout", () => {
  it("keeps only the messages the record reaches: a refused write's go at once, a cut-short write's with the next write that commits", async () => {
    const store = new MemoryStore();
    const first = storeAcpSessions(store);
    const stale = storeAcpSessions(store);
    await first.put(sessionRecord("sess_1", [user("u1", "one")]));
    await stale.get("sess_1");
    await first.put(sessionRecord("sess_1", [user("u1", "one"), assistant("a1", "reply")]));
    await expect(stale.put(sessionRecord("sess_1", [user("u1", "one"), assistant("x1", "stale")]))).rejects.toBeInstanceOf(SessionConflictError);
    expect(await messageKeys(store, "sess_1")).toHaveLength(2);
    // A write that stopped before its commit left a message behind.
    await store.put(sessionNamespace("sess_1"), "m:000000002:cutshort", { index: 2, message: user("u2", "never committed") as unknown as JsonValue, write: "cutshort", from: 2, after: "x" });
    const next = storeAcpSessions(store);
    expect((await next.get("sess_1"))?.history.map((message) => message.id)).toEqual(["u1", "a1"]);
    await next.put(sessionRecord("sess_1", [user("u1", "one"), assistant("a1", "reply"), user("u3", "three")]));
    const keys = await messageKeys(store, "sess_1");
    expect(keys).toHaveLength(3);
    expect(keys).not.toContain("m:000000002:cutshort");
    expect((await storeAcpSessions(store).get("sess_1"))?.history.map((message) => message.id)).toEqual(["u1", "a1", "u3"]);
  });

  it("reads again when a write that replaced messages commits while a read is under way", async () => {
    const store = new OvertakenStore();
    const writer = storeAcpSessions(store);
    await writer.put(sessionRecord("sess_1", [user("u1", "one"), assistant("a1", "reply")]));
    const replaced = sessionRecord("sess_1", [user("u1", "one"), assistant("a1b", "a better reply")], { updatedAt: "2025-03-01T11:00:00.000Z" });
    // The reader has `meta` as it was; before its search is answered, the replaced message is removed.
    store.beforeNextSearch = async () => {
      await writer.put(replaced);
    };
    expect(await storeAcpSessions(store).get("sess_1")).toEqual(replaced);
  });

  it("lists every session that was there throughout when sessions are deleted while it reads the list", async () => {
    const store = new OvertakenStore();
    const sessions = storeAcpSessions(store);
    const ids = Array.from({ length: 1100 }, (_, index) => `sess_${String(index).padStart(5, "0")}`);
    // Index entries as a session's write leaves them, more than a thousand in one directory.
    await Promise.all(ids.map((id) => store.put(["weft", "acp", "index"], id, { cwd: "/work/project", updatedAt: "2025-03-01T10:00:00.000Z" })));
    const deleted = ids.slice(0, 20);
    // Once the list's first search is answered, and before any search after it, another process deletes sessions.
    store.beforeNextSearch = async () => {
      store.beforeNextSearch = async () => {
        await Promise.all(deleted.map((id) => storeAcpSessions(store).delete(id)));
      };
    };
    const listed = (await sessions.list({ cwd: "/work/project", offset: 0, limit: 5000 })).map((summary) => summary.sessionId);
    expect(ids.filter((id) => !deleted.includes(id) && !listed.includes(id))).toEqual([]);
  });

  it("says so when a record reaches a message that is not there, instead of answering a shorter conversation", async () => {
    const store = new MemoryStore();
    await store.put(sessionNamespace("sess_1"), "meta", { v: 2, info: { id: "sess_1", cwd: "/work/project", mcpServers: [] }, always: [], updatedAt: "2025-03-01T10:00:00.000Z", count: 1, head: "gone" });
    await expect(storeAcpSessions(store).get("sess_1")).rejects.toThrow("Session sess_1 is missing messages of its conversation (read 1 times).");
  });

  it("says so when `meta` is not a session's record, instead of answering a broken one", async () => {
    const store = new MemoryStore();
    await store.put(sessionNamespace("sess_1"), "meta", { v: 2, info: "sess_1", always: [], updatedAt: "2025-03-01T10:00:00.000Z", count: 0 });
    await expect(storeAcpSessions(store).get("sess_1")).rejects.toThrow("Session sess_1 has a record this store cannot read.");
  });

  it("reads and carries on a session written in the first layout, one item per message", async () => {
    const store = new MemoryStore();
    const namespace = sessionNamespace("sess_1");
    await store.put(namespace, "meta", { v: 1, info: { id: "sess_1", cwd: "/work/project", mcpServers: [] }, always: [["read_file", true]], updatedAt: "2025-03-01T10:00:00.000Z", count: 2 });
    await store.put(namespace, "m:000000000", { index: 0, message: user("u1", "one") as unknown as JsonValue });
    await store.put(namespace, "m:000000001", { index: 1, message: assistant("a1", "reply") as unknown as JsonValue });
    // A leftover of a write that never committed.
    await store.put(namespace, "m:000000002", { index: 2, message: user("u2", "leftover") as unknown as JsonValue });
    const sessions = storeAcpSessions(store);
    expect(await sessions.get("sess_1")).toEqual(sessionRecord("sess_1", [user("u1", "one"), assistant("a1", "reply")], { always: [["read_file", true]] }));
    const grown = sessionRecord("sess_1", [user("u1", "one"), assistant("a1", "reply"), user("u2", "two")], { updatedAt: "2025-03-01T10:01:00.000Z" });
    await sessions.put(grown);
    expect(await storeAcpSessions(store).get("sess_1")).toEqual(grown);
    const takenBack = sessionRecord("sess_1", [user("u1", "one")], { updatedAt: "2025-03-01T10:02:00.000Z" });
    await sessions.put(takenBack);
    expect(await storeAcpSessions(store).get("sess_1")).toEqual(takenBack);
    expect(await messageKeys(store, "sess_1")).toEqual(["m:000000000"]);
  });
});

describe("a claim racing another view of the same process", () => {
  it("is not given twice when the other view reads the lease before the claim's write has answered", async () => {
    const shared = new MemoryStore();
    let hold: Promise<void> | undefined;
    let written: (() => void) | undefined;
    // The first view's lease write lands in the store at once, but answers only when the test says.
    const slow: Store = new Proxy(shared, {
      get(target, property, receiver) {
        if (property === "compareAndPut") {
          return async (...args: Parameters<Store["compareAndPut"]>) => {
            const revision = await target.compareAndPut(...args);
            if (hold && args[1] === "lease") {
              written?.();
              await hold;
            }
            return revision;
          };
        }
        const member: unknown = Reflect.get(target, property, receiver);
        return typeof member === "function" ? (member as (...args: unknown[]) => unknown).bind(target) : member;
      },
    });
    const first = storeAcpSessions(slow);
    const second = storeAcpSessions(shared);
    await first.put(sessionRecord("sess_1"));
    let answer!: () => void;
    hold = new Promise((resolve) => (answer = resolve));
    const landed = new Promise<void>((resolve) => (written = resolve));
    const claiming = first.claim("sess_1");
    await landed;
    // The lease is in the store and its claim has not answered yet: the other view must see it held.
    const other = await second.claim("sess_1");
    hold = undefined;
    answer();
    const claim = await claiming;
    expect(claim).toBeDefined();
    expect(other).toBeUndefined();
    await claim?.release();
  });
});
