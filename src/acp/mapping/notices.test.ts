import { describe, expect, it } from "vitest";

import { besideUpdates, noticeInWords, noticeUpdate, shownBeside } from "./notices.js";

const none = { notices: false, compaction: false };
const all = { notices: true, compaction: true };

describe("notices", () => {
  it("keep ACP's rule that a title is not empty", () => {
    expect(noticeUpdate({ severity: "warning", title: "  " })).toEqual({ sessionUpdate: "notice", severity: "warning", title: "Warning" });
    expect(noticeUpdate({ severity: "info", title: "Done", description: "" })).toEqual({ sessionUpdate: "notice", severity: "info", title: "Done" });
  });

  it("are words for warnings and errors only, when the editor does not show them", () => {
    expect(noticeInWords({ severity: "info", title: "Indexed" })).toBeUndefined();
    expect(noticeInWords({ severity: "error", title: "Down", description: "Try later." })).toBe("Error: Down\nTry later.\n\n");
    expect(besideUpdates({ type: "notice", severity: "info", title: "Indexed" }, none)).toEqual([]);
    expect(besideUpdates({ type: "notice", severity: "warning", title: "Full" }, none)).toEqual([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Warning: Full\n\n" } }]);
  });

  it("follow what the editor advertised: `{}` is yes, null and omitted are no", () => {
    expect(shownBeside({ session: { notices: true } })).toEqual({ notices: true, compaction: false });
    expect(shownBeside({})).toEqual(none);
  });
});

describe("compactions", () => {
  it("carry their id, status, summary and error", () => {
    expect(besideUpdates({ type: "compaction", compactionId: "c1", status: "cancelled" }, all)).toEqual([{ sessionUpdate: "compaction_update", compactionId: "c1", status: "cancelled" }]);
    expect(besideUpdates({ type: "compaction", compactionId: "c1", status: "failed", error: "no" }, all)).toEqual([{ sessionUpdate: "compaction_update", compactionId: "c1", status: "failed", error: "no" }]);
    expect(besideUpdates({ type: "compaction-delta", compactionId: "c1", delta: "So far" }, all)).toEqual([{ sessionUpdate: "compaction_summary_chunk", compactionId: "c1", content: { type: "text", text: "So far" } }]);
  });

  it("make nothing for an editor that does not show them", () => {
    expect(besideUpdates({ type: "compaction", compactionId: "c1", status: "completed", summary: "S" }, none)).toEqual([]);
    expect(besideUpdates({ type: "compaction-delta", compactionId: "c1", delta: "S" }, { notices: true, compaction: false })).toEqual([]);
  });
});
