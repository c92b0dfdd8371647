// JWTs from an identity provider a team already has (Auth0, Okta, Keycloak, Entra, Google):
// `Authorization: Bearer <jwt>`, verified against the provider's published keys (a JWKS URL) or a
// key given here, with its issuer, audience and expiry checked. The verifying is jose's; this file
// only picks the key, maps the claims to a principal and a failure to a 401.

import { createPublicKey, type KeyObject } from "node:crypto";

import type * as Jose from "jose";
import type { JWTPayload, JWTVerifyGetKey, JWTVerifyOptions } from "jose";

import { WeftError } from "../../../errors/weft-error.js";
import type { Principal } from "../../../types/principal.js";
import type { AcpHttpAuthenticate } from "./acp-http-authenticate.js";
import { bearerCredential } from "./bearer-credential.js";
import { HttpRefusal } from "./http-refusal.js";
import { errorMessage } from "../../../errors/error-message.js";

/** The claims of a verified token, as jose gives them. */
export type JwtClaims = JWTPayload;

export interface JwtAuthOptions {
  /**
   * Where the issuer publishes its keys (its `jwks_uri`). Fetched on the first token and kept,
   * fetched again when a token names a key not in it. Must be https, but for a loopback address.
   * Give this or `key`.
   */
  jwks?: string | URL | undefined;
  /**
   * The one key tokens are signed with: a PEM public key or certificate (RS*, PS*, ES*, EdDSA), or
   * else the shared secret of HS256/384/512, at least 32 bytes. Give this or `jwks`.
   */
  key?: string | undefined;
  /**
   * The signing algorithms to accept, such as `["RS256"]`. By default, those that fit `key` (for a
   * secret HS256/384/512, for a P-256 key ES256, …), or for `jwks` whatever its keys declare.
   */
  algorithms?: readonly string[] | undefined;
  /** The `iss` a token must carry, or any of several. A token from another issuer is not this hook's: it gets undefined. */
  issuer: string | readonly string[];
  /** The `aud` a token must carry (one of, for several): this server's own name at the provider. */
  audience: string | readonly string[];
  /** Clock skew to allow on `exp` and `nbf`, in seconds or as a span such as `"30s"`. None by default. */
  clockTolerance?: number | string | undefined;
  /**
   * Whom a verified token stands for. By default `sub` is the id, `name` (or `preferred_username`)
   * the name, and the roles are `roles` plus the scopes of `scope` or `scp`; a token without `sub`
   * is refused. Return undefined to refuse a token (a 401), or throw `HttpRefusal` 403 for a
   * caller who is known but not allowed.
   */
  principal?: ((claims: JwtClaims) => Principal | undefined | Promise<Principal | undefined>) | undefined;
}

/** jose, once the first token has loaded it. */
let jose: Promise<typeof Jose> | undefined;

/**
 * A hook that accepts `Authorization: Bearer <jwt>` signed by the configured key or a key of the
 * JWKS, from `issuer`, for `audience`, not expired (a token must carry `exp`), and returns its
 * principal. A request without a bearer token, with one that is not a JWT, or with a JWT of
 * another issuer gets undefined, so other hooks of `anyOf` may take it. A token of this issuer
 * that fails (expired, another audience, a bad signature, an algorithm not accepted, no subject)
 * is refused with a 401 that says why (`error="invalid_token"`). If the JWKS cannot be fetched,
 * the error is thrown as it is: the server failed, not the caller.
 *
 * jose loads on the first token, not before, so a server that never sees one never loads it.
 * Options are checked at once: give exactly one of `jwks` and `key`.
 */
export function jwtAuth(options: JwtAuthOptions): AcpHttpAuthenticate {
  const issuers = typeof options.issuer === "string" ? [options.issuer] : [...options.issuer];
  const audiences = typeof options.audience === "string" ? [options.audience] : [...options.audience];
  if (issuers.length === 0 || issuers.includes("") || audiences.length === 0 || audiences.includes("")) {
    throw new WeftError("invalid_option", "jwtAuth() needs an issuer and an audience, neither of them empty.");
  }
  if ((options.jwks === undefined) === (options.key === undefined)) {
    throw new WeftError("invalid_option", "jwtAuth() needs exactly one of jwks (the issuer's key set URL) and key (a PEM public key or a shared secret).");
  }
  const source = options.jwks !== undefined ? keySetUrl(options.jwks) : fixedKey(options.key as string);
  const algorithms = options.algorithms ? [...options.algorithms] : source instanceof URL ? undefined : source.algorithms;
  const verifyOptions: JWTVerifyOptions = {
    issuer: issuers,
    audience: audiences,
    // A token without an expiry would be good for ever, however it leaked.
    requiredClaims: ["exp"],
    ...(algorithms ? { algorithms } : {}),
    ...(options.clockTolerance !== undefined ? { clockTolerance: options.clockTolerance } : {}),
  };
  const toPrincipal = options.principal ?? claimsPrincipal;
  let keys: JWTVerifyGetKey | KeyObject | Uint8Array | undefined;

  return async (request: Request): Promise<Principal | undefined> => {
    const token = bearerCredential(request);
    if (token === undefined || !/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) {
      return undefined;
    }
    const library = await (jose ??= import("jose"));
    let unverified: JWTPayload;
    try {
      unverified = library.decodeJwt(token);
    } catch {
      return undefined;
    }
    // Not this issuer's token: leave it to another hook, without a key fetch on its behalf.
    if (typeof unverified.iss !== "string" || !issuers.includes(unverified.iss)) {
      return undefined;
    }
    keys ??= source instanceof URL ? library.createRemoteJWKSet(source) : source.key;
    let claims: JWTPayload;
    try {
      // Written out per kind of key, since jose's overloads tell a key set from a key.
      claims = (typeof keys === "function" ? await library.jwtVerify(token, keys, verifyOptions) : await library.jwtVerify(token, keys, verifyOptions)).payload;
    } catch (error) {
      const reason = tokenFailure(error);
      if (reason === undefined) {
        throw error;
      }
      throw HttpRefusal.invalidToken(reason, { cause: error });
    }
    const principal = await toPrincipal(claims);
    if (principal === undefined) {
      throw HttpRefusal.invalidToken(options.principal ? "The token stands for nobody this server serves." : 'The token has no subject ("sub").');
    }
    return principal;
  };
}

