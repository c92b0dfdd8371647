// A session's record and its writes: copies written in order, claims that re-read what another
// process wrote, the refusals a claim can meet, and the turn whose end could not be written.

import { describe, expect, it } from "vitest";

import { MemoryStore } from "../../store-core/memory-store.js";
import type { Logger } from "../../types/logger.js";
import type { Message } from "../../types/messages.js";
import { type AcpSessionRecord, type AcpSessionStore, type AcpTurnRecord, MemoryAcpSessionStore } from "../record/session-store.js";
import { StoredSession } from "./stored-session.js";
import { storeAcpSessions } from "../record/store-sessions.js";

const quiet = (): Logger & { warnings: string[] } => {
  const warnings: string[] = [];
  return { warnings, debug: () => undefined, info: () => undefined, warn: (message, fields) => void warnings.push(`${message}: ${String(fields?.error)}`), error: () => undefined };
};

const user = (id: string, text: string): Message => ({ id, role: "user", parts: [{ type: "text", text }] });

function record(sessionId: string, history: Message[] = [], extra: Partial<AcpSessionRecord> = {}): AcpSessionRecord {
  return { info: { id: sessionId, cwd: "/project", mcpServers: [] }, history, always: [], updatedAt: "2025-01-01T00:00:00.000Z", ...extra };
}

/** A store that fails every call while `down` is set, as a store whose server went away. */
function withOutage(inner: Required<Pick<AcpSessionStore, "get" | "put" | "claim">>) {
  const state = { down: false };
  const check = () => {
    if (state.down) {
      throw new Error("connect ECONNREFUSED 127.0.0.1:6379");
    }
  };
  const store: AcpSessionStore = {
    get: async (sessionId) => (check(), inner.get(sessionId)),
    put: async (written) => (check(), inner.put(written)),
    claim: async (sessionId) => (check(), inner.claim(sessionId)),
  };
  return { state, store };
}

describe("StoredSession.persist", () => {
  it("writes a copy of the record as it was when asked, in the order asked, even when a write is slow", async () => {
    const written: string[][] = [];
    const releases: Array<() => void> = [];
    const store: AcpSessionStore = {
      get: () => undefined,
      put: (snapshot) =>
        new Promise<void>((resolve) => {
          releases.push(() => {
            written.push(snapshot.history.map((message) => message.id));
            resolve();
          });
        }),
    };
    const session = new StoredSession(store, record("sess_1"), quiet());
    session.addMessages([user("u1", "one")]);
    const first = session.persist();
    session.addMessages([user("u2", "two")]);
    const second = session.persist();
    await new Promise((resolve) => setImmediate(resolve));
    // The second write waits for the first to reach the store.
    expect(releases).toHaveLength(1);
    releases.shift()?.();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    releases.shift()?.();
    await second;
    expect(written).toEqual([["u1"], ["u1", "u2"]]);
    expect(session.record.updatedAt).not.toBe("2025-01-01T00:00:00.000Z");
  });

  it("rejects a failed write for its caller, logs it, and goes on with the next", async () => {
    const logger = quiet();
    const memory = new MemoryAcpSessionStore();
    let fail = true;
    const store: AcpSessionStore = { get: (id) => memory.get(id), put: (snapshot) => (fail ? Promise.reject(new Error("disk full")) : memory.put(snapshot)) };
    const session = new StoredSession(store, record("sess_1", [user("u1", "one")]), logger);
    await expect(session.persist()).rejects.toThrow("disk full");
    fail = false;
    await session.persist();
    expect(memory.get("sess_1")?.history.map((message) => message.id)).toEqual(["u1"]);
    expect(logger.warnings).toEqual(["Could not save the session: Error: disk full"]);
  });

  it("keeps the person's always answers and writes them", async () => {
    const memory = new MemoryAcpSessionStore();
    const session = new StoredSession(memory, record("sess_1", [], { always: [["read_file", true]] }), quiet());
    expect(session.remembered("read_file")).toBe(true);
    expect(session.remembered("run_command")).toBeUndefined();
    session.remember("run_command", false);
    await expect.poll(() => memory.get("sess_1")?.always).toEqual([
      ["read_file", true],
      ["run_command", false],
    ]);
    expect(session.remembered("run_command")).toBe(false);
  });
});

