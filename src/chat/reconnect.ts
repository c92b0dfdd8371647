// A remote agent's dropped connection, opened again: a new link, initialize, and session/load of the
// open session, a few times before giving up. The reload's replay is kept rather than shown, and of
// the turn the drop cut off the chat shows what the person has not seen yet.

import type * as acp from "@agentclientprotocol/sdk";

import type { ChatConnection } from "./chat-connection.js";
import type { ChatSession } from "./chat-session.js";
import type { ChatView } from "./chat-view.js";
import { delay } from "./delay.js";
import { SeenUpdates } from "./seen-updates.js";
import { errorMessage } from "../errors/error-message.js";

/** What was shown as it came, and a reconnect's replay, from which the rest of a cut turn is shown. */
export class ReloadReplay {
  private readonly seen = new SeenUpdates();
  private replayed: acp.SessionUpdate[] = [];

  /** Notes an update shown as it came. */
  shown(update: acp.SessionUpdate): void {
    this.seen.note(update);
  }

  /** Keeps an update of a reconnect's replay: mostly what the person has seen. */
  keep(update: acp.SessionUpdate): void {
    this.replayed.push(update);
  }

  /** Forgets the replay kept so far (a new attempt replays from the start). */
  restart(): void {
    this.replayed = [];
  }

  /** The turn the drop cut off, as the server carried it on: what the person has not seen of it. The replay is forgotten. */
  unseen(): acp.SessionUpdate[] {
    const rest = this.seen.restOfLastTurn(this.replayed);
    this.replayed = [];
    return rest;
  }
}

export interface Reconnecting {
  connection: ChatConnection;
  /** What chat said in its first initialize, said again. */
  initialize: acp.InitializeRequest;
  cwd: string;
  session: ChatSession;
  view: Pick<ChatView, "write" | "style" | "renderer">;
  replay: ReloadReplay;
}

/** Opens the dropped connection again, saying so either way; false when it could not. */
export async function reconnect({ connection, initialize, cwd, session, view, replay }: Reconnecting): Promise<boolean> {
  const { write, style, renderer } = view;
  write(style.dim(`(${(await connection.ended).replace(/\.$/, "")}; reconnecting…)\n`));
  session.forgetUnfinished();
  for (let attempt = 1; ; attempt++) {
    try {
      replay.restart();
      await connection.reconnect(initialize, session.id === undefined ? undefined : { sessionId: session.id, cwd });
      write(style.dim(`(reconnected${session.id === undefined ? "" : `; session ${session.id} reloaded`})\n`));
      for (const update of replay.unseen()) {
        renderer.render(update);
      }
      renderer.breakLine();
      return true;
    } catch (error) {
      if (attempt === 3) {
        write(style.red(`weft chat: could not reconnect: ${errorMessage(error)}\n`));
        return false;
      }
      await delay(attempt * 1_000);
    }
  }
}
