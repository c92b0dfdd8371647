// What the fetch functions over Node's own clients (http2-fetch.ts, https-fetch.ts) share: reading
// a fetch call's arguments the way fetch does, and building its web Response.

import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";

/** A fetch call's arguments, read by the platform's own `Request`, with the body in hand. */
export interface FetchCall {
  url: URL;
  method: string;
  headers: Headers;
  body: Buffer | undefined;
  signal: AbortSignal;
}

export async function readFetchCall(input: string | URL | Request, init?: RequestInit): Promise<FetchCall> {
  const request = new Request(input, init);
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  return { url: new URL(request.url), method: request.method, headers: request.headers, body, signal: request.signal };
}

/** A streaming web Response over a Node response stream; pseudo-headers (`:status`) are left out. */
export function webResponse(status: number, headers: IncomingHttpHeaders, body: Readable, method: string): Response {
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(":") || value === undefined) {
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      responseHeaders.append(name, item);
    }
  }
  // These statuses may carry no body, and the Response constructor refuses one.
  if (method === "HEAD" || status === 204 || status === 205 || status === 304) {
    body.resume();
    return new Response(null, { status, headers: responseHeaders });
  }
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status, headers: responseHeaders });
}
