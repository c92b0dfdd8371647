// Answers that turn a caller away before its body is read: on a request (HTTP/1.1 or HTTP/2), and
// on a WebSocket upgrade's socket.

import { constants as http2Constants, Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import type { Duplex } from "node:stream";

import type { HttpRequest, HttpResponse } from "./listen-http.js";

/**
 * Answers a request with a refusal without reading its body: over HTTP/1.1 the connection then
 * closes (Node throws away what arrives meanwhile, and a client still sending a second later is
 * cut off); over HTTP/2 the stream is reset, which tells the client to stop sending.
 */
export async function refuse(request: HttpRequest, response: HttpResponse, answer: Response): Promise<void> {
  const body = await answer.text();
  response.statusCode = answer.status;
  answer.headers.forEach((value, name) => response.setHeader(name, value));
  if (request instanceof Http2ServerRequest) {
    const stream = (response as Http2ServerResponse).stream;
    response.end(body, () => stream.close(http2Constants.NGHTTP2_NO_ERROR));
    return;
  }
  response.setHeader("connection", "close");
  response.end(body, () => setTimeout(() => request.socket.destroy(), 1000).unref());
}

/** Answers an upgrade with a refusal, on the socket itself, and closes it. */
export function refuseUpgrade(socket: Duplex, response: Response): void {
  const lines = [`HTTP/1.1 ${response.status} ${response.statusText || "Refused"}`, "Connection: close"];
  response.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  void response.text().then((body) => {
    socket.end(`${lines.join("\r\n")}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}
