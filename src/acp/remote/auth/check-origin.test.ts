import { describe, expect, it } from "vitest";

import { checkOrigin } from "./check-origin.js";

function from(origin?: string): Request {
  return new Request("http://127.0.0.1:8123/acp", { method: "POST", headers: origin === undefined ? {} : { origin } });
}

describe("checkOrigin", () => {
  it("lets a request without an Origin through: it is not from a browser page", () => {
    expect(checkOrigin(from(), undefined)).toBe(true);
    expect(checkOrigin(from(), ["https://app.example.com"])).toBe(true);
  });

  it("lets pages on the loopback through by default, on any port", () => {
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:5173", "http://[::1]:8080", "http://localhost", "https://localhost:8443"]) {
      expect(checkOrigin(from(origin), undefined), origin).toBe(true);
    }
  });

  it("refuses other pages by default, including names that only start like loopback", () => {
    for (const origin of ["https://evil.example", "http://localhost.evil.example", "http://127.0.0.1.evil.example", "http://192.168.1.5:3000", "ws://localhost:3000", "not a url", "null"]) {
      expect(checkOrigin(from(origin), undefined), origin).toBe(false);
    }
  });

  it("lets through exactly the allowed origins once a list is given, and loopback no longer", () => {
    const allowed = ["https://app.example.com", "http://localhost:3000"];
    expect(checkOrigin(from("https://app.example.com"), allowed)).toBe(true);
    expect(checkOrigin(from("https://APP.example.com:443"), allowed)).toBe(true);
    expect(checkOrigin(from("http://localhost:3000"), allowed)).toBe(true);
    expect(checkOrigin(from("http://localhost:3001"), allowed)).toBe(false);
    expect(checkOrigin(from("http://app.example.com"), allowed)).toBe(false);
    expect(checkOrigin(from("https://other.example.com"), allowed)).toBe(false);
    expect(checkOrigin(from("https://other.example.com"), [])).toBe(false);
  });

  it("lets the server's own origin through", () => {
    expect(checkOrigin(from("https://agent.example.com"), undefined, "https://agent.example.com/acp")).toBe(true);
    expect(checkOrigin(from("https://agent.example.com"), [], new URL("https://agent.example.com:443/"))).toBe(true);
    expect(checkOrigin(from("https://other.example.com"), undefined, "https://agent.example.com/acp")).toBe(false);
  });

  it("lets Origin: null through only when the list names it", () => {
    expect(checkOrigin(from("null"), ["null"])).toBe(true);
    expect(checkOrigin(from("null"), ["https://app.example.com"])).toBe(false);
  });
});
