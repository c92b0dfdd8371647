// Why a connection to a remote agent failed, in a sentence the person can act on. The SDK's
// transports report an HTTP status (an error with `status`, or ws's "Unexpected server response"),
// a network error code (on the error or its `cause`, as fetch wraps it), or a WebSocket close.

import { errorMessage } from "../errors/error-message.js";

/** Certificate problems, as Node's TLS reports them. */
const CERTIFICATE_CODES = new Set([
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/**
 * The failure of the connection to `url` as a sentence. `connected` says whether the agent had
 * answered on it yet: a 404 before that is a wrong path, after it a connection the server forgot.
 */
export function connectionFailure(error: unknown, url: URL, connected: boolean): string {
  const host = url.host;
  const status = httpStatus(error);
  if (status !== undefined) {
    switch (status) {
      case 401:
        return `The server refused the credentials (HTTP 401); pass --token or set WEFT_TOKEN.`;
      case 403:
        return `The server refused access (HTTP 403): these credentials may not use this agent.`;
      case 404:
        return connected ? `The server no longer knows this connection (HTTP 404).` : `Nothing serves ACP at ${shown(url)} (HTTP 404); check the path (weft serve answers at /acp).`;
      case 410:
        return `The server ended this connection (HTTP 410).`;
      default:
        return `The server answered HTTP ${status}${detail(error)}.`;
    }
  }
  const code = errorCode(error);
  if (code === "ECONNREFUSED") {
    return `Could not connect to ${host}: connection refused. Is the server running there?`;
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return `Could not find the host ${url.hostname}.`;
  }
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") {
    return `Timed out connecting to ${host}.`;
  }
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET") {
    return `The connection to ${host} was cut.`;
  }
  if (code !== undefined && CERTIFICATE_CODES.has(code)) {
    return `The TLS certificate of ${host} was not accepted (${code}). If it comes from a private CA, point NODE_EXTRA_CA_CERTS at the CA's certificate.`;
  }
  if (code !== undefined && (code === "EPROTO" || code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_"))) {
    return `The TLS handshake with ${host} failed (${code}). Does the server speak TLS there (else use http:// or ws://)?`;
  }
  return `The connection to ${shown(url)} failed: ${messageOf(error)}.`;
}

/** The URL as it may be shown: without a password or query (either may hold a secret). */
export function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function httpStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) {
    return undefined;
  }
  const status = (error as { status?: unknown }).status;
  if (typeof status === "number") {
    return status;
  }
  // ws rejects a handshake answered with anything but 101 this way.
  const match = /Unexpected server response: (\d{3})/.exec(messageOf(error));
  return match ? Number(match[1]) : undefined;
}

/** The first error code on the error, its causes, or the errors it aggregates. */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== "object" || error === null || depth > 4) {
    return undefined;
  }
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string") {
    return code;
  }
  for (const inner of [cause, ...(Array.isArray(errors) ? errors : [])]) {
    const found = errorCode(inner, depth + 1);
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}

/** What the server said with an error status, if anything, shortened. */
function detail(error: unknown): string {
  const body = (error as { body?: unknown }).body;
  const text = typeof body === "string" ? body.trim() : "";
  return text === "" ? "" : `: ${text.slice(0, 300)}`;
}

/** The error's message, with its cause's ("fetch failed" says little on its own). */
function messageOf(error: unknown): string {
  const message = errorMessage(error).replace(/\.$/, "");
  const cause = error instanceof Error && error.cause instanceof Error ? messageOf(error.cause) : "";
  return cause === "" || message.includes(cause) ? message : `${message} (${cause})`;
}
