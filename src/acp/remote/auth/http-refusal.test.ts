import { describe, expect, it } from "vitest";

import { WeftError } from "../../../errors/weft-error.js";
import { anyOf } from "./any-of.js";
import { HttpRefusal } from "./http-refusal.js";

describe("HttpRefusal", () => {
  it("becomes a 401 with the weft challenge by default", async () => {
    const refusal = new HttpRefusal(401, "No credentials.");
    expect(refusal.code).toBe("unauthenticated");
    expect(WeftError.isInstance(refusal) && HttpRefusal.isInstance(refusal)).toBe(true);
    const response = refusal.toResponse();
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="weft"');
    expect(await response.text()).toBe("No credentials.\n");
  });

  it("becomes a 403 without a challenge", () => {
    const refusal = new HttpRefusal(403, "Not for this page.", { wwwAuthenticate: 'Bearer realm="ignored"' });
    expect(refusal.code).toBe("forbidden");
    expect(refusal.wwwAuthenticate).toBeUndefined();
    const response = refusal.toResponse();
    expect(response.status).toBe(403);
    expect(response.headers.has("www-authenticate")).toBe(false);
  });

  it("says invalid_token for a bad token, keeping the description a valid quoted string", () => {
    const refusal = HttpRefusal.invalidToken('The token\'s "aud" is \\wrong');
    expect(refusal.status).toBe(401);
    expect(refusal.wwwAuthenticate).toBe(`Bearer realm="weft", error="invalid_token", error_description="The token's 'aud' is 'wrong"`);
    expect(refusal.message).toBe('The token\'s "aud" is \\wrong');
  });
});

describe("anyOf", () => {
  const request = new Request("http://127.0.0.1/acp");
  const alice = () => ({ id: "alice" });
  const nobody = () => undefined;
  const expired = () => {
    throw HttpRefusal.invalidToken("The token has expired.");
  };

  it("returns the first principal a hook gives, asking no further hooks", async () => {
    let asked = 0;
    const counted = () => {
      asked += 1;
      return { id: "bob" };
    };
    expect(await anyOf(nobody, alice, counted)(request)).toEqual({ id: "alice" });
    expect(asked).toBe(0);
  });

  it("goes on past a refusal, and throws the first refusal when no hook gives a principal", async () => {
    expect(await anyOf(expired, async () => alice())(request)).toEqual({ id: "alice" });
    const forbidden = () => {
      throw new HttpRefusal(403, "Not you.");
    };
    await expect(anyOf(nobody, expired, forbidden)(request)).rejects.toMatchObject({ status: 401, message: "The token has expired." });
  });

  it("gives undefined when every hook does", async () => {
    expect(await anyOf(nobody, nobody)(request)).toBeUndefined();
    expect(await anyOf()(request)).toBeUndefined();
  });

  it("lets an error that is not a refusal through at once", async () => {
    const broken = () => {
      throw new Error("key server down");
    };
    await expect(anyOf(broken, alice)(request)).rejects.toThrow("key server down");
  });
});
