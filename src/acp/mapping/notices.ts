// Notices and compactions: what the person is told beside the conversation. ACP lets an agent send
// a `notice` only to an editor that advertised `session.notices`, and `compaction_update` /
// `compaction_summary_chunk` only to one that advertised `session.compaction`. Any other editor
// is told a warning or an error in the agent's message instead; an info notice and a compaction
// then go only to the log.

import type { SessionUpdate } from "@agentclientprotocol/sdk";

import type { NodeEvent } from "../../graph/events.js";
import type { AcpClientCapabilities, AcpNotice } from "../editor-bridge.js";
import { textChunk } from "./text-chunk.js";

/** Which of these the editor shows, from what it advertised in `initialize`. */
export interface ShownBeside {
  notices: boolean;
  compaction: boolean;
}

export function shownBeside(capabilities: AcpClientCapabilities): ShownBeside {
  return { notices: Boolean(capabilities.session?.notices), compaction: Boolean(capabilities.session?.compaction) };
}

const LABELS: Record<AcpNotice["severity"], string> = { info: "Note", warning: "Warning", error: "Error" };

/** A `notice` update. ACP wants a title that is not empty; a blank one says how much it matters. */
export function noticeUpdate(notice: AcpNotice): SessionUpdate {
  const update: SessionUpdate = { sessionUpdate: "notice", severity: notice.severity, title: notice.title.trim() || LABELS[notice.severity] };
  if (notice.description) {
    update.description = notice.description;
  }
  return update;
}

/** A notice as the agent's words, for an editor that does not show notices: warnings and errors only. */
export function noticeInWords(notice: AcpNotice): string | undefined {
  if (notice.severity === "info") {
    return undefined;
  }
  const title = notice.title.trim();
  return [`${LABELS[notice.severity]}: ${title || "(no details)"}`, notice.description].filter(Boolean).join("\n") + "\n\n";
}

type BesideEvent = Extract<NodeEvent, { type: "notice" | "compaction" | "compaction-delta" }>;

/** The updates a notice or compaction event makes for an editor that shows `shown`. */
export function besideUpdates(event: BesideEvent, shown: ShownBeside): SessionUpdate[] {
  switch (event.type) {
    case "notice": {
      if (shown.notices) {
        return [noticeUpdate(event)];
      }
      const words = noticeInWords(event);
      return words ? [textChunk(words)] : [];
    }
    case "compaction": {
      if (!shown.compaction) {
        return [];
      }
      const update: SessionUpdate = { sessionUpdate: "compaction_update", compactionId: event.compactionId, status: event.status };
      if (event.summary !== undefined) {
        update.summary = [{ type: "text", text: event.summary }];
      }
      if (event.error !== undefined) {
        update.error = event.error;
      }
      return [update];
    }
    case "compaction-delta":
      return shown.compaction ? [{ sessionUpdate: "compaction_summary_chunk", compactionId: event.compactionId, content: { type: "text", text: event.delta } }] : [];
  }
}
