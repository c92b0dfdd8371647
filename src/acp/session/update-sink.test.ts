// The update sink: every update goes out as the session's `session/update`, in order, without
// waiting on each; every WRITE_WINDOW-th asks its sender to wait; flush() waits for all; a write
// that fails is logged and does not stop the session. sendAll() sends a replay's updates: the
// first through the SDK, the rest as the very lines the SDK would write, after it, in 64 KiB writes.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { sdkPair } from "../../../test/support/sdk-pair.js";
import type { Logger } from "../../types/logger.js";
import { OUTPUT_CHUNK_CHARS } from "../wire/line-writer.js";
import { UpdateSink, WRITE_WINDOW } from "./update-sink.js";

function recordingLogger(): Logger & { lines: Array<{ level: string; message: string; fields: Record<string, unknown> | undefined }> } {
  const lines: Array<{ level: string; message: string; fields: Record<string, unknown> | undefined }> = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push({ level, message, fields });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

const chunk = (text: string): acp.SessionUpdate => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });

describe("UpdateSink", () => {
  it("sends each update as the session's notification, in order, and flush() waits for the last one", async () => {
    const written: acp.SessionNotification[] = [];
    const pending: Array<() => void> = [];
    const sink = new UpdateSink(
      "sess_1",
      (notification) =>
        new Promise<void>((resolve) => {
          pending.push(() => {
            written.push(notification);
            resolve();
          });
        }),
      recordingLogger(),
    );
    expect(sink.send(chunk("a"))).toBeUndefined();
    expect(sink.send(chunk("b"))).toBeUndefined();
    let flushed = false;
    void sink.flush().then(() => (flushed = true));
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushed).toBe(false);
    pending.shift()?.();
    await sink.flush();
    expect(flushed).toBe(true);
    expect(written).toEqual([
      { sessionId: "sess_1", update: chunk("a") },
      { sessionId: "sess_1", update: chunk("b") },
    ]);
  });

  it("asks its sender to wait on every WRITE_WINDOW-th update, and only then", async () => {
    const sink = new UpdateSink("sess_1", () => Promise.resolve(), recordingLogger());
    const waits: number[] = [];
    for (let index = 1; index <= WRITE_WINDOW * 2 + 10; index++) {
      if (sink.send(chunk(String(index)))) {
        waits.push(index);
      }
    }
    expect(waits).toEqual([WRITE_WINDOW, WRITE_WINDOW * 2]);
    await sink.flush();
  });

  it("logs a write that fails and carries on, and flush() still resolves", async () => {
    const logger = recordingLogger();
    const sink = new UpdateSink("sess_1", () => Promise.reject(new Error("EPIPE")), logger);
    void sink.send(chunk("lost"));
    await expect(sink.flush()).resolves.toBeUndefined();
    expect(logger.lines).toEqual([{ level: "debug", message: "A session update could not be written", fields: { sessionId: "sess_1", error: "Error: EPIPE" } }]);
  });

  it("reaches an editor through the SDK's connection", async () => {
    const received: acp.SessionNotification[] = [];
    const pair = sdkPair((app) =>
      app.onNotification(acp.methods.client.session.update, ({ params }) => {
        received.push(params);
      }),
    );
    try {
      const sink = new UpdateSink("sess_9", (notification) => pair.agent.client.notify(acp.methods.client.session.update, notification), recordingLogger());
      void sink.send(chunk("hello"));
      void sink.send({ sessionUpdate: "tool_call", toolCallId: "call_1", title: "read_file a.ts", kind: "read", status: "pending" });
      await sink.flush();
      await expect.poll(() => received.length).toBe(2);
      expect(received).toEqual([
        { sessionId: "sess_9", update: chunk("hello") },
        { sessionId: "sess_9", update: { sessionUpdate: "tool_call", toolCallId: "call_1", title: "read_file a.ts", kind: "read", status: "pending" } },
      ]);
    } finally {
      pair.close();
    }
  });

  it("sendAll() without the connection's output sends each update through notify, in order", async () => {
    const written: acp.SessionNotification[] = [];
    const sink = new UpdateSink("sess_1", async (notification) => void written.push(notification), recordingLogger());
    await sink.sendAll([chunk("a"), chunk("b"), chunk("c")]);
    expect(written.map((notification) => notification.update)).toEqual([chunk("a"), chunk("b"), chunk("c")]);
    await sink.sendAll([]);
    expect(written).toHaveLength(3);
  });

  it("sendAll() of a single update without the connection's output resolves once it is written (a replay of a first prompt alone)", async () => {
    const written: acp.SessionNotification[] = [];
    const sink = new UpdateSink("sess_1", async (notification) => void written.push(notification), recordingLogger());
    // It used to wait on itself: a load of a session cut in its first turn never answered over HTTP.
    await sink.sendAll([chunk("only")]);
    expect(written.map((notification) => notification.update)).toEqual([chunk("only")]);
    await sink.flush();
  });

  it("sendAll() sends the first update through notify and, once it is written, the rest as the SDK's own lines, in writes of 64 KiB", async () => {
    const log: string[] = [];
    const writes: string[] = [];
    let release!: () => void;
    const sink = new UpdateSink(
      "sess_1",
      (notification) =>
        new Promise<void>((resolve) => {
          release = () => {
            log.push(`notify ${JSON.stringify(notification)}`);
            resolve();
          };
        }),
      recordingLogger(),
      (text) => {
        log.push("lines");
        writes.push(text);
        return undefined;
      },
    );
    const updates = Array.from({ length: 1000 }, (_, index) => chunk(`${index} ${"x".repeat(200)}`));
    const all = sink.sendAll(updates);
    await new Promise((resolve) => setImmediate(resolve));
    // Nothing is written straight to the output before the first update is out.
    expect(writes).toEqual([]);
    release();
    await all;
    await expect(sink.flush()).resolves.toBeUndefined();
    expect(log[0]).toBe(`notify ${JSON.stringify({ sessionId: "sess_1", update: updates[0] })}`);
    expect(log.slice(1).every((entry) => entry === "lines")).toBe(true);
    // Every write but the last is at least a chunk, and at most a chunk and one line.
    const lineLength = (writes.at(-1) as string).split("\n")[0]?.length ?? 0;
    for (const text of writes.slice(0, -1)) {
      expect(text.length).toBeGreaterThanOrEqual(OUTPUT_CHUNK_CHARS);
      expect(text.length).toBeLessThan(OUTPUT_CHUNK_CHARS + lineLength + 2);
    }
    // The lines are exactly what the SDK writes for a notify: the same keys, in the same order.
    const lines = writes.join("").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toEqual(updates.slice(1).map((update) => JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "sess_1", update } })));
  });

  it("sendAll() comes after the updates sent before it, and waits while the output asks it to", async () => {
    const log: string[] = [];
    const notified: Array<() => void> = [];
    let drained!: () => void;
    let calls = 0;
    const sink = new UpdateSink(
      "sess_1",
      (notification) =>
        new Promise<void>((resolve) => {
          notified.push(() => {
            log.push((notification.update as { content: { text: string } }).content.text);
            resolve();
          });
        }),
      recordingLogger(),
      (text) => {
        calls++;
        log.push(...text.trim().split("\n").map((line) => (JSON.parse(line) as { params: { update: { content: { text: string } } } }).params.update.content.text));
        return calls === 1 ? new Promise<void>((resolve) => (drained = resolve)) : undefined;
      },
    );
    void sink.send(chunk("before 1"));
    void sink.send(chunk("before 2"));
    const big = "y".repeat(OUTPUT_CHUNK_CHARS);
    const all = sink.sendAll([chunk("first"), chunk(`second ${big}`), chunk("third"), chunk("fourth")]);
    for (let index = 0; index < 3; index++) {
      await new Promise((resolve) => setImmediate(resolve));
      notified.shift()?.();
    }
    await expect.poll(() => calls).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    // The output asked it to wait: nothing more until it drains.
    expect(calls).toBe(1);
    drained();
    await all;
    expect(calls).toBe(2);
    expect(log).toEqual(["before 1", "before 2", "first", `second ${big}`, "third", "fourth"]);
  });

  it("sendAll() leaves out an update that cannot be JSON, says so as the wire does, and writes the rest", async () => {
    const logger = recordingLogger();
    const writes: string[] = [];
    const sink = new UpdateSink("sess_1", () => Promise.resolve(), logger, (text) => void writes.push(text));
    // A BigInt has no JSON: a tool's output kept in memory can hold one.
    const broken: acp.SessionUpdate = { sessionUpdate: "tool_call", toolCallId: "call_1", title: "count", rawOutput: { count: 10n } };
    await sink.sendAll([chunk("a"), broken, chunk("b")]);
    expect(writes.join("").trim().split("\n").map((line) => (JSON.parse(line) as { params: { update: unknown } }).params.update)).toEqual([chunk("b")]);
    expect(logger.lines).toEqual([{ level: "error", message: expect.stringContaining("notification session/update could not be written as JSON"), fields: undefined }]);
  });

  it("sendAll() stops and logs once the output has broken, and still resolves", async () => {
    const logger = recordingLogger();
    let calls = 0;
    const sink = new UpdateSink("sess_1", () => Promise.resolve(), logger, () => {
      calls++;
      throw new Error("EPIPE");
    });
    const big = "z".repeat(OUTPUT_CHUNK_CHARS);
    await expect(sink.sendAll([chunk("a"), chunk(big), chunk(big), chunk(big)])).resolves.toBeUndefined();
    expect(calls).toBe(1);
    expect(logger.lines).toEqual([{ level: "debug", message: "A session update could not be written", fields: { sessionId: "sess_1", error: "Error: EPIPE" } }]);
  });
});
