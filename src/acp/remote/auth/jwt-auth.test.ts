import { exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWTPayload } from "jose";
import { beforeAll, describe, expect, it } from "vitest";

import { HttpRefusal } from "./http-refusal.js";
import { jwtAuth } from "./jwt-auth.js";

const issuer = "https://id.example.com/";
const audience = "weft-agent";

function withToken(token: string): Request {
  return new Request("http://127.0.0.1/acp", { method: "POST", headers: { authorization: `Bearer ${token}` } });
}

async function sign(key: CryptoKey | Uint8Array, alg: string, claims: Record<string, unknown> = {}, options: { expires?: string | number | null; issuer?: string; audience?: string } = {}): Promise<string> {
  const jwt = new SignJWT({ sub: "alice", ...claims } as JWTPayload).setProtectedHeader({ alg }).setIssuedAt().setIssuer(options.issuer ?? issuer).setAudience(options.audience ?? audience);
  if (options.expires !== null) {
    jwt.setExpirationTime(options.expires ?? "5m");
  }
  return jwt.sign(key);
}

/** What the hook does with `token`: a principal, undefined, or the status and message of its refusal. */
async function outcome(hook: ReturnType<typeof jwtAuth>, token: string): Promise<unknown> {
  try {
    return await hook(withToken(token));
  } catch (error) {
    if (!HttpRefusal.isInstance(error)) {
      throw error;
    }
    return { status: error.status, message: error.message, wwwAuthenticate: error.wwwAuthenticate };
  }
}

const refused = (message: RegExp) => expect.objectContaining({ status: 401, message: expect.stringMatching(message), wwwAuthenticate: expect.stringContaining('error="invalid_token"') });

describe("jwtAuth with an RS256 public key", () => {
  let privateKey: CryptoKey;
  let otherKey: CryptoKey;
  let publicPem: string;
  let hook: ReturnType<typeof jwtAuth>;

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256", { extractable: true });
    privateKey = pair.privateKey;
    publicPem = await exportSPKI(pair.publicKey);
    otherKey = (await generateKeyPair("RS256")).privateKey;
    hook = jwtAuth({ key: publicPem, issuer, audience });
  });

  it("returns the principal of a valid token: sub, name and roles", async () => {
    const token = await sign(privateKey, "RS256", { name: "Alice", roles: ["admin"], scope: "read write admin" });
    expect(await outcome(hook, token)).toEqual({ id: "alice", name: "Alice", roles: ["admin", "read", "write"] });
  });

  it("takes the name from preferred_username, and leaves out what the token does not say", async () => {
    expect(await outcome(hook, await sign(privateKey, "RS256", { preferred_username: "al" }))).toEqual({ id: "alice", name: "al" });
    expect(await outcome(hook, await sign(privateKey, "RS256"))).toEqual({ id: "alice" });
  });

  it("refuses an expired token", async () => {
    expect(await outcome(hook, await sign(privateKey, "RS256", {}, { expires: Math.floor(Date.now() / 1000) - 60 }))).toEqual(refused(/expired/));
  });

  it("accepts a token expired within the clock tolerance", async () => {
    const tolerant = jwtAuth({ key: publicPem, issuer, audience, clockTolerance: 120 });
    expect(await outcome(tolerant, await sign(privateKey, "RS256", {}, { expires: Math.floor(Date.now() / 1000) - 60 }))).toEqual({ id: "alice" });
  });

  it("refuses a token without an expiry", async () => {
    expect(await outcome(hook, await sign(privateKey, "RS256", {}, { expires: null }))).toEqual(refused(/no "exp" claim/));
  });

  it("refuses a token for another audience", async () => {
    expect(await outcome(hook, await sign(privateKey, "RS256", {}, { audience: "another-service" }))).toEqual(refused(/another audience/));
  });

  it("leaves a token of another issuer to other hooks", async () => {
    expect(await outcome(hook, await sign(privateKey, "RS256", {}, { issuer: "https://elsewhere.example.com/" }))).toBeUndefined();
  });

  it("refuses a token signed by another key", async () => {
    expect(await outcome(hook, await sign(otherKey, "RS256"))).toEqual(refused(/signature does not verify/));
  });

  it("refuses a token with its payload changed after signing", async () => {
    const [header, , signature] = (await sign(privateKey, "RS256")).split(".");
    const payload = Buffer.from(JSON.stringify({ sub: "mallory", iss: issuer, aud: audience, exp: Math.floor(Date.now() / 1000) + 300 })).toString("base64url");
    expect(await outcome(hook, `${header}.${payload}.${signature}`)).toEqual(refused(/signature does not verify/));
  });

  it("refuses a token without a subject", async () => {
    expect(await outcome(hook, await sign(privateKey, "RS256", { sub: undefined }))).toEqual(refused(/no subject/));
  });

  it("refuses HS256 signed with the public key as its secret, and an unsigned token", async () => {
    const confused = await sign(new TextEncoder().encode(publicPem), "HS256");
    expect(await outcome(hook, confused)).toEqual(refused(/algorithm this server does not accept/));
    const unsigned = new UnsecuredJWT({ sub: "alice" }).setIssuer(issuer).setAudience(audience).setExpirationTime("5m").encode();
    expect(await outcome(hook, unsigned)).toEqual(refused(/./));
  });

  it("leaves requests without a JWT to other hooks", async () => {
    expect(await outcome(hook, "an-opaque-token")).toBeUndefined();
    expect(await outcome(hook, "not.a.jwt")).toBeUndefined();
    expect(await hook(new Request("http://127.0.0.1/acp"))).toBeUndefined();
  });

  it("maps claims with a principal function of one's own, and refuses when it gives none", async () => {
    const mapped = jwtAuth({ key: publicPem, issuer, audience, principal: (claims) => (claims["team"] === "core" ? { id: `${String(claims.iss)}#${String(claims.sub)}` } : undefined) });
    expect(await outcome(mapped, await sign(privateKey, "RS256", { team: "core" }))).toEqual({ id: `${issuer}#alice` });
    expect(await outcome(mapped, await sign(privateKey, "RS256", { team: "other" }))).toEqual(refused(/stands for nobody/));
  });

  it("accepts only the algorithms it is given", async () => {
    const ps256Only = jwtAuth({ key: publicPem, issuer, audience, algorithms: ["PS256"] });
    expect(await outcome(ps256Only, await sign(privateKey, "RS256"))).toEqual(refused(/algorithm this server does not accept/));
  });
});

