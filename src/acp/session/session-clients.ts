// The editors a session is open in. Over stdio that is one, for as long as the agent runs; served
// remotely, a session may be open in several connections at once (two people watching, a laptop
// that reconnected), or in none for a while (a dropped connection) while its turn goes on.
// Updates go to every one; a request (a permission, a form, a file) goes to the one that joined
// last, and when that one goes away before answering it is asked again of the next.

import { type AgentContext, methods, type SendRequestOptions, type SessionNotification, type SessionUpdate } from "@agentclientprotocol/sdk";

import type { AcpClientCapabilities } from "../editor-bridge.js";
import type { LineSink } from "../wire/line-writer.js";

/** What a session's parts ask of the editor: notifications and requests, as the SDK sends them. */
export type SessionClient = Pick<AgentContext, "request" | "notify">;

/** One connection to an editor, as the sessions open in it see it. */
export interface ConnectionLink {
  /** The editor's side of the connection. */
  client: AgentContext;
  /** What the editor said it can do, in `initialize`. */
  capabilities(): AcpClientCapabilities;
  /** Whether the editor shows boolean config options. */
  booleanOptions(): boolean;
  /** The connection's output, for a replay's lines, where it is a stream of lines. */
  lines?: LineSink | undefined;
  /** Aborts when the connection ends. */
  signal: AbortSignal;
}

interface Asking {
  /** The connection asked now. */
  link: ConnectionLink;
  /** Withdraws the request from it, to ask the next one instead. */
  withdraw(): void;
}

export class SessionClients implements SessionClient {
  private readonly links: ConnectionLink[] = [];
  private readonly waiting = new Set<() => void>();
  private readonly asking = new Set<Asking>();
  /**
   * The updates of the turn going on, for a connection that joins during it; undefined between
   * turns, and always when none can join (over stdio).
   */
  private turnUpdates: SessionUpdate[] | undefined;

  constructor(
    private readonly sessionId: string,
    /**
     * Whether a request waits for a connection while the session is open in none (served
     * remotely, where one may come back); otherwise it fails as the connection went away.
     */
    private readonly waitForConnection: boolean,
  ) {}

  /** How many connections the session is open in. */
  get size(): number {
    return this.links.length;
  }

  has(link: ConnectionLink): boolean {
    return this.links.includes(link);
  }

  /**
   * Opens the session in a connection too; it is asked what the session asks from now on, and a
   * request another connection has not answered yet is asked of it instead.
   */
  attach(link: ConnectionLink): void {
    if (link.signal.aborted) {
      return;
    }
    this.remove(link);
    this.links.push(link);
    for (const asking of [...this.asking]) {
      if (asking.link !== link) {
        asking.withdraw();
      }
    }
    for (const wake of [...this.waiting]) {
      wake();
    }
  }

  /** The session is no longer open in a connection. */
  detach(link: ConnectionLink): void {
    this.remove(link);
    for (const asking of [...this.asking]) {
      if (asking.link === link) {
        asking.withdraw();
      }
    }
  }

  /** What the editor asked last can do (nothing, while none has the session open). */
  capabilities(): AcpClientCapabilities {
    return this.current()?.capabilities() ?? {};
  }

  booleanOptions(): boolean {
    return this.current()?.booleanOptions() ?? false;
  }

  /**
   * From now until `endTurn()`, updates are kept for a connection that joins during the turn,
   * starting with the turn's prompt, which is sent to every connection that has not `seen` it.
   */
  beginTurn(prompt: readonly SessionUpdate[], seen: (link: ConnectionLink) => boolean): void {
    // Over stdio no connection can join, so nothing is kept.
    this.turnUpdates = this.waitForConnection ? [...prompt] : undefined;
    for (const link of this.links) {
      if (!seen(link)) {
        for (const update of prompt) {
          void link.client.notify(methods.client.session.update, { sessionId: this.sessionId, update }).catch(() => undefined);
        }
      }
    }
  }

  endTurn(): void {
    this.turnUpdates = undefined;
  }

  /** The updates the turn going on has sent so far, or undefined between turns (and over stdio). */
  turnSoFar(): readonly SessionUpdate[] | undefined {
    return this.turnUpdates;
  }

  notify(method: string, params?: unknown): Promise<void> {
    if (method === methods.client.session.update) {
      const { update } = params as SessionNotification;
      this.turnUpdates?.push(update);
    }
    // One connection is the rule (always, over stdio): no array of promises for each chunk then.
    if (this.links.length === 1) {
      return (this.links[0] as ConnectionLink).client.notify(method, params).catch(() => undefined);
    }
    return Promise.all(this.links.map((link) => link.client.notify(method, params).catch(() => undefined))).then(() => undefined);
  }

  request(method: string, params?: unknown, options?: SendRequestOptions): Promise<never> {
    return this.ask(method, params, options) as Promise<never>;
  }

  private async ask(method: string, params: unknown, options: SendRequestOptions | undefined): Promise<unknown> {
    const signal = options?.cancellationSignal;
    for (;;) {
      signal?.throwIfAborted();
      const link = this.current() ?? (this.waitForConnection ? await this.nextLink(signal) : undefined);
      if (!link) {
        throw new Error("The editor's connection closed before it answered.");
      }
      const attempt = new AbortController();
      const stop = () => attempt.abort(signal?.reason);
      signal?.addEventListener("abort", stop, { once: true });
      let withdrawn = false;
      const asking: Asking = {
        link,
        withdraw: () => {
          withdrawn = true;
          attempt.abort(new Error("asked of another connection"));
        },
      };
      this.asking.add(asking);
      try {
        return await link.client.request(method, params, { ...options, cancellationSignal: attempt.signal, stopWaitingOnCancel: true });
      } catch (error) {
        // The editor answered, or the person cancelled: that is the answer. A connection that went
        // away, or one another took over from, is not: ask again.
        if (signal?.aborted || !(withdrawn || link.signal.aborted)) {
          throw error;
        }
        if (link.signal.aborted) {
          this.remove(link);
        }
      } finally {
        this.asking.delete(asking);
        signal?.removeEventListener("abort", stop);
      }
    }
  }

  /** The connection asked now: the one that joined last and is still there. */
  private current(): ConnectionLink | undefined {
    for (let index = this.links.length - 1; index >= 0; index--) {
      const link = this.links[index];
      if (link && !link.signal.aborted) {
        return link;
      }
    }
    return undefined;
  }

  private nextLink(signal: AbortSignal | undefined): Promise<ConnectionLink> {
    return new Promise((resolve, reject) => {
      const wake = () => {
        const link = this.current();
        if (link) {
          done();
          resolve(link);
        }
      };
      const abort = () => {
        done();
        reject(signal?.reason);
      };
      const done = () => {
        this.waiting.delete(wake);
        signal?.removeEventListener("abort", abort);
      };
      this.waiting.add(wake);
      signal?.addEventListener("abort", abort, { once: true });
    });
  }

  private remove(link: ConnectionLink): void {
    const index = this.links.indexOf(link);
    if (index >= 0) {
      this.links.splice(index, 1);
    }
  }
}
