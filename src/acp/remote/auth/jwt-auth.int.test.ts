// jwtAuth against a JWKS served over real HTTP, as an identity provider publishes its keys.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { HttpRefusal } from "./http-refusal.js";
import { jwtAuth } from "./jwt-auth.js";

const issuer = "https://id.example.com/";
const audience = "weft-agent";

function withToken(token: string): Request {
  return new Request("http://127.0.0.1/acp", { method: "POST", headers: { authorization: `Bearer ${token}` } });
}

function sign(key: CryptoKey, kid: string, alg: string, options: { issuer?: string; expires?: number } = {}): Promise<string> {
  return new SignJWT({ sub: "alice", name: "Alice" })
    .setProtectedHeader({ alg, kid })
    .setIssuer(options.issuer ?? issuer)
    .setAudience(audience)
    .setExpirationTime(options.expires ?? "5m")
    .sign(key);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("jwtAuth with a JWKS URL", () => {
  let rsa: CryptoKey;
  let ec: CryptoKey;
  let server: Server;
  let url: string;
  let fetches = 0;

  beforeAll(async () => {
    const rsaPair = await generateKeyPair("RS256", { extractable: true });
    const ecPair = await generateKeyPair("ES256", { extractable: true });
    rsa = rsaPair.privateKey;
    ec = ecPair.privateKey;
    const keys = [
      { ...(await exportJWK(rsaPair.publicKey)), kid: "rsa-1", alg: "RS256", use: "sig" },
      { ...(await exportJWK(ecPair.publicKey)), kid: "ec-1", alg: "ES256", use: "sig" },
    ];
    server = createServer((request, response) => {
      if (request.url !== "/.well-known/jwks.json") {
        response.writeHead(404).end();
        return;
      }
      fetches += 1;
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys }));
    });
    url = `${await listen(server)}/.well-known/jwks.json`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("verifies tokens signed by each key of the set, fetching the set once", async () => {
    const hook = jwtAuth({ jwks: url, issuer, audience });
    const before = fetches;
    expect(await hook(withToken(await sign(rsa, "rsa-1", "RS256")))).toEqual({ id: "alice", name: "Alice" });
    expect(await hook(withToken(await sign(ec, "ec-1", "ES256")))).toEqual({ id: "alice", name: "Alice" });
    expect(fetches - before).toBe(1);
  });

  it("refuses a token signed by a key not in the set, and an expired one", async () => {
    const hook = jwtAuth({ jwks: new URL(url), issuer, audience });
    const stranger = (await generateKeyPair("RS256")).privateKey;
    await expect(hook(withToken(await sign(stranger, "rsa-1", "RS256")))).rejects.toMatchObject({ status: 401, message: expect.stringMatching(/signature does not verify/) });
    await expect(hook(withToken(await sign(stranger, "rsa-unknown", "RS256")))).rejects.toMatchObject({ status: 401, message: expect.stringMatching(/signature does not verify/) });
    await expect(hook(withToken(await sign(rsa, "rsa-1", "RS256", { expires: Math.floor(Date.now() / 1000) - 60 })))).rejects.toMatchObject({ status: 401, message: expect.stringMatching(/expired/) });
  });

  it("does not fetch the set for a token of another issuer", async () => {
    const hook = jwtAuth({ jwks: url, issuer, audience });
    const before = fetches;
    expect(await hook(withToken(await sign(rsa, "rsa-1", "RS256", { issuer: "https://elsewhere.example.com/" })))).toBeUndefined();
    expect(fetches).toBe(before);
  });

  it("throws a key set that cannot be fetched as the server's failure, not a refusal", async () => {
    const closed = createServer();
    const gone = `${await listen(closed)}/jwks.json`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const hook = jwtAuth({ jwks: gone, issuer, audience });
    const error: unknown = await Promise.resolve(hook(withToken(await sign(rsa, "rsa-1", "RS256")))).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(Error);
    expect(HttpRefusal.isInstance(error)).toBe(false);
  });
});
