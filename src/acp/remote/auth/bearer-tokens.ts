// Bearer tokens a server hands out itself: each token stands for one principal. The simplest
// auth there is, for scripts, CI and a small team; `weft serve --tokens-file` reads them.

import { createHash, timingSafeEqual } from "node:crypto";

import type { Principal } from "../../../types/principal.js";
import type { AcpHttpAuthenticate } from "./acp-http-authenticate.js";
import { bearerCredential, bearerTokenPattern } from "./bearer-credential.js";
import { InvalidTokensError } from "./invalid-tokens-error.js";

/** Each token and whom it stands for: a principal, or just its id. */
export type BearerTokenEntries = ReadonlyMap<string, Principal | string> | Readonly<Record<string, Principal | string>>;

/**
 * A hook that accepts `Authorization: Bearer <token>` for each token of `entries` and returns the
 * principal it stands for; any other request (no header, another scheme, a token not listed) gets
 * undefined, so the server answers 401 or a later hook of `anyOf` can try.
 *
 * The comparison takes the same time whichever token matches, or none: both sides are hashed to
 * the same length and the request's digest is compared with every entry's, never stopping at the
 * first match, so timing tells a caller nothing about how close a guess came or which entry it hit.
 *
 * Throws `InvalidTokensError` at once for an empty list, an empty token or one with characters a
 * bearer token cannot carry (it could never match), and an empty principal id.
 */
export function bearerTokens(entries: BearerTokenEntries): AcpHttpAuthenticate {
  const listed = entries instanceof Map ? [...(entries as ReadonlyMap<string, Principal | string>)] : Object.entries(entries);
  if (listed.length === 0) {
    throw new InvalidTokensError("bearerTokens() was given no tokens, so nobody could get in.");
  }
  const digests: Buffer[] = [];
  const principals: Principal[] = [];
  listed.forEach(([token, principal], index) => {
    if (token === "") {
      throw new InvalidTokensError(`Token ${index + 1} given to bearerTokens() is empty.`, { line: index + 1 });
    }
    if (!bearerTokenPattern.test(token)) {
      throw new InvalidTokensError(`Token ${index + 1} given to bearerTokens() has characters a bearer token cannot carry (letters, digits and -._~+/ then any =), so it could never match.`, {
        line: index + 1,
      });
    }
    const resolved = typeof principal === "string" ? { id: principal } : principal;
    if (resolved.id === "") {
      throw new InvalidTokensError(`Token ${index + 1} given to bearerTokens() stands for a principal with an empty id.`, { line: index + 1 });
    }
    digests.push(digest(token));
    principals.push(resolved);
  });

  return (request: Request): Principal | undefined => {
    const token = bearerCredential(request);
    if (token === undefined) {
      return undefined;
    }
    const presented = digest(token);
    // Every entry is compared, even after a match: the work is the same for any token.
    let found: Principal | undefined;
    digests.forEach((listedDigest, index) => {
      if (timingSafeEqual(presented, listedDigest)) {
        found = principals[index];
      }
    });
    return found;
  };
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}
