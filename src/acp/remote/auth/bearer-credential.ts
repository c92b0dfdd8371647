// Reading the token of an `Authorization: Bearer` header, the one place both built-in hooks look.

/** RFC 6750's b64token: the only characters a bearer token may have. */
export const bearerTokenPattern = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The token of `request`'s `Authorization: Bearer <token>` header, or undefined when there is no
 * such header, it names another scheme (`Basic`), or its token is empty or not a token at all (two
 * headers joined by a comma, stray spaces inside). The scheme is matched without regard to case,
 * as HTTP says.
 */
export function bearerCredential(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const match = header === null ? null : /^bearer +(\S+) *$/i.exec(header);
  const token = match?.[1];
  return token !== undefined && bearerTokenPattern.test(token) ? token : undefined;
}
