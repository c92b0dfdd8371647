// The file of one-shot runs' sessions: names per directory and agent, the last one used, and a
// file that is missing or not ours read as empty.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { ChatSessions, chatSessionsPath } from "./chat-sessions.js";

let directory = "";
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe("chat sessions file", () => {
  it("finds a session by name in its directory and agent only, and the last one used", () => {
    directory = mkdtempSync(join(tmpdir(), "weft-chat-sessions-"));
    const sessions = new ChatSessions(join(directory, "weft", "chat-sessions.json"));
    sessions.remember({ cwd: "/p", agent: "weft acp", name: "sky", sessionId: "sess_1" });
    sessions.remember({ cwd: "/p", agent: "weft acp", sessionId: "sess_2" });
    expect(sessions.named("/p", "weft acp", "sky")?.sessionId).toBe("sess_1");
    expect(sessions.named("/q", "weft acp", "sky")).toBeUndefined();
    expect(sessions.named("/p", "other agent", "sky")).toBeUndefined();
    expect(sessions.last("/p", "weft acp")?.sessionId).toBe("sess_2");

    // Using a named session again keeps its name; giving the name to another session moves it.
    sessions.remember({ cwd: "/p", agent: "weft acp", sessionId: "sess_1" });
    expect(sessions.last("/p", "weft acp")).toMatchObject({ sessionId: "sess_1", name: "sky" });
    sessions.remember({ cwd: "/p", agent: "weft acp", name: "sky", sessionId: "sess_3" });
    expect(sessions.named("/p", "weft acp", "sky")?.sessionId).toBe("sess_3");
  });

  it("keeps which sessions a run started: a run that carries on another's session leaves it theirs, and carrying one on keeps the mark", () => {
    directory = mkdtempSync(join(tmpdir(), "weft-chat-sessions-"));
    const sessions = new ChatSessions(join(directory, "chat-sessions.json"));
    sessions.remember({ cwd: "/p", agent: "weft acp", sessionId: "sess_run", startedByRun: true });
    sessions.remember({ cwd: "/p", agent: "weft acp", sessionId: "sess_person", startedByRun: false });
    sessions.remember({ cwd: "/p", agent: "weft acp", name: "nightly", sessionId: "sess_run", startedByRun: false });
    sessions.remember({ cwd: "/q", agent: "weft acp", sessionId: "sess_elsewhere", startedByRun: true });
    expect([...sessions.startedByRuns("/p", "weft acp").keys()]).toEqual(["sess_run"]);
    expect(sessions.startedByRuns("/p", "weft acp").get("sess_run")?.name).toBe("nightly");
    expect(sessions.startedByRuns("/p", "other agent").size).toBe(0);
  });

  it("reads a missing or foreign file as no sessions", () => {
    directory = mkdtempSync(join(tmpdir(), "weft-chat-sessions-"));
    const path = join(directory, "chat-sessions.json");
    expect(new ChatSessions(path).last("/p", "a")).toBeUndefined();
    writeFileSync(path, "not json");
    expect(new ChatSessions(path).last("/p", "a")).toBeUndefined();
    writeFileSync(path, JSON.stringify({ sessions: [{ cwd: "/p" }] }));
    expect(new ChatSessions(path).last("/p", "a")).toBeUndefined();
  });

  it("lives under XDG_STATE_HOME", () => {
    expect(chatSessionsPath({ XDG_STATE_HOME: "/state" })).toBe("/state/weft/chat-sessions.json");
  });
});
