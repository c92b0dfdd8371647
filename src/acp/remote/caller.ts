// Who is calling a remote ACP endpoint, from a request's method, URL and headers alone, before a
// byte of its body is read: the principal the authenticate hook names, or the answer that refuses
// the request (404 for another path, 403 for a page not allowed to call, 401 without credentials).

import type { Logger } from "../../types/logger.js";
import type { Principal } from "../../types/principal.js";
import type { AcpHttpAuthenticate } from "./auth/acp-http-authenticate.js";
import { checkOrigin } from "./auth/check-origin.js";
import { HttpRefusal } from "./auth/http-refusal.js";
import type { HttpRequest } from "./listen-http.js";

/** The one principal of every caller when no authenticate hook is given. */
export const ANONYMOUS: Principal = { id: "anonymous" };

/**
 * The header this server puts on each request it has let in, naming the principal it found for
 * it; whatever a client sent under that name is overwritten.
 */
export const PRINCIPAL_TICKET = "x-weft-principal-ticket";

/** What decides who may call: the endpoint's path, the origins let in, and the authenticate hook. */
export interface CallerCheck {
  endpoint: string;
  origins: readonly string[] | undefined;
  authenticate: AcpHttpAuthenticate | undefined;
  logger: Logger;
}

/** Who is calling, from the request's headers alone, or the answer that refuses them. */
export async function whoCalls(incoming: HttpRequest, { endpoint, origins, authenticate, logger }: CallerCheck): Promise<Principal | Response> {
  const request = headersOnly(incoming);
  if (new URL(request.url).pathname !== endpoint) {
    return new Response("Not found.", { status: 404 });
  }
  if (!checkOrigin(request, origins)) {
    return new Response("This server does not take requests from that page.", { status: 403 });
  }
  if (!authenticate) {
    return ANONYMOUS;
  }
  try {
    return (await authenticate(request)) ?? new HttpRefusal(401, "This server needs credentials: a bearer token in the Authorization header.").toResponse();
  } catch (error) {
    if (HttpRefusal.isInstance(error)) {
      return error.toResponse();
    }
    logger.error("Authenticating a request failed", { error: String(error) });
    return new Response("Authentication failed.", { status: 500 });
  }
}

/** A request as its headers alone tell it, for deciding who calls before the body is read. */
function headersOnly(request: HttpRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    // HTTP/2's pseudo-headers (`:path` …) are not header names a web Request takes.
    if (name.startsWith(":") || name === PRINCIPAL_TICKET) {
      continue;
    }
    if (typeof value === "string") {
      headers.set(name, value);
    } else if (Array.isArray(value)) {
      headers.set(name, value.join(", "));
    }
  }
  return new Request(new URL(request.url ?? "/", "http://localhost"), { headers });
}
