// The registry of the sessions open now in one server, and of the connections open to it: which
// connection a session is open in, and when a session is let go (its connection ended over stdio,
// or, served remotely, it is open nowhere and no turn runs).

import type { AcpEditorBridge } from "../editor-bridge.js";
import { SessionNotFoundError } from "../errors/session-errors.js";
import type { ConnectionLink } from "../session/session-clients.js";
import type { LiveSession } from "./live-session.js";

export class OpenSessions {
  private readonly sessions = new Map<string, LiveSession>();
  /** The connections open now, the newest last. */
  private readonly links: ConnectionLink[] = [];

  constructor(
    /** Served remotely: sessions outlive their connections. */
    private readonly shared: boolean,
    private readonly editor: AcpEditorBridge | undefined,
  ) {}

  get(sessionId: string): LiveSession | undefined {
    return this.sessions.get(sessionId);
  }

  add(session: LiveSession): void {
    this.sessions.set(session.id, session);
  }

  /** Lets go of a session at once (the editor bridge is told by the caller, where it should be). */
  remove(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  values(): IterableIterator<LiveSession> {
    return this.sessions.values();
  }

  /** A session open now, or "not found". */
  live(sessionId: string): LiveSession {
    const session = this.sessions.get(sessionId);
    if (!session) {
      throw new SessionNotFoundError(sessionId);
    }
    return session;
  }

  /** A session open in `link`, or "not found". */
  liveIn(sessionId: string, link: ConnectionLink): LiveSession {
    const session = this.sessions.get(sessionId);
    if (!session || !session.clients.has(link)) {
      throw new SessionNotFoundError(sessionId);
    }
    return session;
  }

  /** The connection opened last, for requests about no open session. */
  latest(): ConnectionLink | undefined {
    return this.links[this.links.length - 1];
  }

  connected(link: ConnectionLink): void {
    this.links.push(link);
  }

  /** A connection ended: its sessions are no longer open in it, and over stdio they stop. */
  disconnected(link: ConnectionLink): void {
    this.links.splice(this.links.indexOf(link), 1);
    for (const [id, session] of this.sessions) {
      if (!session.clients.has(link)) {
        continue;
      }
      session.clients.detach(link);
      if (!this.shared) {
        session.cancel();
      } else {
        this.forgetIfIdle(id);
      }
    }
  }

  /** Lets go of a session served remotely once it is open nowhere and no turn runs; its record stays. */
  forgetIfIdle(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (this.shared && session && session.clients.size === 0 && !session.busy) {
      this.sessions.delete(sessionId);
      void this.editor?.closeSession?.(sessionId);
    }
  }
}
