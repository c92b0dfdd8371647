// The answer an HTTP server gives a caller it will not serve, before any JSON-RPC is read: 401
// when it does not know who is calling, 403 when it knows and says no. An authenticate hook throws
// one to choose the status and the challenge; the server turns it into the response.

import { WeftError } from "../../../errors/weft-error.js";

/** The realm weft names in its challenges. */
const realm = "weft";

/**
 * A request refused before it reaches the protocol. `status` 401 says the caller is not known (no
 * credentials, or ones that do not verify) and carries `wwwAuthenticate`, the challenge HTTP
 * requires with a 401; 403 says the caller is known, or the request comes from a page, that may
 * not use this server.
 *
 * The message is the response's body, so it is written for the caller: it says what was wrong
 * with what they sent, and never repeats a credential.
 */
export class HttpRefusal extends WeftError {
  static override readonly errorName = "HttpRefusal";

  /** The `WWW-Authenticate` value of a 401, such as `Bearer realm="weft"`; undefined for a 403. */
  readonly wwwAuthenticate: string | undefined;

  constructor(
    readonly status: 401 | 403,
    message: string,
    options: { wwwAuthenticate?: string | undefined; cause?: unknown } = {},
  ) {
    super(status === 401 ? "unauthenticated" : "forbidden", message, { cause: options.cause });
    this.wwwAuthenticate = status === 401 ? (options.wwwAuthenticate ?? `Bearer realm="${realm}"`) : undefined;
  }

  /**
   * A 401 for a bearer token that was sent but is not good (expired, for another audience, badly
   * signed), with the RFC 6750 `invalid_token` challenge, so a client knows to get a new one
   * rather than ask the person again for the same.
   */
  static invalidToken(description: string, options: { cause?: unknown } = {}): HttpRefusal {
    return new HttpRefusal(401, description, {
      wwwAuthenticate: `Bearer realm="${realm}", error="invalid_token", error_description="${quotable(description)}"`,
      cause: options.cause,
    });
  }

  /** The refusal as a web response: its status, the challenge of a 401, and the message as plain text. */
  toResponse(): Response {
    const headers = new Headers({ "content-type": "text/plain; charset=utf-8" });
    if (this.wwwAuthenticate !== undefined) {
      headers.set("www-authenticate", this.wwwAuthenticate);
    }
    return new Response(`${this.message}\n`, { status: this.status, headers });
  }
}

/** `text` with only the characters RFC 6750 allows in `error_description` (no quote, no backslash). */
function quotable(text: string): string {
  return text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "'");
}
