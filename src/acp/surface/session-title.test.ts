// One session's title: the default from its first prompt, the integrator's title() (which may take
// its time or fail), kept in the record so the list agrees, and the update time sent with it.

import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import type { Logger } from "../../types/logger.js";
import type { Message } from "../../types/messages.js";
import { HeldUpdates } from "../session/held-updates.js";
import { type AcpSessionRecord, MemoryAcpSessionStore, summarize } from "../record/session-store.js";
import { type AcpTitle, SessionTitle } from "./session-title.js";
import { StoredSession } from "../session/stored-session.js";
import { UpdateSink } from "../session/update-sink.js";

const user = (id: string, text: string): Message => ({ id, role: "user", parts: [{ type: "text", text }] });

function sessionTitle(title?: AcpTitle, record: Partial<AcpSessionRecord> = {}) {
  const full: AcpSessionRecord = { info: { id: "sess_1", cwd: "/project", mcpServers: [] }, history: [], always: [], updatedAt: "2025-01-01T00:00:00.000Z", ...record };
  const warnings: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];
  const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (message, fields) => void warnings.push({ message, fields }), error: () => undefined };
  const updates: SessionUpdate[] = [];
  const sink = new UpdateSink("sess_1", async (notification) => void updates.push(notification.update), logger);
  const store = new MemoryAcpSessionStore();
  const session = new StoredSession(store, full, logger);
  const held = new HeldUpdates(sink);
  const titles = new SessionTitle(session, held, title, logger, new AbortController().signal);
  const sent = async () => {
    await held.flush();
    return updates;
  };
  /** The prompt joins the conversation and is written, as a turn does, then the title is asked for. */
  const prompt = async (message: Message) => {
    session.addMessages([message]);
    await session.persist();
    titles.prompted();
  };
  return { titles, session, store, warnings, sent, prompt };
}

describe("SessionTitle", () => {
  it("titles a session by the start of its first prompt, sent with the update time and kept in the record", async () => {
    const { session, sent, prompt, titles } = sessionTitle();
    await prompt(user("u1", `Fix   the failing\ntest in ${"x".repeat(100)}`));
    const titledAt = session.record.updatedAt;
    await prompt(user("u2", "and the other one"));
    const title = session.record.title;
    expect(title).toMatch(/^Fix the failing test in x+…$/);
    expect([...(title ?? "")]).toHaveLength(80);
    expect(await sent()).toEqual([{ sessionUpdate: "session_info_update", title, updatedAt: titledAt }]);
    expect(summarize(session.record).title).toBe(title);
    expect(titles.current()).toBe(title);
  });

  it("waits for a prompt with text: an image alone gives no title", async () => {
    const { session, sent, prompt } = sessionTitle();
    await prompt({ id: "u1", role: "user", parts: [{ type: "image", data: "AAAA", mediaType: "image/png" }] });
    expect(session.record.title).toBeUndefined();
    await prompt(user("u2", "what is this?"));
    // The first prompt with text is the title, as the list would show it.
    expect(session.record.title).toBe("what is this?");
    expect((await sent()).length).toBe(1);
  });

  it("takes the integrator's title for the first prompt, and writes it when it comes", async () => {
    let answer!: (title: string) => void;
    const asked: string[] = [];
    const { session, store, sent, prompt, titles } = sessionTitle(({ prompt: text }) => {
      asked.push(text);
      return new Promise<string>((resolve) => (answer = resolve));
    });
    await prompt(user("u1", "please make the build faster"));
    expect(session.record.title).toBeUndefined();
    await prompt(user("u2", "a second prompt while the title is made"));
    answer("  Faster\nbuilds ");
    await titles.settled();
    expect(asked).toEqual(["please make the build faster"]);
    expect(session.record.title).toBe("Faster builds");
    expect((await store.get("sess_1"))?.title).toBe("Faster builds");
    expect(await sent()).toEqual([{ sessionUpdate: "session_info_update", title: "Faster builds", updatedAt: (await store.get("sess_1"))?.updatedAt }]);
  });

  it("falls back to the default when title() fails or gives nothing, and logs a failure", async () => {
    const failing = sessionTitle(() => Promise.reject(new Error("the model is down")));
    await failing.prompt(user("u1", "rename the module"));
    await failing.titles.settled();
    expect(failing.session.record.title).toBe("rename the module");
    expect(failing.warnings).toEqual([{ message: "title() failed; the session keeps the start of its first prompt as its title", fields: { sessionId: "sess_1", error: "the model is down" } }]);
    const empty = sessionTitle(() => "   ");
    await empty.prompt(user("u1", "rename the module"));
    await empty.titles.settled();
    expect(empty.session.record.title).toBe("rename the module");
    expect(empty.warnings).toEqual([]);
  });

  it("gives a record from before titles were kept the default at its next prompt, without asking title()", async () => {
    let asked = 0;
    const { session, prompt } = sessionTitle(() => `made ${++asked}`, { history: [user("u0", "the old first prompt")] });
    await prompt(user("u1", "a new prompt"));
    expect(session.record.title).toBe("the old first prompt");
    expect(asked).toBe(0);
  });

  it("announces the title and update time after a load, and the update time after a write since", async () => {
    const { titles, session, sent } = sessionTitle(undefined, { title: "Kept title", history: [user("u1", "first")] });
    titles.announce();
    titles.touched();
    await session.persist();
    titles.touched();
    const updates = await sent();
    expect(updates).toEqual([
      { sessionUpdate: "session_info_update", title: "Kept title", updatedAt: "2025-01-01T00:00:00.000Z" },
      { sessionUpdate: "session_info_update", updatedAt: session.record.updatedAt },
    ]);
    const untitled = sessionTitle();
    untitled.titles.announce();
    expect(await untitled.sent()).toEqual([{ sessionUpdate: "session_info_update", updatedAt: "2025-01-01T00:00:00.000Z" }]);
  });
});
