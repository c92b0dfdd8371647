// A fetch over HTTP/1.1 and TLS that trusts a test's own certificate, which Node's global fetch
// cannot be told to do; it offers only `http/1.1` by ALPN, so a server that also speaks h2 must
// choose HTTP/1.1.

import * as https from "node:https";

import { readFetchCall, webResponse } from "./fetch-request.js";

export interface HttpsFetch {
  fetch: typeof globalThis.fetch;
  /** Closes the kept-alive connections, and any response still streaming. */
  close(): void;
}

export function httpsFetch(options: { ca: string | Buffer }): HttpsFetch {
  const agent = new https.Agent({ keepAlive: true, ca: options.ca, ALPNProtocols: ["http/1.1"] });
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const call = await readFetchCall(input, init);
    call.signal.throwIfAborted();
    return await new Promise<Response>((resolve, reject) => {
      const request = https.request(call.url, { method: call.method, headers: Object.fromEntries(call.headers), agent, signal: call.signal });
      request.on("error", (error: Error) => reject(call.signal.aborted ? call.signal.reason : new TypeError("fetch failed", { cause: error })));
      request.once("response", (response) => {
        resolve(webResponse(response.statusCode ?? 0, response.headers, response, call.method));
      });
      request.end(call.body);
    });
  };
  return { fetch, close: () => agent.destroy() };
}
