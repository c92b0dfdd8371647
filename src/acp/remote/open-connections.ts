// The connections a remote ACP endpoint has open, by their Acp-Connection-Id: whose each is, over
// which transport, and (for Streamable HTTP) when it was last used and how many streams it holds
// open. An id not here, or not the caller's, names no connection. A Streamable HTTP connection
// left idle too long is let go: its client is gone (a laptop that slept, a network that dropped).

/** One open connection: whose, over which transport, and (for Streamable HTTP) when last used. */
export interface OpenConnection {
  owner: string;
  transport: "http" | "websocket";
  lastSeen: number;
  streams: number;
}

export class OpenConnections {
  private readonly byId = new Map<string, OpenConnection>();
  private readonly sweep: ReturnType<typeof setInterval>;

  /**
   * Looks for Streamable HTTP connections with no request or open stream for longer than
   * `idleMs`; each one found is forgotten here, then handed to `closeIdle`.
   */
  constructor(idleMs: number, closeIdle: (id: string, connection: OpenConnection) => void) {
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const [id, connection] of this.byId) {
        if (connection.transport === "http" && connection.streams === 0 && now - connection.lastSeen > idleMs) {
          this.byId.delete(id);
          closeIdle(id, connection);
        }
      }
    }, Math.max(10, Math.min(idleMs / 2, 10_000)));
    this.sweep.unref();
  }

  get(id: string): OpenConnection | undefined {
    return this.byId.get(id);
  }

  /** Keeps a connection the SDK has just opened for `owner`, used now. */
  open(id: string, owner: string, transport: OpenConnection["transport"]): void {
    this.byId.set(id, { owner, transport, lastSeen: Date.now(), streams: 0 });
  }

  forget(id: string): void {
    this.byId.delete(id);
  }

  /** Stops looking for idle connections. */
  stop(): void {
    clearInterval(this.sweep);
  }
}

/** Marks a connection used now, and while `response` streams (an SSE stream stays open for as long as its client reads it). */
export function inUse(connection: OpenConnection, response: Response): Response {
  connection.lastSeen = Date.now();
  if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    return response;
  }
  connection.streams++;
  let open = true;
  const ended = () => {
    if (open) {
      open = false;
      connection.streams--;
      connection.lastSeen = Date.now();
    }
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        const { done, value } = await reader.read();
        if (done) {
          ended();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        ended();
        controller.error(error);
      }
    },
    cancel: (reason) => {
      ended();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
