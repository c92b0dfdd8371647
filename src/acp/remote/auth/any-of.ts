// Several ways to say who is calling, at once: bearer tokens for scripts, JWTs for people.

import type { Principal } from "../../../types/principal.js";
import type { AcpHttpAuthenticate } from "./acp-http-authenticate.js";
import { HttpRefusal } from "./http-refusal.js";

/**
 * A hook that asks each of `hooks` in turn and returns the first principal one gives. A hook that
 * refuses (throws an `HttpRefusal`) does not end the search, since the credentials may be meant
 * for a later one (two JWT issuers, say); if no hook gives a principal, the first refusal is
 * thrown, so the caller learns why, and otherwise the result is undefined. Any other error ends
 * the search at once: it is the server's failure, and must not be hidden by a later hook's 401.
 */
export function anyOf(...hooks: AcpHttpAuthenticate[]): AcpHttpAuthenticate {
  return async (request: Request): Promise<Principal | undefined> => {
    let refusal: HttpRefusal | undefined;
    for (const hook of hooks) {
      try {
        const principal = await hook(request);
        if (principal !== undefined) {
          return principal;
        }
      } catch (error) {
        if (!HttpRefusal.isInstance(error)) {
          throw error;
        }
        refusal ??= error;
      }
    }
    if (refusal !== undefined) {
      throw refusal;
    }
    return undefined;
  };
}
