import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { limitRequestsInFlight, TOO_MANY_REQUESTS_CODE } from "./requests-in-flight.js";

/** A connection's two ends as the transport holds them: what it delivers, and what the agent wrote. */
function connection(limits: Parameters<typeof limitRequestsInFlight>[1]) {
  let push!: (message: AnyMessage) => void;
  const source = new ReadableStream<AnyMessage>({ start: (controller) => void (push = (message) => controller.enqueue(message)) });
  const written: AnyMessage[] = [];
  const sink = new WritableStream<AnyMessage>({ write: (message) => void written.push(message) });
  const limited = limitRequestsInFlight({ readable: source, writable: sink }, limits);
  const reader = limited.readable.getReader();
  const writer = limited.writable.getWriter();
  const seen: AnyMessage[] = [];
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        return;
      }
      seen.push(value);
    }
  })();
  const request = (id: number): AnyMessage => ({ jsonrpc: "2.0", id, method: "session/list", params: {} });
  const answer = (id: number) => writer.write({ jsonrpc: "2.0", id, result: {} });
  return { push, request, answer, seen, written };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("limitRequestsInFlight", () => {
  it("holds requests past the limit until earlier ones are answered, in order", async () => {
    const link = connection({ maxInFlight: 2 });
    for (const id of [1, 2, 3, 4]) {
      link.push(link.request(id));
    }
    await expect.poll(() => link.seen.length).toBe(2);
    await turn();
    expect(link.seen.map((message) => (message as { id: number }).id)).toEqual([1, 2]);
    await link.answer(1);
    await expect.poll(() => link.seen.length).toBe(3);
    await link.answer(2);
    await expect.poll(() => link.seen.map((message) => (message as { id: number }).id)).toEqual([1, 2, 3, 4]);
    expect(link.written).toHaveLength(2);
  });

  it("never holds responses or notifications behind waiting requests", async () => {
    const link = connection({ maxInFlight: 1 });
    link.push(link.request(1));
    link.push(link.request(2));
    link.push({ jsonrpc: "2.0", id: 0, result: { outcome: { outcome: "cancelled" } } });
    link.push({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } });
    await expect.poll(() => link.seen.length).toBe(3);
    expect(link.seen.map((message) => ("method" in message ? message.method : "response"))).toEqual(["session/list", "response", "session/cancel"]);
  });

  it("answers a request past the queue's limit with an error at once", async () => {
    const link = connection({ maxInFlight: 1, maxQueued: 1 });
    for (const id of [1, 2, 3]) {
      link.push(link.request(id));
    }
    await expect.poll(() => link.written).toEqual([{ jsonrpc: "2.0", id: 3, error: { code: TOO_MANY_REQUESTS_CODE, message: expect.stringContaining("Too many requests") } }]);
    expect(link.seen).toHaveLength(1);
  });
});