describe("jwtAuth with an ES256 public key", () => {
  it("accepts a token signed by its private key and refuses one by another", async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    const hook = jwtAuth({ key: await exportSPKI(pair.publicKey), issuer, audience });
    expect(await outcome(hook, await sign(pair.privateKey, "ES256"))).toEqual({ id: "alice" });
    expect(await outcome(hook, await sign((await generateKeyPair("ES256")).privateKey, "ES256"))).toEqual(refused(/signature does not verify/));
  });
});

describe("jwtAuth with an HS256 secret", () => {
  const secret = "a-shared-secret-of-at-least-32-bytes!";
  const hook = jwtAuth({ key: secret, issuer: [issuer, "https://second.example.com/"], audience });

  it("accepts a token signed with the secret, from any of its issuers", async () => {
    expect(await outcome(hook, await sign(new TextEncoder().encode(secret), "HS256"))).toEqual({ id: "alice" });
    expect(await outcome(hook, await sign(new TextEncoder().encode(secret), "HS256", {}, { issuer: "https://second.example.com/" }))).toEqual({ id: "alice" });
  });

  it("refuses a token signed with another secret, and an expired one", async () => {
    expect(await outcome(hook, await sign(new TextEncoder().encode(`${secret}-other`), "HS256"))).toEqual(refused(/signature does not verify/));
    expect(await outcome(hook, await sign(new TextEncoder().encode(secret), "HS256", {}, { expires: Math.floor(Date.now() / 1000) - 5 }))).toEqual(refused(/expired/));
  });

  it("refuses an RS256 token", async () => {
    expect(await outcome(hook, await sign((await generateKeyPair("RS256")).privateKey, "RS256"))).toEqual(refused(/algorithm this server does not accept/));
  });
});

describe("jwtAuth options", () => {
  it("needs exactly one of jwks and key", () => {
    expect(() => jwtAuth({ issuer, audience })).toThrow(/exactly one of jwks/);
    expect(() => jwtAuth({ issuer, audience, key: "x".repeat(32), jwks: "https://id.example.com/jwks" })).toThrow(/exactly one of jwks/);
  });

  it("needs an issuer and an audience", () => {
    expect(() => jwtAuth({ issuer: "", audience, key: "x".repeat(32) })).toThrow(/issuer and an audience/);
    expect(() => jwtAuth({ issuer, audience: [], key: "x".repeat(32) })).toThrow(/issuer and an audience/);
  });

  it("refuses a secret shorter than 32 bytes, a key that is not PEM, and a JWKS in the clear", () => {
    expect(() => jwtAuth({ issuer, audience, key: "short" })).toThrow(/5 bytes; HS256 needs at least 32/);
    expect(() => jwtAuth({ issuer, audience, key: "-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----" })).toThrow(/not a PEM public key/);
    expect(() => jwtAuth({ issuer, audience, jwks: "http://id.example.com/jwks" })).toThrow(/must be an https URL/);
    expect(() => jwtAuth({ issuer, audience, jwks: "not a url" })).toThrow(/not a URL/);
    expect(() => jwtAuth({ issuer, audience, jwks: "http://127.0.0.1:9/jwks" })).not.toThrow();
  });
});
