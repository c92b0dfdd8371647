// What the editor tools need from the bridge: the session's directories (and the bounds they are
// held in when served remotely), what the editor can do, a way to ask it, and the output limits an
// integrator set.

import type { ClientRequestMethod, ClientRequestParamsByMethod, ClientRequestResponsesByMethod } from "@agentclientprotocol/sdk";

import { WeftError } from "../../errors/weft-error.js";
import type { AcpConnection } from "../editor-bridge.js";
import type { AcpSessionInfo } from "../record/session-store.js";
import { EditorRequestError } from "./editor-request-error.js";
import { realPlace, type ResolvedPath, resolvePath, withinAny } from "../../files/session-paths.js";

export interface EditorLimits {
  /** The most characters of a tool's output the model sees (head and tail are kept). Default 40,000. */
  modelChars: number;
  /** The most bytes of a command's output kept (and asked of an editor terminal). Default 1 MiB. */
  commandOutputBytes: number;
  /** How long a command may run before it is stopped, in ms. Default 10 minutes; a call may ask for less. */
  commandTimeoutMs: number;
  /** The most entries a listing or a search returns. Default 500. */
  maxEntries: number;
}

export const DEFAULT_LIMITS: EditorLimits = {
  modelChars: 40_000,
  commandOutputBytes: 1024 * 1024,
  commandTimeoutMs: 10 * 60_000,
  maxEntries: 500,
};

export class EditorAccess {
  connection: AcpConnection | undefined;

  constructor(readonly limits: EditorLimits) {}

  /** The session's directory; tools run only inside a session. */
  cwd(sessionId: string): string {
    return this.session(sessionId).cwd;
  }

  /** The directories the session's files may be in: its own first (the base of relative paths), then its others. */
  roots(sessionId: string): string[] {
    const session = this.session(sessionId);
    return [session.cwd, ...(session.additionalDirectories ?? [])];
  }

  /**
   * The directories the session's paths must stay inside whatever its own lead to (the server's
   * roots for the person it is for, when served remotely); undefined over stdio.
   */
  bounds(sessionId: string): readonly string[] | undefined {
    this.session(sessionId);
    return this.connection?.bounds?.(sessionId);
  }

  /** Where a path a tool was given really leads: inside the session's directories and its bounds (see resolvePath). */
  resolve(sessionId: string, path: string): Promise<ResolvedPath> {
    return resolvePath(this.roots(sessionId), path, this.bounds(sessionId));
  }

  /**
   * The directory a command runs in: the session's own, or, when the session has bounds, the real
   * place it leads to, refused (a PathOutsideError) when that is outside them.
   */
  async commandCwd(sessionId: string): Promise<string> {
    const bounds = this.bounds(sessionId);
    if (!bounds) {
      return this.cwd(sessionId);
    }
    return (await resolvePath(this.roots(sessionId), this.cwd(sessionId), bounds)).real;
  }

  /**
   * The session's directories a confined command may write in: each at the real place it leads
   * to, and, when the session has bounds, only those still inside them (a directory swapped for a
   * link out is left out, so a sandbox never binds the place it leads to).
   */
  async writableRoots(sessionId: string): Promise<string[]> {
    const bounds = this.bounds(sessionId);
    const real = await Promise.all(this.roots(sessionId).map(realPlace));
    if (!bounds) {
      return real;
    }
    const realBounds = await Promise.all(bounds.map(realPlace));
    return real.filter((place) => withinAny(realBounds, place));
  }

  private session(sessionId: string): AcpSessionInfo {
    const session = this.connection?.session(sessionId);
    if (!session) {
      throw new WeftError("no_session", `No editor session ${sessionId} is open.`);
    }
    return session;
  }

  canRead(): boolean {
    return Boolean(this.connection?.capabilities().fs?.readTextFile);
  }

  canWrite(): boolean {
    return Boolean(this.connection?.capabilities().fs?.writeTextFile);
  }

  hasTerminal(): boolean {
    return Boolean(this.connection?.capabilities().terminal);
  }

  /**
   * Asks the editor one of ACP's methods, with the SDK's params and answer for it. When it answers
   * with a JSON-RPC error, this rejects with an EditorRequestError that carries the editor's
   * message and details (bounded), which is what a tool's error then tells the model.
   */
  async request<Method extends ClientRequestMethod>(method: Method, params: ClientRequestParamsByMethod[Method], signal?: AbortSignal): Promise<ClientRequestResponsesByMethod[Method]> {
    if (!this.connection) {
      throw new WeftError("not_attached", "The editor bridge is not attached to a connection.");
    }
    try {
      return await this.connection.request(method, params, signal);
    } catch (error) {
      throw EditorRequestError.from(method, error);
    }
  }
}
