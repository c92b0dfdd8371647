// Which web pages may call the server. Browsers send any site's requests to any address the
// person's machine can reach, loopback included, and attach an `Origin` header saying which site
// sent them; this is where the server says no to the sites it does not know.

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether `request` may go on, as far as its `Origin` is concerned. Without an `Origin` header it
 * may: it does not come from a browser page (editors, scripts and `weft chat` send none), and a
 * browser sends one on every request that could do harm (a POST, a WebSocket upgrade). With one,
 * it may when the origin is `serverUrl`'s own (a page the server serves itself), or is one of
 * `allowed` (exact origins such as `https://app.example.com`), or, when `allowed` is undefined,
 * is a page on this machine's loopback (`http://localhost:*`, `http://127.0.0.1:*`,
 * `http://[::1]:*`, or https). `Origin: null` (a sandboxed frame, a file) passes only when
 * `allowed` lists "null".
 *
 * `serverUrl` must be the address the server was configured with, never one built from the
 * request's `Host` header: a page that rebinds its own name to 127.0.0.1 controls that header.
 *
 * Returns false for a refusal; the server answers it with 403 before reading the request.
 */
export function checkOrigin(request: Request, allowed: readonly string[] | undefined, serverUrl?: string | URL | undefined): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) {
    return true;
  }
  if (origin === "null") {
    return allowed?.includes("null") ?? false;
  }
  const presented = originOf(origin);
  if (presented === undefined) {
    return false;
  }
  if (serverUrl !== undefined && presented === originOf(String(serverUrl))) {
    return true;
  }
  if (allowed !== undefined) {
    return allowed.some((entry) => originOf(entry) === presented);
  }
  const url = new URL(presented);
  return (url.protocol === "http:" || url.protocol === "https:") && loopbackHosts.has(url.hostname);
}

/** `text` as a serialized origin (scheme, lower-case host, port only if not the default), or undefined if it is not a URL. */
function originOf(text: string): string | undefined {
  try {
    const origin = new URL(text).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}
