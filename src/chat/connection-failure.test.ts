// The sentences weft chat shows when a remote agent cannot be reached or refuses, from the errors
// the SDK's transports report.

import { describe, expect, it } from "vitest";

import { connectionFailure, shown } from "./connection-failure.js";

const url = new URL("https://user:pw@agents.example.com:8443/acp?key=secret");

/** An error shaped as the SDK's HTTP transport reports a status. */
const httpError = (status: number, body = "") => Object.assign(new Error(`ACP POST failed: ${status}`), { status, body });

describe("connectionFailure", () => {
  it("names each refusing status in words, a 404 by whether the connection was up", () => {
    expect(connectionFailure(httpError(401), url, false)).toBe("The server refused the credentials (HTTP 401); pass --token or set WEFT_TOKEN.");
    expect(connectionFailure(httpError(403), url, true)).toContain("refused access (HTTP 403)");
    expect(connectionFailure(httpError(404), url, false)).toBe("Nothing serves ACP at https://agents.example.com:8443/acp (HTTP 404); check the path (weft serve answers at /acp).");
    expect(connectionFailure(httpError(404), url, true)).toBe("The server no longer knows this connection (HTTP 404).");
    expect(connectionFailure(httpError(410), url, true)).toBe("The server ended this connection (HTTP 410).");
    expect(connectionFailure(httpError(502, "bad gateway\n"), url, false)).toBe("The server answered HTTP 502: bad gateway.");
  });

  it("reads the status of a WebSocket handshake from ws's message", () => {
    expect(connectionFailure(new Error("Unexpected server response: 401"), url, false)).toContain("refused the credentials");
  });

  it("finds a network error's code under fetch's wrapper, and says what it means", () => {
    const refused = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
    expect(connectionFailure(refused, url, false)).toBe("Could not connect to agents.example.com:8443: connection refused. Is the server running there?");
    const untrusted = new TypeError("fetch failed", { cause: Object.assign(new Error("self-signed certificate"), { code: "DEPTH_ZERO_SELF_SIGNED_CERT" }) });
    expect(connectionFailure(untrusted, url, false)).toContain("certificate of agents.example.com:8443 was not accepted (DEPTH_ZERO_SELF_SIGNED_CERT)");
    expect(connectionFailure(new TypeError("fetch failed", { cause: new Error("bad port") }), url, false)).toBe("The connection to https://agents.example.com:8443/acp failed: fetch failed (bad port).");
  });

  it("never shows the URL's password or query", () => {
    expect(shown(url)).toBe("https://agents.example.com:8443/acp");
  });
});