/** The default mapping from claims to a principal; undefined for a token without `sub`. */
function claimsPrincipal(claims: JwtClaims): Principal | undefined {
  if (typeof claims.sub !== "string" || claims.sub === "") {
    return undefined;
  }
  const name = [claims["name"], claims["preferred_username"]].find((value): value is string => typeof value === "string" && value !== "");
  const roles = [...new Set([...strings(claims["roles"]), ...scopes(claims["scope"]), ...scopes(claims["scp"])])];
  return { id: claims.sub, ...(name !== undefined ? { name } : {}), ...(roles.length > 0 ? { roles } : {}) };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && item !== "") : [];
}

/** Scopes as OAuth writes them (one space-separated string) or as some providers do (an array). */
function scopes(value: unknown): string[] {
  return typeof value === "string" ? value.split(" ").filter((scope) => scope !== "") : strings(value);
}

function keySetUrl(jwks: string | URL): URL {
  let url: URL;
  try {
    url = new URL(jwks);
  } catch (error) {
    throw new WeftError("invalid_option", `jwtAuth() jwks is not a URL: ${String(jwks)}`, { cause: error });
  }
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    // Keys fetched in the clear could be swapped on the way, and then anyone could sign tokens.
    throw new WeftError("invalid_option", `jwtAuth() jwks must be an https URL (http only on loopback), not ${url.href}`);
  }
  return url;
}

/** The key of `key`, and the algorithms that fit it. */
function fixedKey(key: string): { key: KeyObject | Uint8Array; algorithms: string[] } {
  if (!key.includes("-----BEGIN")) {
    const secret = new TextEncoder().encode(key);
    if (secret.length < 32) {
      throw new WeftError("invalid_option", `jwtAuth() key, taken as an HMAC secret since it is not PEM, is ${secret.length} bytes; HS256 needs at least 32.`);
    }
    return { key: secret, algorithms: ["HS256", "HS384", "HS512"] };
  }
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(key);
  } catch (error) {
    throw new WeftError("invalid_option", `jwtAuth() key is not a PEM public key or certificate: ${errorMessage(error)}`, { cause: error });
  }
  return { key: publicKey, algorithms: algorithmsFor(publicKey) };
}

function algorithmsFor(key: KeyObject): string[] {
  switch (key.asymmetricKeyType) {
    case "rsa":
      return ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"];
    case "rsa-pss":
      return ["PS256", "PS384", "PS512"];
    case "ec": {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      const algorithm = curve === "prime256v1" ? "ES256" : curve === "secp384r1" ? "ES384" : curve === "secp521r1" ? "ES512" : undefined;
      if (algorithm === undefined) {
        throw new WeftError("invalid_option", `jwtAuth() key is on the curve ${String(curve)}, which JWTs do not use (P-256, P-384 or P-521).`);
      }
      return [algorithm];
    }
    case "ed25519":
      return ["EdDSA", "Ed25519"];
    default:
      throw new WeftError("invalid_option", `jwtAuth() key is a ${String(key.asymmetricKeyType)} key, which does not sign JWTs; give the algorithms it is used with.`);
  }
}

/** Why `error`, thrown while verifying, makes the token no good; undefined when it is not the token's fault. */
function tokenFailure(error: unknown): string | undefined {
  const { code, claim, reason } = (error ?? {}) as { code?: unknown; claim?: unknown; reason?: unknown };
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return "The token has expired.";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (reason === "missing") {
        return `The token has no "${String(claim)}" claim.`;
      }
      return claim === "aud" ? "The token is for another audience." : claim === "iss" ? "The token is from another issuer." : claim === "nbf" ? "The token is not valid yet." : `The token's "${String(claim)}" claim does not hold.`;
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
    case "ERR_JWKS_NO_MATCHING_KEY":
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return "The token's signature does not verify.";
    case "ERR_JOSE_ALG_NOT_ALLOWED":
    case "ERR_JOSE_NOT_SUPPORTED":
      return "The token is signed with an algorithm this server does not accept.";
    case "ERR_JWS_INVALID":
    case "ERR_JWT_INVALID":
      return "The token is not a well-formed JWT.";
    default:
      return undefined;
  }
}