describe("StoredSession.claim", () => {
  it("with a store of one process, lets every turn run and reads nothing", async () => {
    const memory = new MemoryAcpSessionStore();
    const mine = record("sess_1", [user("u1", "mine")]);
    memory.put(record("sess_1", [user("other", "written elsewhere")]));
    const session = new StoredSession(memory, mine, quiet());
    const claim = await session.claim();
    expect(claim.claimed).toBe(true);
    expect(session.record).toBe(mine);
  });

  it("with a shared store, re-reads the record and takes it as the truth, keeping this connection's directory and MCP servers", async () => {
    const shared = storeAcpSessions(new MemoryStore());
    await shared.put(record("sess_1", [user("u1", "one")]));
    const here = new StoredSession(shared, { ...record("sess_1", [user("u1", "one")]), info: { id: "sess_1", cwd: "/here", mcpServers: [{ name: "docs", command: "docs-mcp", args: [], env: [] }] } }, quiet());
    const elsewhere = new StoredSession(shared, record("sess_1", [user("u1", "one")]), quiet());
    elsewhere.addMessages([user("u2", "from another process")]);
    elsewhere.remember("run_command", true);
    await elsewhere.persist();

    const claim = await here.claim();
    expect(claim.claimed).toBe(true);
    expect(here.record.history.map((message) => message.id)).toEqual(["u1", "u2"]);
    expect(here.remembered("run_command")).toBe(true);
    expect(here.info).toEqual({ id: "sess_1", cwd: "/here", mcpServers: [{ name: "docs", command: "docs-mcp", args: [], env: [] }] });
    if (claim.claimed) {
      await claim.release();
    }
  });

  it("is refused while another claim holds the session, and free again once it is released", async () => {
    const shared = storeAcpSessions(new MemoryStore());
    await shared.put(record("sess_1"));
    const first = new StoredSession(shared, record("sess_1"), quiet());
    const second = new StoredSession(shared, record("sess_1"), quiet());
    const held = await first.claim();
    const refused = await second.claim();
    expect(refused.claimed ? undefined : { code: refused.error.code, message: refused.error.message }).toEqual({
      code: "session_busy",
      message: "Session sess_1 has a turn running in another agent process; try again when it ends.",
    });
    if (held.claimed) {
      await held.release();
    }
    const after = await second.claim();
    expect(after.claimed).toBe(true);
    if (after.claimed) {
      await after.release();
    }
  });

  it("answers not found for a session another process deleted, and lets go of the claim", async () => {
    const shared = storeAcpSessions(new MemoryStore());
    await shared.put(record("sess_1"));
    const session = new StoredSession(shared, record("sess_1"), quiet());
    await shared.delete("sess_1");
    const claim = await session.claim();
    expect(claim.claimed ? undefined : claim.error.code).toBe("session_not_found");
    // The claim was let go of: another claim gets the session's lease at once.
    expect(await shared.claim("sess_1")).toBeDefined();
  });

  it("answers store_unavailable when the store cannot be reached", async () => {
    const { state, store } = withOutage(storeAcpSessions(new MemoryStore()));
    await store.put(record("sess_1"));
    const session = new StoredSession(store, record("sess_1"), quiet());
    state.down = true;
    const claim = await session.claim();
    expect(claim.claimed ? undefined : { code: claim.error.code, message: claim.error.message }).toEqual({
      code: "store_unavailable",
      message: "The session store is unavailable: connect ECONNREFUSED 127.0.0.1:6379",
    });
  });

  it("after a turn whose end could not be written, keeps its own record while the store still holds that turn in progress", async () => {
    const shared = storeAcpSessions(new MemoryStore());
    const turn: AcpTurnRecord = { kind: "invoke", user: user("u1", "one"), startedAt: "2025-01-01T00:00:01.000Z" };
    await shared.put(record("sess_1", [user("u1", "one")], { turn }));
    // This process ended the turn and took the prompt back, but could not write that.
    const session = new StoredSession(shared, record("sess_1", [], {}), quiet());
    session.leaveUnsaved(turn);
    const claim = await session.claim();
    expect(claim.claimed).toBe(true);
    expect(session.record.history).toEqual([]);
    expect(session.record.turn).toBeUndefined();
    if (claim.claimed) {
      await claim.release();
    }
    // Only once: the next claim takes the store's record again.
    const again = await session.claim();
    expect(session.record.turn).toEqual(turn);
    if (again.claimed) {
      await again.release();
    }
  });

  it("after a turn whose end could not be written, takes the store's record when another process has moved the session on", async () => {
    const shared = storeAcpSessions(new MemoryStore());
    const turn: AcpTurnRecord = { kind: "invoke", user: user("u1", "one"), startedAt: "2025-01-01T00:00:01.000Z" };
    await shared.put(record("sess_1", [user("u1", "one"), user("u2", "carried on elsewhere")]));
    const session = new StoredSession(shared, record("sess_1", []), quiet());
    session.leaveUnsaved(turn);
    await session.claim();
    expect(session.record.history.map((message) => message.id)).toEqual(["u1", "u2"]);
  });
});

