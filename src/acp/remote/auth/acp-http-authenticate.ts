// The hook that says who is calling an ACP server over HTTP. The server calls it on every request,
// before it reads any JSON-RPC, and acts for the principal it returns.

import type { Principal } from "../../../types/principal.js";

/**
 * Who sent `request`: the principal the server acts for, or undefined when the request carries no
 * credentials this hook accepts (none at all, another scheme, a token it does not know), which the
 * server answers with 401. To answer with a particular status or challenge instead (a token that
 * has expired, a caller who is known but not allowed), throw an `HttpRefusal`.
 *
 * Anything else thrown (a key server that cannot be reached) is the server's failure, not the
 * caller's: the server answers it as an error of its own, not as a refusal.
 */
export type AcpHttpAuthenticate = (request: Request) => Principal | undefined | Promise<Principal | undefined>;
