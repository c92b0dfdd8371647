import { describe, expect, it } from "vitest";

import { bearerTokens } from "./bearer-tokens.js";
import { InvalidTokensError } from "./invalid-tokens-error.js";

function withAuthorization(value?: string): Request {
  return new Request("http://127.0.0.1/acp", { method: "POST", headers: value === undefined ? {} : { authorization: value } });
}

describe("bearerTokens", () => {
  const hook = bearerTokens(new Map<string, string | { id: string; name: string }>([
    ["alice-token-1", "alice"],
    ["bob-token-2", { id: "bob", name: "Bob" }],
  ]));

  it("returns the principal a listed token stands for", async () => {
    expect(await hook(withAuthorization("Bearer alice-token-1"))).toEqual({ id: "alice" });
    expect(await hook(withAuthorization("Bearer bob-token-2"))).toEqual({ id: "bob", name: "Bob" });
  });

  it("matches the scheme without regard to case", async () => {
    expect(await hook(withAuthorization("bearer alice-token-1"))).toEqual({ id: "alice" });
  });

  it("gives undefined for a token that is not listed, even one that shares a prefix", async () => {
    expect(await hook(withAuthorization("Bearer alice-token-2"))).toBeUndefined();
    expect(await hook(withAuthorization("Bearer alice-token-1x"))).toBeUndefined();
    expect(await hook(withAuthorization("Bearer alice-token-"))).toBeUndefined();
  });

  it("gives undefined without an Authorization header, for another scheme, and for an empty token", async () => {
    expect(await hook(withAuthorization())).toBeUndefined();
    expect(await hook(withAuthorization(`Basic ${Buffer.from("alice:alice-token-1").toString("base64")}`))).toBeUndefined();
    expect(await hook(withAuthorization("Basic alice-token-1"))).toBeUndefined();
    expect(await hook(withAuthorization("Bearer"))).toBeUndefined();
    expect(await hook(withAuthorization("Bearer "))).toBeUndefined();
  });

  it("gives undefined for two tokens joined in one header", async () => {
    const request = new Request("http://127.0.0.1/acp", { headers: [["authorization", "Bearer alice-token-1"], ["authorization", "Bearer bob-token-2"]] });
    expect(request.headers.get("authorization")).toContain(",");
    expect(await hook(request)).toBeUndefined();
  });

  it("takes a plain object of tokens too", async () => {
    const fromObject = bearerTokens({ "carol-token": "carol" });
    expect(await fromObject(withAuthorization("Bearer carol-token"))).toEqual({ id: "carol" });
  });

  it("refuses at construction an empty token, one a header cannot carry, an empty principal id, and no tokens", () => {
    expect(() => bearerTokens({ "": "alice" })).toThrow(InvalidTokensError);
    expect(() => bearerTokens({ "has space": "alice" })).toThrow(/cannot carry/);
    expect(() => bearerTokens({ token: "" })).toThrow(/empty id/);
    expect(() => bearerTokens({})).toThrow(/no tokens/);
    expect(() => bearerTokens(new Map())).toThrow(/no tokens/);
  });

  it("never puts a token in its errors", () => {
    try {
      bearerTokens({ "secret-token with space": "alice" });
      expect.unreachable();
    } catch (error) {
      expect(InvalidTokensError.isInstance(error)).toBe(true);
      expect((error as Error).message).not.toContain("secret-token");
    }
  });
});
