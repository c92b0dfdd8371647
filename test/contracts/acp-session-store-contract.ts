// The behaviour every AcpSessionStore must show, written once. A store's test file calls
// `describeAcpSessionStoreContract` with a factory; any case a store does not support is skipped
// with the reason the test file gives.

import { afterEach, describe, expect, it } from "vitest";

import type { Message } from "../../src/types/messages.js";
import type { AcpGrant } from "../../src/acp/record/permission-grants.js";
import type { AcpSessionClaim, AcpSessionRecord, AcpSessionStore, AcpSessionSummary } from "../../src/acp/record/session-store.js";

/** Groups of cases a store may not support; each needs a written reason to be skipped. */
export type AcpSessionStoreFeature =
  /** `list()`: sessions most recently updated first, by directory, in pages. */
  | "list"
  /** `delete()`. */
  | "delete"
  /** `claim()`: one claim on a session at a time. */
  | "claim"
  /** `another()`: a second view of the same sessions, as another process opens it. */
  | "sharing"
  /** Refusing, with SessionConflictError, a write from a view whose copy another view has changed since. */
  | "conflicts"
  /** `leaveClaim()`: claims whose holder stopped or went out of reach. */
  | "stale claims"
  /** `leaseMs`: a held claim is renewed past the time a claim lasts on its own. */
  | "renewal"
  /** `grants()`, `putGrant()`, `deleteGrant()`: each project's permission ledger. */
  | "ledger"
  /** `corruptLedger()`: a ledger whose stored value is not one, which `grants()` must refuse to read. */
  | "corrupt ledger";

/** A store under test, over backing storage that no other test sees. */
export interface AcpSessionStoreUnderTest {
  store: AcpSessionStore;
  /**
   * Opens another view of the same sessions, as a second agent process would (for a store over a
   * `Store`: another `storeAcpSessions()` over another connection to the same file, schema or prefix).
   */
  another?: (() => Promise<AcpSessionStore> | AcpSessionStore) | undefined;
  /**
   * Leaves a claim on a session as another holder would: `stopped`, a process on this machine that
   * ended without releasing it; `expired`, a process out of reach whose claim has run out;
   * `live elsewhere`, a process out of reach whose claim has not.
   */
  leaveClaim?: ((sessionId: string, holder: "stopped" | "expired" | "live elsewhere") => Promise<void>) | undefined;
  /** Overwrites a project's stored ledger with a value that is not one (as a damaged or foreign write would). */
  corruptLedger?: ((cwd: string) => Promise<void>) | undefined;
  /** How long a claim lasts unless its holder renews it, when the store was opened with a short one. */
  leaseMs?: number | undefined;
  /** Removes what `create` made (views from `another` included). */
  destroy?: (() => Promise<void>) | undefined;
}

