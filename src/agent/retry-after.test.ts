import { describe, expect, it } from "vitest";

import { retryAfterMs } from "./retry-after.js";

const now = Date.parse("2026-05-01T12:00:00Z");

describe("retryAfterMs", () => {
  it("reads retry-after-ms in milliseconds, before retry-after", () => {
    expect(retryAfterMs({ "retry-after-ms": "1500", "retry-after": "9" }, now)).toBe(1500);
    expect(retryAfterMs({ "retry-after-ms": "20.2" }, now)).toBe(21);
  });

  it("reads retry-after in seconds", () => {
    expect(retryAfterMs({ "retry-after": "2" }, now)).toBe(2000);
    expect(retryAfterMs({ "retry-after": " 0.5 " }, now)).toBe(500);
  });

  it("reads retry-after as an HTTP date, a past date asking for no wait", () => {
    expect(retryAfterMs({ "retry-after": "Fri, 01 May 2026 12:00:03 GMT" }, now)).toBe(3000);
    expect(retryAfterMs({ "retry-after": "Fri, 01 May 2026 11:00:00 GMT" }, now)).toBe(0);
  });

  it("finds the header whatever its case", () => {
    expect(retryAfterMs({ "Retry-After": "4" }, now)).toBe(4000);
  });

  it("gives undefined when there is no header or it cannot be read", () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs({}, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "-3" }, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after-ms": "x", "retry-after": "1" }, now)).toBe(1000);
  });
});
