// A TCP proxy on 127.0.0.1 that a test can cut and restore, to make a real server unreachable for
// a while without stopping it; or stall, to make it silent as in a network partition.

import { createConnection, createServer, type Server, type Socket } from "node:net";

interface Pair {
  client: Socket;
  upstream: Socket;
}

export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<Pair>();
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Starts listening (on the same port as before, after a cut). */
  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      const pair = { client, upstream };
      this.pairs.add(pair);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => {
          this.sockets.delete(socket);
          this.pairs.delete(pair);
        });
        socket.on("error", () => socket.destroy());
      }
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      if (this.stalled) {
        client.pause();
        upstream.pause();
      } else {
        forward(pair);
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Refuses new connections and breaks the open ones. */
  async down(): Promise<void> {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    const server = this.server;
    this.server = undefined;
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /**
   * Stops forwarding in both directions, keeping every connection open and accepting new ones
   * that go nowhere: the server goes silent, as in a network partition. What is sent meanwhile
   * waits in the proxy and is delivered on `resume()`, as a healed network would.
   */
  stall(): void {
    this.stalled = true;
    for (const pair of this.pairs) {
      pair.client.unpipe(pair.upstream);
      pair.upstream.unpipe(pair.client);
      pair.client.pause();
      pair.upstream.pause();
    }
  }

  /** Forwards again after `stall()`, what waited first. */
  resume(): void {
    this.stalled = false;
    for (const pair of this.pairs) {
      forward(pair);
    }
  }
}

function forward({ client, upstream }: Pair): void {
  client.pipe(upstream);
  upstream.pipe(client);
}
