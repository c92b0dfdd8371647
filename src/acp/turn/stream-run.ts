// A turn's run, streamed: each event becomes the updates the editor sees, the usage and the log
// take what they need from it, and at each checkpoint the messages the step finished join the
// conversation and are written, so a crash after it loses none of them.

import type { ProtocolRun } from "../../graph/protocol-graph.js";
import type { Logger } from "../../types/logger.js";
import { eventUpdates, type UpdateContext } from "../mapping/updates.js";
import type { StoredSession } from "../session/stored-session.js";
import type { UpdateSink } from "../session/update-sink.js";
import type { SessionUsage } from "../surface/session-usage.js";
import type { LiveToolCalls } from "./live-tool-calls.js";
import type { Transcript } from "./transcript.js";

/** What streaming a run works with. */
export interface StreamInputs {
  /** Keeps the messages each step finished, and writes them. */
  session: Pick<StoredSession, "id" | "addMessages" | "persist">;
  updates: Pick<UpdateSink, "send">;
  /** The messages of the run so far, as events finish them. */
  transcript: Pick<Transcript, "observe" | "take">;
  /** How tool calls look in this session's updates. */
  view: UpdateContext;
  usage: Pick<SessionUsage, "observe">;
  logger: Logger;
}

/**
 * Forwards a run's events as updates (noting in `live` how each tool call was shown) and keeps the
 * conversation as each step becomes durable. Waits on the updates' write window now and then.
 */
export async function streamRun(run: ProtocolRun, inputs: StreamInputs, live: LiveToolCalls): Promise<void> {
  const { session, updates, transcript, view, usage, logger } = inputs;
  for await (const event of run) {
    for (const update of eventUpdates(event, view)) {
      live.noteUpdate(update);
      const written = updates.send(update);
      if (written) {
        await written;
      }
    }
    if (event.type === "notice") {
      logger.info("Notice", { sessionId: session.id, severity: event.severity, title: event.title, description: event.description });
    } else if (event.type === "compaction") {
      logger.info("Compaction", { sessionId: session.id, compactionId: event.compactionId, status: event.status, error: event.error });
    }
    usage.observe(event);
    transcript.observe(event);
    if (event.type === "checkpoint") {
      const finished = live.dress(transcript.take(event.status !== "interrupted"), view.ids);
      if (finished.length > 0) {
        session.addMessages(finished);
        session.persist().catch(() => undefined);
      }
    }
  }
}