describe("StoredSession's changes", () => {
  const question = { id: "q1", value: { question: "Which file?" }, node: "agent" };

  it("begins a turn: the prompt joins the conversation, the turn is in progress, the open questions are gone, and all of it is written", async () => {
    const memory = new MemoryAcpSessionStore();
    const session = new StoredSession(memory, record("sess_1", [user("u1", "one")], { pending: [question], answered: { a1: true } }), quiet());
    const turn: AcpTurnRecord = { kind: "resume", user: user("u2", "two"), answers: { q1: "two" }, startedAt: "2025-01-01T00:00:01.000Z" };
    await session.beginTurn(turn);
    const stored = memory.get("sess_1");
    expect(stored?.history.map((message) => message.id)).toEqual(["u1", "u2"]);
    expect(stored?.turn).toEqual(turn);
    expect(stored).not.toHaveProperty("pending");
    expect(stored).not.toHaveProperty("answered");
  });

  it("takes a turn back when its beginning cannot be written: the conversation and the open questions are as they were", async () => {
    const store: AcpSessionStore = { get: () => undefined, put: () => Promise.reject(new Error("disk full")) };
    const session = new StoredSession(store, record("sess_1", [user("u1", "one")], { pending: [question] }), quiet());
    await expect(session.beginTurn({ kind: "resume", user: user("u2", "two"), startedAt: "2025-01-01T00:00:01.000Z" })).rejects.toThrow("disk full");
    expect(session.record.history.map((message) => message.id)).toEqual(["u1"]);
    expect(session.record.turn).toBeUndefined();
    expect(session.record.pending).toEqual([question]);
  });

  it("ends only the turn it is told of, and leaves the turn that took its place", () => {
    const first: AcpTurnRecord = { kind: "invoke", user: user("u1", "one"), startedAt: "2025-01-01T00:00:01.000Z" };
    const session = new StoredSession(new MemoryAcpSessionStore(), record("sess_1", [], { turn: first }), quiet());
    session.endTurn({ ...first });
    expect(session.record.turn).toBe(first);
    session.endTurn(first);
    expect(session.record.turn).toBeUndefined();
  });

  it("keeps the config values as they were when they cannot be written", async () => {
    const store: AcpSessionStore = { get: () => undefined, put: () => Promise.reject(new Error("disk full")) };
    const session = new StoredSession(store, record("sess_1", [], { config: { model: "fast" } }), quiet());
    await expect(session.setConfig({ model: "smart" })).rejects.toThrow("disk full");
    expect(session.record.config).toEqual({ model: "fast" });
  });

  it("puts messages in place of the conversation from a position on", () => {
    const session = new StoredSession(new MemoryAcpSessionStore(), record("sess_1", [user("u1", "one"), user("u2", "two"), user("u3", "three")]), quiet());
    session.replaceMessagesFrom(1, [user("u4", "four")]);
    expect(session.record.history.map((message) => message.id)).toEqual(["u1", "u4"]);
    session.replaceMessagesFrom(1, []);
    expect(session.record.history.map((message) => message.id)).toEqual(["u1"]);
  });
});
