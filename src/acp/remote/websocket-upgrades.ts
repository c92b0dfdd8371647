// WebSocket upgrades to a remote ACP endpoint: the caller is checked from the upgrade's headers,
// a refused one is answered on the socket, and one let in becomes a connection of its own, which
// takes messages on its socket only. The ws package is loaded on the first upgrade.

import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

import { createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import type { AcpServer as SdkServer } from "@agentclientprotocol/sdk/experimental/server";

import type { EndpointParts } from "./endpoint-parts.js";
import type { HttpHandlers } from "./listen-http.js";
import { refuseUpgrade } from "./refusals.js";

/** The ws package's server, as far as the upgrade handler uses it. */
type NodeWebSocketServer = Parameters<typeof createNodeWebSocketUpgradeHandler>[1] & { close(): void };

/** The endpoint's handler of WebSocket upgrades, and a way to close the WebSocket server it made. */
export function webSocketUpgrades({ sdk, connections, connector, caller, maxRequestBodyBytes, logger }: EndpointParts): { upgrade: HttpHandlers["upgrade"]; close(): void } {
  let sockets: { WebSocketServer: new (options: { noServer: true; maxPayload: number }) => NodeWebSocketServer } | undefined;
  let webSockets: NodeWebSocketServer | undefined;
  const handleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on("error", () => socket.destroy());
    void (async () => {
      const principal = await caller(request);
      if (principal instanceof Response) {
        refuseUpgrade(socket, principal);
        return;
      }
      sockets ??= (await import("ws")) as unknown as typeof sockets;
      // Messages over the limit would close the connection as over its buffer anyway.
      webSockets ??= new sockets!.WebSocketServer({ noServer: true, maxPayload: maxRequestBodyBytes });
      const made = connector(principal);
      const server = {
        prepareWebSocketUpgrade: () => {
          const upgrade = sdk.prepareWebSocketUpgrade({ createAgent: () => made });
          const id = upgrade.connectionId;
          made.opened.id = id;
          connections.open(id, principal.id, "websocket");
          return {
            ...upgrade,
            reject: () => {
              connections.forget(id);
              upgrade.reject();
            },
          };
        },
      };
      createNodeWebSocketUpgradeHandler(server as unknown as SdkServer, webSockets)(request, socket, head);
    })().catch((error: unknown) => {
      logger.error("A WebSocket upgrade failed", { error: String(error) });
      socket.destroy();
    });
  };
  return {
    upgrade: handleUpgrade,
    close: () => webSockets?.close(),
  };
}