export interface AcpSessionStoreContractOptions {
  /** Shown in the suite's name. */
  name: string;
  /** A store that sees no sessions from earlier tests. */
  create: () => Promise<AcpSessionStoreUnderTest>;
  /** Why the suite cannot run here (for example a server that is not configured); it is then skipped with that reason. */
  skip?: string | undefined;
  /** Why the store does not support a group of cases; those cases are then skipped with that reason. */
  unsupported?: Partial<Record<AcpSessionStoreFeature, string>> | undefined;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

const user = (id: string, text: string): Message => ({ id, role: "user", parts: [{ type: "text", text }] });
const assistant = (id: string, text: string): Message => ({ id, role: "assistant", parts: [{ type: "text", text }] });

/** A bare session record: a directory, a conversation, an update time. */
export function sessionRecord(sessionId: string, history: Message[] = [], extra: Partial<AcpSessionRecord> = {}): AcpSessionRecord {
  return { info: { id: sessionId, cwd: "/work/project", mcpServers: [] }, history, always: [], updatedAt: "2025-03-01T10:00:00.000Z", ...extra };
}

/** A record with every field set and every kind of message part. */
export function fullSessionRecord(sessionId: string): AcpSessionRecord {
  const prompt: Message = {
    id: "u2",
    role: "user",
    createdAt: "2025-03-01T10:00:05.000Z",
    parts: [
      { type: "text", text: "Fix the failing test, see the screenshot" },
      { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
      { type: "audio", data: "UklGRg==", mediaType: "audio/wav" },
      { type: "file", uri: "file:///work/project/notes.md", mediaType: "text/markdown", text: "# Notes\nsnowman ☃ and emoji 🙂" },
      { type: "file", uri: "file:///work/project/logo.bin", data: "AAEC" },
      { type: "link", uri: "file:///work/project/src/main.ts", name: "main.ts", title: "The entry point", mediaType: "text/x-typescript" },
    ],
  };
  return {
    info: {
      id: sessionId,
      cwd: "/work/project",
      mcpServers: [{ name: "docs", command: "docs-server", args: ["--stdio"], env: [{ name: "TOKEN", value: "t" }] }],
      additionalDirectories: ["/work/shared-lib", "/work/docs site"],
    },
    history: [
      { id: "s1", role: "system", parts: [{ type: "text", text: "You are careful." }] },
      user("u1", "Read the notes"),
      {
        id: "a1",
        role: "assistant",
        finishReason: "tool-calls",
        parts: [
          { type: "reasoning", text: "The notes first.", providerMetadata: { anthropic: { signature: "sig" } } },
          { type: "text", text: "Reading them." },
          { type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: "notes.md", lines: [1, 20], exact: true, none: null } },
        ],
      },
      {
        id: "t1",
        role: "tool",
        parts: [
          {
            type: "tool-result",
            toolCallId: "call_1",
            toolName: "read_file",
            output: { content: "# Notes" },
            display: [
              { type: "text", text: "Read 1 line" },
              { type: "diff", path: "/work/project/notes.md", oldText: null, newText: "# Notes" },
              { type: "terminal", terminalId: "term_1" },
            ],
            locations: [{ path: "/work/project/notes.md", line: 1 }],
          },
          { type: "tool-result", toolCallId: "call_2", toolName: "run_command", output: "refused", isError: true },
        ],
      },
      prompt,
    ],
    pending: [
      { id: "int_1", node: "tools", value: { kind: "tool-approval", toolName: "write_file", input: { path: "a.ts" } } },
      { id: "int_2", node: "ask", value: "Which branch?" },
    ],
    answered: { int_0: { approved: true }, int_9: "main" },
    always: [
      ["read_file", true],
      ["delete_file", false],
    ],
    config: { mode: "code", model: "smart", concise: true },
    title: "Fixing the failing test ☃",
    usage: { used: 48_213, cost: { amount: 0.0123456789, currency: "USD" } },
    turn: {
      kind: "resume",
      user: prompt,
      blocks: [
        { type: "text", text: "Fix the failing test" },
        { type: "resource", resource: { uri: "file:///work/project/notes.md", text: "# Notes", mimeType: "text/markdown" } },
      ],
      answers: { int_1: { approved: false }, int_2: "main" },
      input: { messages: [], task: "review", depth: 2 },
      startedAt: "2025-03-01T10:00:06.000Z",
    },
    updatedAt: "2025-03-01T10:00:07.000Z",
  };
}

export function describeAcpSessionStoreContract(options: AcpSessionStoreContractOptions): void {
  const title = options.skip ? `AcpSessionStore contract: ${options.name} (skipped: ${options.skip})` : `AcpSessionStore contract: ${options.name}`;
  describe.skipIf(options.skip !== undefined)(title, () => {
    const opened: AcpSessionStoreUnderTest[] = [];
    const claims: AcpSessionClaim[] = [];

    async function open(): Promise<AcpSessionStoreUnderTest> {
      const underTest = await options.create();
      opened.push(underTest);
      return underTest;
    }
    afterEach(async () => {
      for (const claim of claims.splice(0)) {
        await claim.release();
      }
      for (const underTest of opened.splice(0)) {
        await underTest.destroy?.();
      }
    });

    /** A case of a feature: skipped with the store's reason when it does not support it. */
    function feature(features: AcpSessionStoreFeature[], name: string, body: () => Promise<void>): void {
      const reasons = features.map((each) => options.unsupported?.[each]).filter((reason) => reason !== undefined);
      const skipped = reasons.length > 0 ? ` (skipped: ${reasons.join("; ")})` : "";
      it.skipIf(reasons.length > 0)(`${name}${skipped}`, body);
    }

    /** A method the store must have, unless the test file says why it has not. */
    function method<Name extends "list" | "delete" | "claim" | "grants" | "putGrant" | "deleteGrant">(store: AcpSessionStore, name: Name): NonNullable<AcpSessionStore[Name]> {
      const found = store[name];
      if (!found) {
        const group = name === "grants" || name === "putGrant" || name === "deleteGrant" ? "ledger" : name;
        throw new Error(`The store has no ${name}(); pass unsupported.${group} with the reason to skip these cases.`);
      }
      return found.bind(store) as NonNullable<AcpSessionStore[Name]>;
    }

    async function second(underTest: AcpSessionStoreUnderTest): Promise<AcpSessionStore> {
      if (!underTest.another) {
        throw new Error("The store under test has no another(); pass unsupported.sharing with the reason to skip these cases.");
      }
      return underTest.another();
    }

    async function claimOf(store: AcpSessionStore, sessionId: string): Promise<AcpSessionClaim | undefined> {
      const claim = await method(store, "claim")(sessionId);
      if (claim) {
        claims.push(claim);
      }
      return claim;
    }

    async function release(claim: AcpSessionClaim | undefined): Promise<void> {
      if (!claim) {
        throw new Error("There is no claim to release.");
      }
      claims.splice(claims.indexOf(claim), 1);
      await claim.release();
    }

    async function leaveClaim(underTest: AcpSessionStoreUnderTest, sessionId: string, holder: "stopped" | "expired" | "live elsewhere"): Promise<void> {
      if (!underTest.leaveClaim) {
        throw new Error('The store under test has no leaveClaim(); pass unsupported["stale claims"] with the reason to skip these cases.');
      }
      await underTest.leaveClaim(sessionId, holder);
    }

    /** The store, and a fresh view of it when the store has views: what was written must read back through both. */
    async function readers(underTest: AcpSessionStoreUnderTest): Promise<AcpSessionStore[]> {
      return options.unsupported?.sharing === undefined ? [underTest.store, await second(underTest)] : [underTest.store];
    }

    describe("get and put", () => {
      it("answers undefined for a session that was never written", async () => {
        const { store } = await open();
        expect(await store.get("sess_never")).toBeUndefined();
      });

      it("returns every field of what was put: the conversation with every kind of part, questions, answers, always answers, config values, title, usage, other directories and the turn", async () => {
        const underTest = await open();
        const written = fullSessionRecord("sess_full");
        await underTest.store.put(structuredClone(written));
        for (const reader of await readers(underTest)) {
          expect(await reader.get("sess_full")).toEqual(written);
        }
      });

      it("keeps sessions apart", async () => {
        const { store } = await open();
        await store.put(sessionRecord("sess_a", [user("u1", "for a")]));
        await store.put(sessionRecord("sess_b", [user("u1", "for b"), assistant("a1", "b's reply")], { info: { id: "sess_b", cwd: "/other", mcpServers: [] } }));
        expect((await store.get("sess_a"))?.history).toEqual([user("u1", "for a")]);
        expect(await store.get("sess_b")).toEqual(sessionRecord("sess_b", [user("u1", "for b"), assistant("a1", "b's reply")], { info: { id: "sess_b", cwd: "/other", mcpServers: [] } }));
      });

      it("replaces the record: a grown conversation, a taken-back prompt, a message replaced under a new id, cleared questions and turn", async () => {
        const underTest = await open();
        const { store } = underTest;
        const expectRead = async (record: AcpSessionRecord) => {
          for (const reader of await readers(underTest)) {
            expect(await reader.get("sess_1")).toEqual(record);
          }
        };
        const full = fullSessionRecord("sess_1");
        await store.put(full);
        // The turn ends: a reply, no questions, no turn in progress.
        const grown = sessionRecord("sess_1", [...full.history, assistant("a2", "Done.")], { info: full.info, always: full.always, updatedAt: "2025-03-01T10:01:00.000Z" });
        await store.put(grown);
        await expectRead(grown);
        // A failed turn's prompt is taken back.
        const shorter = { ...grown, history: grown.history.slice(0, 2), updatedAt: "2025-03-01T10:02:00.000Z" };
        await store.put(shorter);
        await expectRead(shorter);
        // The last message is replaced under a new id, and more follow.
        const replaced = { ...shorter, history: [shorter.history[0] as Message, user("u1b", "Read the notes, please"), assistant("a1b", "Read.")], updatedAt: "2025-03-01T10:03:00.000Z" };
        await store.put(replaced);
        await expectRead(replaced);
        // Emptied.
        const emptied = { ...replaced, history: [], always: [], updatedAt: "2025-03-01T10:04:00.000Z" };
        await store.put(emptied);
        await expectRead(emptied);
      });

      it("gives copies: changing what get returned, or what was put, does not change what the store holds", async () => {
        const { store } = await open();
        const written = fullSessionRecord("sess_1");
        await store.put(written);
        written.history.push(user("u9", "changed after the write"));
        written.always.push(["run_command", true]);
        written.info.mcpServers.push({ name: "later", command: "later-mcp", args: [], env: [] });
        written.pending?.push({ id: "int_9", node: "ask", value: "later" });
        if (written.answered) {
          written.answered.int_8 = "later";
        }
        if (written.turn) {
          written.turn.kind = "invoke";
        }
        if (written.config) {
          written.config.model = "changed after the write";
        }
        written.info.additionalDirectories?.push("/later");
        if (written.usage?.cost) {
          written.usage.cost.amount = 99;
        }
        const read = await store.get("sess_1");
        expect(read).toEqual(fullSessionRecord("sess_1"));
        read?.history.pop();
        read?.always.pop();
        read?.info.mcpServers.pop();
        read?.pending?.pop();
        if (read?.answered) {
          delete read.answered.int_0;
        }
        if (read?.turn) {
          read.turn.startedAt = "changed";
        }
        if (read?.config) {
          read.config.mode = "changed";
        }
        read?.info.additionalDirectories?.pop();
        if (read?.usage) {
          read.usage.used = 0;
        }
        if (read) {
          read.info.cwd = "/changed";
        }
        expect(await store.get("sess_1")).toEqual(fullSessionRecord("sess_1"));
      });

      it("gives the same session again and again, each time whole", async () => {
        const underTest = await open();
        const history = Array.from({ length: 150 }, (_, index) => (index % 2 === 0 ? user(`u${index}`, `prompt ${index}`) : assistant(`a${index}`, `reply ${index}`)));
        await underTest.store.put(sessionRecord("sess_1", history));
        for (let read = 0; read < 3; read++) {
          for (const reader of await readers(underTest)) {
            expect((await reader.get("sess_1"))?.history).toEqual(history);
          }
        }
      });
    });

    describe("list", () => {
      const at = (minute: number) => `2025-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`;

      feature(["list"], "lists sessions most recently updated first, each with its directory, title and update time", async () => {
        const { store } = await open();
        await store.put(sessionRecord("sess_old", [user("u1", "the oldest one")], { updatedAt: at(1) }));
        await store.put(sessionRecord("sess_new", [user("u1", "the newest one")], { updatedAt: at(3), info: { id: "sess_new", cwd: "/elsewhere", mcpServers: [] } }));
        await store.put(sessionRecord("sess_mid", [user("u1", "in the middle")], { updatedAt: at(2) }));
        const listed = await method(store, "list")({ offset: 0, limit: 10 });
        expect(listed).toEqual<AcpSessionSummary[]>([
          { sessionId: "sess_new", cwd: "/elsewhere", title: "the newest one", updatedAt: at(3) },
          { sessionId: "sess_mid", cwd: "/work/project", title: "in the middle", updatedAt: at(2) },
          { sessionId: "sess_old", cwd: "/work/project", title: "the oldest one", updatedAt: at(1) },
        ]);
      });

      feature(["list"], "titles a session with the start of its first prompt, and leaves a session without one untitled", async () => {
        const { store } = await open();
        const long = `Explain   this\n${"word ".repeat(40)}`;
        await store.put(sessionRecord("sess_long", [{ id: "s1", role: "system", parts: [{ type: "text", text: "system text is no title" }] }, user("u1", long), user("u2", "not this one")], { updatedAt: at(2) }));
        await store.put(sessionRecord("sess_empty", [], { updatedAt: at(1) }));
        const [titled, untitled] = await method(store, "list")({ offset: 0, limit: 10 });
        expect(titled?.title).toHaveLength(80);
        expect(titled?.title).toMatch(/^Explain this word word .*…$/);
        expect(untitled).toEqual({ sessionId: "sess_empty", cwd: "/work/project", updatedAt: at(1) });
        expect(untitled && "title" in untitled).toBe(false);
      });

      feature(["list"], "lists a session by the title its record holds, over the start of its first prompt, and with its other directories", async () => {
        const { store } = await open();
        await store.put(sessionRecord("sess_1", [user("u1", "the first prompt")], { updatedAt: at(2), title: "A title of its own" }));
        await store.put(sessionRecord("sess_2", [], { updatedAt: at(1), info: { id: "sess_2", cwd: "/work/project", mcpServers: [], additionalDirectories: ["/work/lib", "/work/docs"] } }));
        expect(await method(store, "list")({ offset: 0, limit: 10 })).toEqual<AcpSessionSummary[]>([
          { sessionId: "sess_1", cwd: "/work/project", title: "A title of its own", updatedAt: at(2) },
          { sessionId: "sess_2", cwd: "/work/project", additionalDirectories: ["/work/lib", "/work/docs"], updatedAt: at(1) },
        ]);
        expect((await method(store, "list")({ offset: 0, limit: 10 })).map((summary) => "additionalDirectories" in summary)).toEqual([false, true]);
      });

      feature(["list"], "lists only the sessions of a directory when asked", async () => {
        const { store } = await open();
        await store.put(sessionRecord("sess_1", [], { updatedAt: at(1) }));
        await store.put(sessionRecord("sess_2", [], { updatedAt: at(2), info: { id: "sess_2", cwd: "/other", mcpServers: [] } }));
        await store.put(sessionRecord("sess_3", [], { updatedAt: at(3) }));
        const list = method(store, "list");
        expect((await list({ cwd: "/work/project", offset: 0, limit: 10 })).map((summary) => summary.sessionId)).toEqual(["sess_3", "sess_1"]);
        expect((await list({ cwd: "/other", offset: 0, limit: 10 })).map((summary) => summary.sessionId)).toEqual(["sess_2"]);
        expect(await list({ cwd: "/work", offset: 0, limit: 10 })).toEqual([]);
        expect(await list({ cwd: "/nowhere", offset: 0, limit: 10 })).toEqual([]);
      });

      feature(["list"], "pages with offset and limit, over all sessions and over one directory", async () => {
        const { store } = await open();
        for (let index = 0; index < 7; index++) {
          await store.put(sessionRecord(`sess_${index}`, [], { updatedAt: at(index), info: { id: `sess_${index}`, cwd: index % 2 === 0 ? "/even" : "/odd", mcpServers: [] } }));
        }
        const list = method(store, "list");
        const ids = async (query: { cwd?: string; offset: number; limit: number }) => (await list(query)).map((summary) => summary.sessionId);
        expect(await ids({ offset: 0, limit: 3 })).toEqual(["sess_6", "sess_5", "sess_4"]);
        expect(await ids({ offset: 3, limit: 3 })).toEqual(["sess_3", "sess_2", "sess_1"]);
        expect(await ids({ offset: 6, limit: 3 })).toEqual(["sess_0"]);
        expect(await ids({ offset: 7, limit: 3 })).toEqual([]);
        expect(await ids({ cwd: "/even", offset: 1, limit: 2 })).toEqual(["sess_4", "sess_2"]);
        expect(await ids({ cwd: "/even", offset: 3, limit: 2 })).toEqual(["sess_0"]);
      });

      feature(["list"], "lists a session written again by its new update time, directory and title", async () => {
        const { store } = await open();
        await store.put(sessionRecord("sess_1", [], { updatedAt: at(1) }));
        await store.put(sessionRecord("sess_2", [], { updatedAt: at(2) }));
        await store.put(sessionRecord("sess_1", [user("u1", "now with a prompt")], { updatedAt: at(3), info: { id: "sess_1", cwd: "/moved", mcpServers: [] } }));
        const list = method(store, "list");
        expect(await list({ offset: 0, limit: 10 })).toEqual([
          { sessionId: "sess_1", cwd: "/moved", title: "now with a prompt", updatedAt: at(3) },
          { sessionId: "sess_2", cwd: "/work/project", updatedAt: at(2) },
        ]);
        expect((await list({ cwd: "/work/project", offset: 0, limit: 10 })).map((summary) => summary.sessionId)).toEqual(["sess_2"]);
      });
    });

    describe("delete", () => {
      feature(["delete"], "removes a session: get answers undefined and list no longer shows it", async () => {
        const { store } = await open();
        await store.put(fullSessionRecord("sess_1"));
        await store.put(sessionRecord("sess_2", [user("u1", "stays")]));
        await method(store, "delete")("sess_1");
        expect(await store.get("sess_1")).toBeUndefined();
        expect((await store.get("sess_2"))?.history).toEqual([user("u1", "stays")]);
        if (store.list) {
          expect((await store.list({ offset: 0, limit: 10 })).map((summary) => summary.sessionId)).toEqual(["sess_2"]);
        }
      });

      feature(["delete"], "deleting a session that does not exist, or deleting one twice, is not an error", async () => {
        const { store } = await open();
        const remove = method(store, "delete");
        await expect(Promise.resolve(remove("sess_never"))).resolves.toBeUndefined();
        await store.put(sessionRecord("sess_1"));
        await remove("sess_1");
        await expect(Promise.resolve(remove("sess_1"))).resolves.toBeUndefined();
      });

      feature(["delete"], "a session written again after it was deleted starts afresh, with nothing of the deleted one", async () => {
        const { store } = await open();
        await store.put(fullSessionRecord("sess_1"));
        await method(store, "delete")("sess_1");
        const fresh = sessionRecord("sess_1", [user("n1", "a new start")]);
        await store.put(fresh);
        expect(await store.get("sess_1")).toEqual(fresh);
      });
    });

    describe("claim", () => {
      feature(["claim"], "gives one claim on a session at a time: another is refused until the first is released, then given", async () => {
        const { store } = await open();
        await store.put(sessionRecord("sess_1"));
        const first = await claimOf(store, "sess_1");
        expect(first).toBeDefined();
        expect(await claimOf(store, "sess_1")).toBeUndefined();
        await release(first);
        const again = await claimOf(store, "sess_1");
        expect(again).toBeDefined();
        expect(await claimOf(store, "sess_1")).toBeUndefined();
      });

      feature(["claim"], "claims on different sessions do not hold each other up", async () => {
        const { store } = await open();
        await store.put(sessionRecord("sess_1"));
        await store.put(sessionRecord("sess_2"));
        expect(await claimOf(store, "sess_1")).toBeDefined();
        expect(await claimOf(store, "sess_2")).toBeDefined();
      });

      feature(["claim"], "a claim does not change the session", async () => {
        const { store } = await open();
        await store.put(fullSessionRecord("sess_1"));
        const claim = await claimOf(store, "sess_1");
        expect(await store.get("sess_1")).toEqual(fullSessionRecord("sess_1"));
        await release(claim);
        expect(await store.get("sess_1")).toEqual(fullSessionRecord("sess_1"));
      });

      feature(["claim", "sharing", "renewal"], "keeps a held claim past the time a claim lasts on its own", async () => {
        const underTest = await open();
        const other = await second(underTest);
        await underTest.store.put(sessionRecord("sess_1"));
        const held = await claimOf(underTest.store, "sess_1");
        expect(held).toBeDefined();
        if (!underTest.leaseMs) {
          throw new Error("The store under test has no leaseMs; pass unsupported.renewal with the reason to skip this case.");
        }
        await sleep(underTest.leaseMs * 2.5);
        expect(await claimOf(other, "sess_1")).toBeUndefined();
        await release(held);
        expect(await claimOf(other, "sess_1")).toBeDefined();
      });
    });

    describe("several views of one store", () => {
      feature(["sharing"], "a view reads what another wrote, also after it had read the session before", async () => {
        const underTest = await open();
        const other = await second(underTest);
        await underTest.store.put(sessionRecord("sess_1", [user("u1", "one")]));
        expect((await other.get("sess_1"))?.history).toEqual([user("u1", "one")]);
        const grown = sessionRecord("sess_1", [user("u1", "one"), assistant("a1", "reply")], { pending: [{ id: "int_1", node: "ask", value: "Sure?" }], updatedAt: "2025-03-01T11:00:00.000Z" });
        await underTest.store.put(grown);
        expect(await other.get("sess_1")).toEqual(grown);
        const full = { ...fullSessionRecord("sess_1"), history: [...grown.history, ...fullSessionRecord("sess_1").history.slice(1)] };
        await other.put(full);
        expect(await underTest.store.get("sess_1")).toEqual(full);
      });

      feature(["sharing", "list"], "a view lists the sessions another wrote", async () => {
        const underTest = await open();
        const other = await second(underTest);
        await underTest.store.put(sessionRecord("sess_1", [user("u1", "from the first view")]));
        expect(await method(other, "list")({ offset: 0, limit: 10 })).toEqual([{ sessionId: "sess_1", cwd: "/work/project", title: "from the first view", updatedAt: "2025-03-01T10:00:00.000Z" }]);
      });

      feature(["sharing", "delete"], "a session one view deleted is gone for another that had read it", async () => {
        const underTest = await open();
        const other = await second(underTest);
        await underTest.store.put(sessionRecord("sess_1", [user("u1", "one")]));
        expect(await other.get("sess_1")).toBeDefined();
        await method(underTest.store, "delete")("sess_1");
        expect(await other.get("sess_1")).toBeUndefined();
      });

      feature(["sharing", "claim"], "a claim through one view holds the session for every view until it is released", async () => {
        const underTest = await open();
        const other = await second(underTest);
        await underTest.store.put(sessionRecord("sess_1"));
        const held = await claimOf(underTest.store, "sess_1");
        expect(held).toBeDefined();
        expect(await claimOf(other, "sess_1")).toBeUndefined();
        await release(held);
        const taken = await claimOf(other, "sess_1");
        expect(taken).toBeDefined();
        expect(await claimOf(underTest.store, "sess_1")).toBeUndefined();
      });

      feature(["sharing", "claim"], "of claims made at once through several views, exactly one is given", async () => {
        const underTest = await open();
        const views = [underTest.store, await second(underTest), await second(underTest), await second(underTest)];
        await underTest.store.put(sessionRecord("sess_1"));
        for (let round = 0; round < 3; round++) {
          const given = (await Promise.all(views.map((view) => claimOf(view, "sess_1")))).filter((claim) => claim !== undefined);
          expect(given).toHaveLength(1);
          await release(given[0]);
        }
      });
    });

    describe("conflicting writes", () => {
      const conflict = (sessionId: string) => ({ name: "SessionConflictError", code: "session_conflict", sessionId });

      feature(["sharing", "conflicts"], "refuses a write from a view whose copy another view has changed since, and keeps the other's record whole", async () => {
        const underTest = await open();
        const stale = await second(underTest);
        await underTest.store.put(sessionRecord("sess_1", [user("u1", "one")]));
        await stale.get("sess_1");
        const moved = sessionRecord("sess_1", [user("u1", "one"), assistant("a1", "the other view's reply"), user("u2", "two")], { always: [["read_file", true]], updatedAt: "2025-03-01T10:05:00.000Z" });
        await underTest.store.put(moved);
        await expect(Promise.resolve(stale.put(sessionRecord("sess_1", [user("u1", "one"), assistant("x1", "the stale view's reply")], { updatedAt: "2025-03-01T10:06:00.000Z" })))).rejects.toMatchObject(conflict("sess_1"));
        expect(await underTest.store.get("sess_1")).toEqual(moved);
        expect(await (await second(underTest)).get("sess_1")).toEqual(moved);
        expect(await stale.get("sess_1")).toEqual(moved);
        if (stale.list) {
          expect(await stale.list({ offset: 0, limit: 10 })).toEqual([{ sessionId: "sess_1", cwd: "/work/project", title: "one", updatedAt: "2025-03-01T10:05:00.000Z" }]);
        }
      });

      feature(["sharing", "conflicts"], "a refused write that replaced messages or took them back leaves the other view's messages in place", async () => {
        const underTest = await open();
        const replacing = await second(underTest);
        const takingBack = await second(underTest);
        const start = sessionRecord("sess_1", [user("u1", "one"), assistant("a1", "reply one"), user("u2", "two"), assistant("a2", "reply two")]);
        await underTest.store.put(start);
        await replacing.get("sess_1");
        await takingBack.get("sess_1");
        const moved = { ...start, history: [...start.history, user("u3", "three")], updatedAt: "2025-03-01T10:05:00.000Z" };
        await underTest.store.put(moved);
        await expect(Promise.resolve(replacing.put({ ...start, history: [user("u1", "one"), user("x2", "replaced"), assistant("x3", "and more")] }))).rejects.toMatchObject(conflict("sess_1"));
        await expect(Promise.resolve(takingBack.put({ ...start, history: [user("u1", "one")] }))).rejects.toMatchObject(conflict("sess_1"));
        for (const view of [underTest.store, replacing, takingBack, await second(underTest)]) {
          expect(await view.get("sess_1")).toEqual(moved);
        }
      });

      feature(["sharing", "conflicts"], "after a refused write, the view reads the session again and its next write goes in", async () => {
        const underTest = await open();
        const stale = await second(underTest);
        await underTest.store.put(sessionRecord("sess_1", [user("u1", "one")]));
        await stale.get("sess_1");
        await underTest.store.put(sessionRecord("sess_1", [user("u1", "one"), assistant("a1", "reply")]));
        await expect(Promise.resolve(stale.put(sessionRecord("sess_1", [user("u1", "one"), assistant("x1", "stale")])))).rejects.toMatchObject(conflict("sess_1"));
        const reread = await stale.get("sess_1");
        const next = sessionRecord("sess_1", [...(reread?.history ?? []), user("u2", "two")], { updatedAt: "2025-03-01T10:09:00.000Z" });
        await stale.put(next);
        expect(await underTest.store.get("sess_1")).toEqual(next);
      });

      feature(["sharing", "conflicts"], "of two writes from the same copy at once, one goes in, the other is refused, and every view reads the one that went in", async () => {
        const underTest = await open();
        const views = [underTest.store, await second(underTest)];
        await underTest.store.put(sessionRecord("sess_1", [user("u1", "one")]));
        for (let round = 1; round <= 3; round++) {
          // Both views read the same copy, then both write a reply to it.
          const [base] = await Promise.all(views.map((view) => view.get("sess_1")));
          const history = base?.history ?? [];
          const writes = views.map((_view, index) => sessionRecord("sess_1", [...history, assistant(`r${round}v${index}`, `round ${round}, view ${index}`)], { updatedAt: `2025-03-01T10:0${round}:0${index}.000Z` }));
          const outcomes = await Promise.allSettled(views.map((view, index) => Promise.resolve(view.put(writes[index] as AcpSessionRecord))));
          const taken = outcomes.flatMap((outcome, index) => (outcome.status === "fulfilled" ? [writes[index]] : []));
          const refused = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
          expect(taken).toHaveLength(1);
          expect(refused).toEqual([expect.objectContaining(conflict("sess_1"))]);
          for (const view of [...views, await second(underTest)]) {
            expect(await view.get("sess_1")).toEqual(taken[0]);
          }
        }
      });

      feature(["sharing", "conflicts", "delete"], "refuses a write from a view that read the session before another view deleted it", async () => {
        const underTest = await open();
        const stale = await second(underTest);
        await underTest.store.put(sessionRecord("sess_1", [user("u1", "one")]));
        await stale.get("sess_1");
        await method(underTest.store, "delete")("sess_1");
        await expect(Promise.resolve(stale.put(sessionRecord("sess_1", [user("u1", "one"), assistant("a1", "too late")])))).rejects.toMatchObject(conflict("sess_1"));
        expect(await underTest.store.get("sess_1")).toBeUndefined();
        if (underTest.store.list) {
          expect(await underTest.store.list({ offset: 0, limit: 10 })).toEqual([]);
        }
      });
    });

    describe("claims whose holder is gone", () => {
      feature(["claim", "stale claims"], "a claim left by a process on this machine that has ended can be taken at once", async () => {
        const underTest = await open();
        await underTest.store.put(sessionRecord("sess_1"));
        await leaveClaim(underTest, "sess_1", "stopped");
        expect(await claimOf(underTest.store, "sess_1")).toBeDefined();
      });

      feature(["claim", "stale claims"], "a claim left by a process out of reach can be taken once its time has run out", async () => {
        const underTest = await open();
        await underTest.store.put(sessionRecord("sess_1"));
        await leaveClaim(underTest, "sess_1", "expired");
        expect(await claimOf(underTest.store, "sess_1")).toBeDefined();
      });

      feature(["claim", "stale claims"], "a claim held by a process out of reach whose time has not run out is refused", async () => {
        const underTest = await open();
        await underTest.store.put(sessionRecord("sess_1"));
        await leaveClaim(underTest, "sess_1", "live elsewhere");
        expect(await claimOf(underTest.store, "sess_1")).toBeUndefined();
        expect(await claimOf(underTest.store, "sess_2")).toBeDefined();
      });
    });

    describe("permission ledger", () => {
      const grant = (tool: string, scope: string, allow = true, label = scope): AcpGrant => ({ tool, scope, label, allow, grantedAt: "2025-03-01T10:00:00.000Z" });

      feature(["ledger"], "a project without grants has none; grants put read back in order, one per tool and scope, a later one in place of the earlier", async () => {
        const { store } = await open();
        const grants = method(store, "grants");
        const put = method(store, "putGrant");
        expect(await grants("/work/project")).toEqual([]);
        await put("/work/project", grant("run_command", "prefix:npm test", true, "`npm test …`"));
        await put("/work/project", grant("edit_file", "src/", true, "edits in `src/`"));
        await put("/work/project", grant("run_command", "prefix:npm test", false, "`npm test …`"));
        expect(await grants("/work/project")).toEqual([grant("edit_file", "src/", true, "edits in `src/`"), grant("run_command", "prefix:npm test", false, "`npm test …`")]);
      });

      feature(["ledger"], "keeps projects apart, whatever their directories hold (spaces, unicode, a trailing slash)", async () => {
        const underTest = await open();
        const { store } = underTest;
        const put = method(store, "putGrant");
        const directories = ["/work/project", "/work/project/", "/work/other project", "/work/プロジェクト", "C:\\work\\project"];
        for (const [index, cwd] of directories.entries()) {
          await put(cwd, grant("run_command", `prefix:tool ${index}`));
        }
        for (const reader of await readers(underTest)) {
          for (const [index, cwd] of directories.entries()) {
            expect(await method(reader, "grants")(cwd)).toEqual([grant("run_command", `prefix:tool ${index}`)]);
          }
          expect(await method(reader, "grants")("/work")).toEqual([]);
        }
        // The sessions themselves are untouched by the ledger.
        await store.put(sessionRecord("sess_1"));
        expect(await store.get("sess_1")).toEqual(sessionRecord("sess_1"));
      });

      feature(["ledger"], "deletes one grant: the others stay, and deleting one that is not there is not an error", async () => {
        const { store } = await open();
        const put = method(store, "putGrant");
        await put("/work/project", grant("run_command", "prefix:npm test"));
        await put("/work/project", grant("run_command", "prefix:git status"));
        await method(store, "deleteGrant")("/work/project", "run_command", "prefix:npm test");
        await expect(Promise.resolve(method(store, "deleteGrant")("/work/project", "run_command", "prefix:npm test"))).resolves.toBeUndefined();
        await expect(Promise.resolve(method(store, "deleteGrant")("/work/nowhere", "run_command", "prefix:npm test"))).resolves.toBeUndefined();
        expect(await method(store, "grants")("/work/project")).toEqual([grant("run_command", "prefix:git status")]);
      });

      feature(["ledger"], "gives copies: changing the grants it returned does not change the ledger", async () => {
        const { store } = await open();
        await method(store, "putGrant")("/work/project", grant("run_command", "prefix:npm test"));
        const read = await method(store, "grants")("/work/project");
        const [first] = read;
        if (first) {
          first.allow = false;
        }
        read.push(grant("run_command", "exact:rm -rf x"));
        expect(await method(store, "grants")("/work/project")).toEqual([grant("run_command", "prefix:npm test")]);
      });

      feature(["ledger", "sharing"], "a grant put through one view is read through another, and grants two views put one after the other are both kept", async () => {
        const underTest = await open();
        const other = await second(underTest);
        await method(underTest.store, "putGrant")("/work/project", grant("run_command", "prefix:npm test"));
        expect(await method(other, "grants")("/work/project")).toEqual([grant("run_command", "prefix:npm test")]);
        await method(other, "putGrant")("/work/project", grant("edit_file", "src/"));
        await method(underTest.store, "putGrant")("/work/project", grant("write_file", "docs/"));
        await Promise.all([
          method(underTest.store, "putGrant")("/work/project", grant("run_command", "prefix:git status")),
          method(other, "putGrant")("/work/project", grant("run_command", "prefix:git diff")),
        ]);
        const scopes = (await method(underTest.store, "grants")("/work/project")).map((each) => each.scope).sort();
        expect(scopes).toEqual(["docs/", "prefix:git diff", "prefix:git status", "prefix:npm test", "src/"]);
        await method(other, "deleteGrant")("/work/project", "run_command", "prefix:npm test");
        expect((await method(underTest.store, "grants")("/work/project")).map((each) => each.scope)).not.toContain("prefix:npm test");
      });

      feature(["ledger", "corrupt ledger"], "refuses to read a ledger whose stored value is not one, and does not write over it", async () => {
        const underTest = await open();
        await method(underTest.store, "putGrant")("/work/project", grant("run_command", "exact:rm -rf build", false));
        if (!underTest.corruptLedger) {
          throw new Error('The store under test has no corruptLedger(); pass unsupported["corrupt ledger"] with the reason to skip this case.');
        }
        await underTest.corruptLedger("/work/project");
        await expect(Promise.resolve().then(() => method(underTest.store, "grants")("/work/project"))).rejects.toThrow();
        await expect(Promise.resolve().then(() => method(underTest.store, "putGrant")("/work/project", grant("run_command", "prefix:npm test")))).rejects.toThrow();
        await expect(Promise.resolve().then(() => method(underTest.store, "grants")("/work/project"))).rejects.toThrow();
        // Other projects are read as ever.
        expect(await method(underTest.store, "grants")("/work/other")).toEqual([]);
      });
    });
  });
}
