// A tool call the editor was never shown, shown before the person is asked about it: a turn carried
// on after a crash may ask about a call its record missed, and what follows needs a call to update.

import { toolCallUpdate, type UpdateContext } from "../mapping/updates.js";
import type { UpdateSink } from "../session/update-sink.js";
import type { LiveToolCalls } from "./live-tool-calls.js";

/** What announcing a call works with. */
export interface AnnounceInputs {
  /** How tool calls look in this session's updates, and which the editor was shown. */
  view: UpdateContext;
  updates: Pick<UpdateSink, "send">;
}

/** Announces the call `toolCallId` as pending unless the editor was shown it; `live` notes how it was shown. */
export async function announceUnseen(inputs: AnnounceInputs, live: LiveToolCalls, toolCallId: string, toolName: string, input: unknown): Promise<void> {
  const { view, updates } = inputs;
  if (view.ids.has(toolCallId)) {
    return;
  }
  const announced = toolCallUpdate(view, view.ids.allocate(toolCallId), toolName, input, "pending");
  live.noteUpdate(announced);
  await updates.send(announced);
}
