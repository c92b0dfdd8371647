// The SDK's Node request handler for the ACP endpoint, made to take HTTP/2 requests too. The SDK
// writes it for `http.IncomingMessage`; an HTTP/2 compatibility request differs in two ways that
// break it, both handled here.

import type { IncomingMessage, ServerResponse } from "node:http";
import { Http2ServerRequest, type Http2ServerResponse } from "node:http2";

import { createNodeHttpHandler, type NodeHttpHandlerOptions } from "@agentclientprotocol/sdk/experimental/node";
import type { AcpServer } from "@agentclientprotocol/sdk/experimental/server";

import type { HttpHandlers, HttpRequest, HttpResponse } from "./listen-http.js";

/** Headers that belong to one HTTP/1.1 connection, which HTTP/2 forbids (RFC 9113 §8.2.2). */
const CONNECTION_HEADERS = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]);

/**
 * Answers ACP requests of either protocol through `server`, for {@link HttpHandlers.request}.
 * HTTP/1.1 requests go to the SDK's handler as they are; HTTP/2 ones are first given the shape it
 * expects (see {@link asHttp1Shaped}).
 */
export function acpRequestListener(server: AcpServer, options: NodeHttpHandlerOptions = {}): HttpHandlers["request"] {
  const handle = createNodeHttpHandler(server, options);
  return (request: HttpRequest, response: HttpResponse) => {
    if (request instanceof Http2ServerRequest) {
      const shaped = asHttp1Shaped(request, response as Http2ServerResponse);
      handle(shaped.request, shaped.response);
    } else {
      handle(request, response as ServerResponse);
    }
  };
}

/**
 * Gives an HTTP/2 compatibility request and response what the SDK's handler reads of an HTTP/1.1
 * pair, in place:
 * - `request.headers` without the pseudo-headers (`:method`, `:path` …), which are not valid
 *   header names for a web `Headers` (the SDK would answer every request 500), and with `host`
 *   taken from `:authority`, which HTTP/2 sends instead;
 * - `response.destroyed`, which the SDK checks before each write and the HTTP/2 response lacks,
 *   so that it stops writing to a stream the client has reset;
 * - a `response.setHeader` that drops the HTTP/1.1 connection headers HTTP/2 forbids (the SDK
 *   sends `Connection: keep-alive` with SSE), which Node would drop too, but with a warning.
 * Both are own properties shadowing the prototype's, so nothing else about the objects changes;
 * the rest of their surface (events, `write`, `flushHeaders` …) is the same as HTTP/1.1's.
 */
export function asHttp1Shaped(request: Http2ServerRequest, response: Http2ServerResponse): { request: IncomingMessage; response: ServerResponse } {
  const headers: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!name.startsWith(":")) {
      headers[name] = value;
    }
  }
  const authority = request.headers[":authority"];
  if (headers.host === undefined && typeof authority === "string") {
    headers.host = authority;
  }
  Object.defineProperty(request, "headers", { value: headers, configurable: true, enumerable: true });
  Object.defineProperty(response, "destroyed", { get: () => response.stream.destroyed, configurable: true });
  const setHeader = response.setHeader.bind(response);
  Object.defineProperty(response, "setHeader", {
    value: (name: string, value: number | string | readonly string[]) => (CONNECTION_HEADERS.has(name.toLowerCase()) ? response : setHeader(name, value)),
    configurable: true,
  });
  // The SDK's handler touches only what both protocols have in common, once shaped as above.
  return { request: request as unknown as IncomingMessage, response: response as unknown as ServerResponse };
}
