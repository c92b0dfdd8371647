// How chat lists sessions: one-shot runs' sessions counted (or shown, marked, with --all), and
// when each was used in words rather than as an ISO time.

import { describe, expect, it } from "vitest";

import type { ChatSessionEntry } from "./chat-sessions.js";
import { sessionListLines, whenUsed } from "./session-list.js";
import { terminalStyle } from "./terminal-style.js";

const now = new Date("2026-03-04T12:00:00Z");
const style = terminalStyle(false);
const ago = (milliseconds: number) => new Date(now.getTime() - milliseconds).toISOString();

describe("session list", () => {
  it("says when a session was used: just now, minutes and hours ago, else its local date and time", () => {
    expect(whenUsed(ago(20_000), now)).toBe("just now");
    expect(whenUsed(ago(60_000), now)).toBe("1 minute ago");
    expect(whenUsed(ago(5 * 60_000), now)).toBe("5 minutes ago");
    expect(whenUsed(ago(3 * 3_600_000), now)).toBe("3 hours ago");
    const old = new Date(2025, 0, 2, 9, 5);
    expect(whenUsed(old.toISOString(), now)).toBe("2025-01-02 09:05");
    // A clock a little ahead is "just now"; no time, or one that is not a time, is nothing.
    expect(whenUsed(ago(-5_000), now)).toBe("just now");
    expect(whenUsed(undefined, now)).toBe("");
    expect(whenUsed("soon", now)).toBe("");
  });

  it("leaves out the sessions one-shot runs started and counts them; with all, shows them marked with their name", () => {
    const sessions = [
      { sessionId: "sess_a", cwd: "/p", updatedAt: ago(60_000), title: "a person's" },
      { sessionId: "sess_b", cwd: "/p", updatedAt: ago(120_000), title: "nightly check" },
      { sessionId: "sess_c", cwd: "/p", updatedAt: ago(180_000) },
    ];
    const runs = new Map<string, ChatSessionEntry>([
      ["sess_b", { cwd: "/p", agent: "weft acp", sessionId: "sess_b", name: "nightly", startedByRun: true, usedAt: ago(120_000) }],
      ["sess_c", { cwd: "/p", agent: "weft acp", sessionId: "sess_c", startedByRun: true, usedAt: ago(180_000) }],
    ]);
    expect(sessionListLines(sessions, runs, { all: false, style, now })).toEqual([
      "sess_a  1 minute ago      a person's",
      "(2 more started by one-shot runs (weft chat -p); weft chat --list --all shows them)",
    ]);
    expect(sessionListLines(sessions, runs, { all: true, style, now })).toEqual([
      "sess_a  1 minute ago      a person's",
      "sess_b  2 minutes ago     nightly check  (weft chat -p, --session nightly)",
      "sess_c  3 minutes ago       (weft chat -p)",
    ]);
    expect(sessionListLines(sessions.slice(2), runs, { all: false, style, now })).toEqual(["(1 started by one-shot runs (weft chat -p); weft chat --list --all shows it)"]);
    expect(sessionListLines([], runs, { all: false, style, now })).toEqual([]);
  });
});
