// A tiny ACP agent served remotely by the SDK's own server transport (Streamable HTTP and
// WebSocket at /acp on 127.0.0.1:0), behind a bearer-token check, for tests of `weft chat --url`.
// Its agent answers a prompt with "You said: <prompt>."; a prompt "read <path>" first reads that
// file through the client's fs (what a remote agent does to see the person's files); "drop" cuts
// every open connection mid-turn, for tests of reconnecting. A connection opened without a cookie
// is given the affinity cookie `weft-affinity=server-1`, as a load balancer would.

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

import * as acp from "@agentclientprotocol/sdk";
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { WebSocketServer } from "ws";

export class RemoteAcpServer {
  private constructor(
    /** Every session/new, session/load and session/prompt the agent was sent, in order. */
    readonly calls: string[],
    /** The Cookie header ("" for none) of each connection opened (an initialize POST or a WebSocket upgrade). */
    readonly openedWithCookies: string[],
    private readonly sockets: Set<Socket>,
    private readonly server: Server,
    private readonly acpServer: AcpServer,
    private readonly webSockets: WebSocketServer,
    readonly token: string,
  ) {
  }

  /** Serves the agent; requests without `Authorization: Bearer <token>` get 401. */
  static async start(token: string): Promise<RemoteAcpServer> {
    const calls: string[] = [];
    const openedWithCookies: string[] = [];
    const affinity = (request: IncomingMessage): string | undefined => {
      openedWithCookies.push(request.headers.cookie ?? "");
      return request.headers.cookie ? undefined : "weft-affinity=server-1; Path=/; HttpOnly";
    };
    const sockets = new Set<Socket>();
    const drop = () => {
      for (const socket of sockets) {
        socket.destroy();
      }
    };
    const acpServer = new AcpServer({ createAgent: () => testAgent((call) => calls.push(call), drop) });
    const webSockets = new WebSocketServer({ noServer: true });
    const handleHttp = createNodeHttpHandler(acpServer);
    const handleUpgrade = createNodeWebSocketUpgradeHandler(acpServer, webSockets);
    const allowed = (request: IncomingMessage) => request.headers.authorization === `Bearer ${token}`;
    const atEndpoint = (request: IncomingMessage) => new URL(request.url ?? "/", "http://127.0.0.1").pathname === "/acp";
    const server = createServer((request, response) => {
      if (!atEndpoint(request)) {
        response.writeHead(404).end("not found");
      } else if (!allowed(request)) {
        response.writeHead(401, { "WWW-Authenticate": "Bearer" }).end("unauthorized");
      } else {
        if (request.method === "POST" && request.headers["acp-connection-id"] === undefined) {
          const cookie = affinity(request);
          if (cookie) {
            response.setHeader("Set-Cookie", cookie);
          }
        }
        handleHttp(request, response);
      }
    });
    webSockets.on("headers", (headers: string[], request: IncomingMessage) => {
      const cookie = affinity(request);
      if (cookie) {
        headers.push(`Set-Cookie: ${cookie}`);
      }
    });
    server.on("upgrade", (request: IncomingMessage, socket: Socket, head: Buffer) => {
      if (!atEndpoint(request)) {
        socket.end("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
      } else if (!allowed(request)) {
        socket.end("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 0\r\n\r\n");
      } else {
        handleUpgrade(request, socket, head);
      }
    });
    server.on("connection", (socket: Socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return new RemoteAcpServer(calls, openedWithCookies, sockets, server, acpServer, webSockets, token);
  }

  /** The endpoint, as `http` or `ws`. */
  url(scheme: "http" | "ws" = "http"): string {
    return `${scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}/acp`;
  }

  /** Cuts every open TCP connection, as a network drop would. */
  dropConnections(): void {
    for (const socket of this.sockets) {
      socket.destroy();
    }
  }

  async close(): Promise<void> {
    this.dropConnections();
    await this.acpServer.close();
    this.webSockets.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The agent behind the server: one per connection; its sessions live as long as the process. */
const sessions = new Set<string>();

function testAgent(record: (call: string) => void, drop: () => void): acp.AgentApp {
  return acp
    .agent({ name: "remote-test-agent" })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentInfo: { name: "remote-test-agent", version: "1.0.0" },
      agentCapabilities: { loadSession: true },
    }))
    .onRequest(acp.methods.agent.session.new, () => {
      const sessionId = `sess_${sessions.size + 1}_${Math.random().toString(36).slice(2, 8)}`;
      sessions.add(sessionId);
      record(`new ${sessionId}`);
      return { sessionId };
    })
    .onRequest(acp.methods.agent.session.load, ({ params }) => {
      record(`load ${params.sessionId}`);
      if (!sessions.has(params.sessionId)) {
        throw acp.RequestError.resourceNotFound(params.sessionId);
      }
      return {};
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
      record(`prompt ${params.sessionId} ${text}`);
      const say = (chunk: string) =>
        client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: chunk } } });
      const read = /^read (\S+)/.exec(text.trim());
      if (read?.[1]) {
        const file = await client.request(acp.methods.client.fs.readTextFile, { sessionId: params.sessionId, path: read[1] });
        await say(`The file says: ${file.content.trim()}`);
        return { stopReason: "end_turn" };
      }
      if (text.trim() === "drop") {
        await say("Dropping");
        drop();
        return { stopReason: "end_turn" };
      }
      await say("You said: ");
      await say(`${text.trim()}.`);
      return { stopReason: "end_turn" };
    });
}
