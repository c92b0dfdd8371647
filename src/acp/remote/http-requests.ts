// Streamable HTTP requests to a remote ACP endpoint. The caller is checked from the headers before
// a byte of the body is read, room for the body is set aside in the body budget, and the request
// goes to the SDK's Node handler carrying a ticket that names its principal. Past the handler,
// which reads the body, a gate takes the ticket back and lets the request reach only a connection
// of the caller's own, or open a new one for them.

import { randomUUID } from "node:crypto";

import type { AcpServer as SdkServer } from "@agentclientprotocol/sdk/experimental/server";

import type { Principal } from "../../types/principal.js";
import { acpRequestListener } from "./acp-request-listener.js";
import type { BodyBudget } from "./body-budget.js";
import { PRINCIPAL_TICKET } from "./caller.js";
import type { EndpointParts } from "./endpoint-parts.js";
import type { HttpHandlers, HttpRequest, HttpResponse } from "./listen-http.js";
import { inUse } from "./open-connections.js";
import { refuse } from "./refusals.js";

/** The endpoint's handler of HTTP requests (HTTP/1.1 or HTTP/2), holding bodies to `budget`. */
export function httpRequests({ sdk, connections, connector, caller, maxRequestBodyBytes, logger }: EndpointParts, budget: BodyBudget): HttpHandlers["request"] {
  /** The principals of requests let in and not yet handed to the SDK, by the ticket their request carries. */
  const tickets = new Map<string, Principal>();

  // The SDK's Node adapter reads the body and writes the answer; in between, this sees the request
  // first: whether the connection it names is the caller's, over Streamable HTTP.
  const gate = {
    handleRequest: async (request: Request): Promise<Response> => {
      const ticket = request.headers.get(PRINCIPAL_TICKET) ?? "";
      const principal = tickets.get(ticket);
      tickets.delete(ticket);
      if (!principal) {
        return new Response("This request was not let in.", { status: 500 });
      }
      const connectionId = request.headers.get("acp-connection-id");
      if (connectionId !== null) {
        const connection = connections.get(connectionId);
        // Someone else's connection, or a WebSocket's (which takes messages on its socket only),
        // is answered as one that does not exist.
        if (!connection || connection.owner !== principal.id || connection.transport !== "http") {
          return new Response("Unknown Acp-Connection-Id", { status: 404 });
        }
        return inUse(connection, await sdk.handleRequest(request));
      }
      const made = connector(principal);
      const response = await sdk.handleRequest(request, { createAgent: () => made });
      const id = response.headers.get("acp-connection-id");
      if (id !== null) {
        made.opened.id = id;
        connections.open(id, principal.id, "http");
      }
      return response;
    },
  };
  const sdkRequest = acpRequestListener(gate as unknown as SdkServer, { maxRequestBodyBytes });

  /**
   * Checks the caller from the headers before a byte of the body is read: a refused request is
   * answered and its connection closed (HTTP/1.1) or its stream reset (HTTP/2), its body never
   * held. A request let in sets aside room for its body, then goes to the SDK's handler.
   */
  const admit = async (request: HttpRequest, response: HttpResponse): Promise<void> => {
    const principal = await caller(request);
    if (principal instanceof Response) {
      await refuse(request, response, principal);
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      const declared = Number(request.headers["content-length"]);
      // A body over the limit is refused by the SDK unread; one of unknown length may grow to it.
      const size = Number.isSafeInteger(declared) && declared >= 0 ? (declared > maxRequestBodyBytes ? 0 : declared) : maxRequestBodyBytes;
      const release = budget.reserve(principal.id, size);
      if (!release) {
        logger.warn("Refused a request: too many bodies being read", { principal: principal.id, bytes: size });
        await refuse(request, response, new Response("Too many request bodies are being read for you at once; try again shortly.", { status: 503, headers: { "retry-after": "1" } }));
        return;
      }
      response.once("close", release);
    }
    const ticket = randomUUID();
    tickets.set(ticket, principal);
    response.once("close", () => tickets.delete(ticket));
    request.headers[PRINCIPAL_TICKET] = ticket;
    sdkRequest(request, response);
  };
  return (request, response) => {
    admit(request, response).catch((error: unknown) => {
      logger.error("A request failed before it was read", { error: String(error) });
      if (!response.headersSent) {
        response.statusCode = 500;
      }
      response.end();
    });
  };
}
