// What one connection knows about itself, which its method handlers share: who is calling, how the
// agent is served, what the editor said in `initialize`, and the link its sessions are open through.
// The handlers take it as a value instead of closing over `let`s.

import type * as acp from "@agentclientprotocol/sdk";

import type { Principal } from "../../types/principal.js";
import type { AcpClientCapabilities } from "../editor-bridge.js";
import { SessionNotFoundError } from "../errors/session-errors.js";
import type { AcpSessionInfo } from "../record/session-store.js";
import type { ConnectionLink } from "../session/session-clients.js";
import type { LineSink } from "../wire/line-writer.js";
import { checkInRoots } from "./check-in-roots.js";

/** How the agent is served: to one editor over stdio, or to many people remotely. */
export interface AcpServing {
  /**
   * Sessions outlive the connection that opened them, and belong to the principal who started
   * them: another is told they do not exist. Otherwise (stdio) a connection's end stops its sessions.
   */
  shared: boolean;
  /**
   * The directories a principal's sessions are kept in (served remotely): a session's `cwd` and
   * other directories must really lead inside one when it opens, and every path its tools resolve
   * must stay inside one, wherever its directories lead by then. None over stdio.
   */
  roots?: ((principal: Principal | undefined) => readonly string[]) | undefined;
}

/** One connection's side: who is calling, and how to write a replay's lines to it. */
export interface AcpCaller {
  principal?: Principal | undefined;
  lines?: LineSink | undefined;
}

export class ConnectionState {
  /** What the editor said it can do, in `initialize` (less what a remote agent may not use). */
  capabilities: AcpClientCapabilities = {};
  /** Whether the editor shows boolean config options. */
  booleanOptions = false;
  /** The sign-in methods the editor was listed in its `initialize`. */
  listedAuth: acp.AuthMethod[] = [];
  /** Whose sessions this connection sees, when they belong to someone (served remotely). */
  readonly owner: string | undefined;
  private connected: ConnectionLink | undefined;

  constructor(
    readonly serving: AcpServing,
    readonly principal: Principal | undefined,
    readonly lines: LineSink | undefined,
  ) {
    this.owner = serving.shared ? principal?.id : undefined;
  }

  /** The link to the editor; set once the connection is made, before any message is read. */
  get link(): ConnectionLink {
    if (!this.connected) {
      throw new Error("The connection is not made yet.");
    }
    return this.connected;
  }

  set link(link: ConnectionLink) {
    this.connected = link;
  }

  /** Throws "not found" for a session that is not this principal's, so that it cannot tell one exists. */
  checkOwner(sessionId: string, info: AcpSessionInfo): void {
    if (this.serving.shared && info.owner !== this.owner) {
      throw new SessionNotFoundError(sessionId);
    }
  }

  /** Checks that a session's directories lead inside the caller's roots, where it has any. */
  async checkDirectories(cwd: string, directories: readonly string[] | undefined): Promise<void> {
    const roots = this.serving.roots?.(this.principal);
    if (roots) {
      await checkInRoots([cwd, ...(directories ?? [])], roots);
    }
  }
}
