// What the request and upgrade handlers of one remote ACP endpoint share: the SDK's server, the
// connections open now, how the agent side of a new connection is made, and who is calling.

import type { AgentFactory, AcpServer as SdkServer } from "@agentclientprotocol/sdk/experimental/server";

import type { Logger } from "../../types/logger.js";
import type { Principal } from "../../types/principal.js";
import type { HttpRequest } from "./listen-http.js";
import type { OpenConnections } from "./open-connections.js";

/** The agent side of one new connection, and the id the SDK gave the connection once it is known. */
export type AgentSide = ReturnType<AgentFactory> & { opened: { id?: string | undefined } };

export interface EndpointParts {
  sdk: SdkServer;
  connections: OpenConnections;
  /** The agent side of one new connection, answering for `principal`. */
  connector: (principal: Principal) => AgentSide;
  /** Who is calling, from the request's headers alone, or the answer that refuses them (see whoCalls). */
  caller: (request: HttpRequest) => Promise<Principal | Response>;
  /** The largest request body read, and the largest WebSocket message, in bytes. */
  maxRequestBodyBytes: number;
  logger: Logger;
}
