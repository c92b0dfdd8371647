// A remote agent for `weft chat --url`: the SDK's client transports (Streamable HTTP for http(s)://,
// WebSocket for ws(s)://), watched so that a refused, failed or dropped connection ends the link
// with a sentence saying why (connection-failure.ts), and tapped for `--format json`.

import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream, type WebSocketConstructor } from "@agentclientprotocol/sdk/experimental/ws-client";
import type * as acp from "@agentclientprotocol/sdk";

import type { AgentLink, AgentLinkOptions, RemoteAgentTarget } from "./agent-link.js";
import { connectionFailure } from "./connection-failure.js";

type Message = acp.AnyMessage;

/** Connects to the agent at `target.url`; the connection is made by the first message (initialize). */
export async function connectRemoteAgent(target: RemoteAgentTarget, options: AgentLinkOptions): Promise<AgentLink> {
  const url = target.url;
  const webSocket = url.protocol === "ws:" || url.protocol === "wss:";
  /** How the server closed a WebSocket, for the message when it did so without an error. */
  let closedWith: { code: number; reason: string } | undefined;
  let inner: acp.Stream;
  if (webSocket) {
    // Node 20 has no WebSocket of its own; ws loads only for a ws(s):// URL.
    const { WebSocket } = await import("ws");
    class WatchedWebSocket extends WebSocket {
      constructor(address: string, protocols?: string | string[], init?: { headers?: Record<string, string> }) {
        super(address, protocols, init);
        this.on("close", (code: number, reason: Buffer) => {
          closedWith = { code, reason: reason.toString("utf8") };
        });
      }
    }
    inner = createWebSocketStream(url.href, { WebSocket: WatchedWebSocket as unknown as WebSocketConstructor, headers: target.headers, cookieStore: target.cookieStore });
  } else {
    inner = createHttpStream(url.href, { headers: target.headers, cookieStore: target.cookieStore });
  }

  let connected = false;
  let closing = false;
  let gone = false;
  let end!: (message: string) => void;
  const ended = new Promise<string>((resolve) => {
    end = (message) => {
      if (!gone) {
        gone = true;
        resolve(message);
      }
    };
  });
  const failed = (error: unknown) => end(closing ? "The connection was closed." : connectionFailure(error, url, connected));
  const closedByServer = () => {
    if (closing) {
      end("The connection was closed.");
    } else if (closedWith && closedWith.code !== 1000 && closedWith.code !== 1005) {
      end(`The server closed the connection (WebSocket close ${closedWith.code}${closedWith.reason ? `: ${closedWith.reason}` : ""}).`);
    } else {
      end("The server closed the connection.");
    }
  };

  const reader = inner.readable.getReader();
  const readable = new ReadableStream<Message>({
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        failed(error);
        controller.error(error);
        return;
      }
      if (next.done) {
        closedByServer();
        controller.close();
        return;
      }
      connected = true;
      options.fromAgent?.(JSON.stringify(next.value));
      controller.enqueue(next.value);
    },
    cancel: async (reason) => {
      closing = true;
      await reader.cancel(reason).catch(() => undefined);
    },
  });
  const writer = inner.writable.getWriter();
  const writable = new WritableStream<Message>({
    async write(message) {
      options.toAgent?.(JSON.stringify(message));
      try {
        await writer.write(message);
      } catch (error) {
        failed(error);
        throw error;
      }
    },
    close: () => close(),
    abort: () => close(),
  });

  let closed: Promise<void> | undefined;
  const close = (graceMs = 3_000): Promise<void> => {
    closing = true;
    closed ??= Promise.race([writer.close().catch(() => undefined), delay(graceMs)]).then(() => {
      end("The connection was closed.");
    });
    return closed;
  };

  return {
    stream: { readable, writable },
    label: url.host,
    ended,
    get gone() {
      return gone;
    },
    close,
  };
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds).unref());
}
