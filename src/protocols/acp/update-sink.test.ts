// The update sink: every update goes out as the session's `session/update`, in order, without
// waiting on each; every WRITE_WINDOW-th asks its sender to wait; flush() waits for all; a write
// that fails is logged and does not stop the session.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { sdkPair } from "../../../test/support/sdk-pair.js";
import type { Logger } from "../../types/logger.js";
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
});
