// A fetch over node:http2, for tests. Node's own fetch speaks only HTTP/1.1, and the SDK's HTTP
// client stream takes any fetch, so this is how it reaches a server over h2c and TLS h2.

import * as http2 from "node:http2";

import { readFetchCall, webResponse } from "./fetch-request.js";

export interface Http2FetchOptions {
  /** Certificate authorities to trust for https:// origins (PEM), such as a test's own certificate. */
  ca?: string | Buffer;
  /** Set false to accept any certificate. */
  rejectUnauthorized?: boolean;
}

export interface Http2Fetch {
  /** Fetches over one HTTP/2 session per origin, opened on first use and reused after. */
  fetch: typeof globalThis.fetch;
  /** How many sessions have been opened, to show that requests share them. */
  sessionsOpened(): number;
  /** Destroys every session, ending any stream still open on it (an SSE stream never ends itself). */
  close(): void;
}

/** Headers HTTP/2 forbids (RFC 9113 §8.2.2); `host` travels as `:authority`. */
const CONNECTION_HEADERS = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host"]);

/**
 * A fetch-compatible function over node:http2: `http://` origins speak h2c with prior knowledge,
 * `https://` ones TLS with ALPN `h2`. The response body streams as it arrives, and aborting the
 * request's signal resets its stream.
 */
export function http2Fetch(options: Http2FetchOptions = {}): Http2Fetch {
  const sessions = new Map<string, http2.ClientHttp2Session>();
  let opened = 0;

  const sessionFor = (origin: string): http2.ClientHttp2Session => {
    const existing = sessions.get(origin);
    if (existing !== undefined && !existing.closed && !existing.destroyed) {
      return existing;
    }
    const session = http2.connect(origin, {
      ...(options.ca === undefined ? {} : { ca: options.ca }),
      ...(options.rejectUnauthorized === undefined ? {} : { rejectUnauthorized: options.rejectUnauthorized }),
    });
    opened += 1;
    // A session error also fails each of its streams, which report it to their callers.
    session.on("error", () => {});
    const forget = (): void => {
      if (sessions.get(origin) === session) {
        sessions.delete(origin);
      }
    };
    session.once("close", forget);
    session.once("goaway", forget);
    sessions.set(origin, session);
    return session;
  };

  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const call = await readFetchCall(input, init);
    call.signal.throwIfAborted();
    const headers: http2.OutgoingHttpHeaders = {
      ":method": call.method,
      ":scheme": call.url.protocol.slice(0, -1),
      ":authority": call.url.host,
      ":path": `${call.url.pathname}${call.url.search}`,
    };
    call.headers.forEach((value, name) => {
      if (!CONNECTION_HEADERS.has(name)) {
        headers[name] = value;
      }
    });
    const stream = sessionFor(call.url.origin).request(headers, { endStream: call.body === undefined, signal: call.signal });
    return await new Promise<Response>((resolve, reject) => {
      // Before the response this fails the fetch; after it, the body stream reports the error.
      stream.on("error", (error: Error) => reject(call.signal.aborted ? call.signal.reason : new TypeError("fetch failed", { cause: error })));
      stream.once("response", (responseHeaders) => {
        resolve(webResponse(Number(responseHeaders[":status"]), responseHeaders, stream, call.method));
      });
      if (call.body !== undefined) {
        stream.end(call.body);
      }
    });
  };

  return {
    fetch,
    sessionsOpened: () => opened,
    close: () => {
      for (const session of sessions.values()) {
        session.destroy();
      }
      sessions.clear();
    },
  };
}
