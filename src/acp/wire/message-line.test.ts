// messageLine(): every message the SDK hands the output becomes one line of JSON or a note, never
// a throw; an error's data is bounded.

import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { boundedData, jsonPreview, messageLine } from "./message-line.js";

const nested = (depth: number): unknown => {
  let value: unknown = [];
  for (let level = 1; level < depth; level += 1) {
    value = [value];
  }
  return value;
};

const parsed = (line: string | undefined) => JSON.parse(line ?? "null") as Record<string, unknown>;

describe("messageLine", () => {
  it("writes an ordinary message as JSON.stringify does, on one line", () => {
    const message: AnyMessage = { jsonrpc: "2.0", id: 3, result: { text: "a\nb\u2028", list: [1, undefined, null], skip: undefined } };
    expect(messageLine(message)).toEqual({ line: `${JSON.stringify(message)}\n` });
  });

  it("keeps an error's small data and cuts large or deep data to a short preview", () => {
    const small = { jsonrpc: "2.0" as const, id: 1, error: { code: -32602, message: "Invalid params", data: { prompt: { _errors: ["bad"] } } } };
    expect(messageLine(small)).toEqual({ line: `${JSON.stringify(small)}\n` });

    // The SDK echoes a message it cannot read: 5,000 levels deep, or megabytes long.
    for (const data of [nested(5000), { params: "x".repeat(5_000_000) }, Array.from({ length: 100_000 }, (_, index) => index)]) {
      const written = messageLine({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request", data } });
      expect(written.line?.length).toBeLessThan(2000);
      const error = parsed(written.line).error as { code: number; message: string; data: { truncated: boolean; preview: string } };
      expect(error).toMatchObject({ code: -32600, message: "Invalid request", data: { truncated: true } });
      expect(error.data.preview.length).toBeLessThanOrEqual(1024);
      expect(written.note?.level).toBe("debug");
    }
  });

  it("answers a request with a small error when its result cannot be JSON: a cycle, a BigInt, nesting too deep", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    for (const result of [cyclic, { count: 10n }, nested(10_000)]) {
      const written = messageLine({ jsonrpc: "2.0", id: "r1", result });
      expect(parsed(written.line)).toEqual({ jsonrpc: "2.0", id: "r1", error: { code: -32603, message: "Internal error: the agent's answer could not be written as JSON" } });
      expect(written.note?.level).toBe("error");
    }
  });

  it("drops a notification or a request of the agent's that cannot be JSON, naming the request it never sent", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.again = cyclic;
    const notification = messageLine({ jsonrpc: "2.0", method: "session/update", params: cyclic });
    expect(notification.line).toBeUndefined();
    expect(notification.unsent).toBeUndefined();
    expect(notification.note?.message).toMatch(/notification session\/update could not be written as JSON/);
    const request = messageLine({ jsonrpc: "2.0", id: 7, method: "session/request_permission", params: { big: 1n } });
    expect(request.line).toBeUndefined();
    expect(request.unsent).toBe(7);
  });

  it("bounds the work of a preview by its budget", () => {
    expect(jsonPreview({ a: [1, "two", null, true, undefined], b: undefined, c: new Date(0) }, 1000)).toEqual({
      text: JSON.stringify({ a: [1, "two", null, true, undefined], b: undefined, c: new Date(0) }),
      complete: true,
    });
    expect(jsonPreview("x".repeat(10), 5)).toMatchObject({ text: '"xxxx', complete: false });
    expect(boundedData({ many: Array.from({ length: 1000 }, () => ({})) }, 100)).toEqual({ truncated: true, preview: expect.stringMatching(/^\{"many":\[\{\},/) });
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(boundedData(cyclic, 100)).toEqual({ truncated: true, preview: "it refers to itself" });
  });
});
