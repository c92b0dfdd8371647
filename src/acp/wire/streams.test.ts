// toSdkStream() under the official SDK's agent app, fed raw lines as a hostile editor would write
// them: lines over the limits are answered and skipped, anything the SDK hands the output is
// written or answered without ending the connection, and the wire says why it broke when it does.
// Lines go out in writes of up to 64 KiB, and writers wait only once 1 MiB waits in the output.

import { PassThrough, Writable } from "node:stream";

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { lineSplitter } from "../../../test/support/lines.js";
import type { Logger } from "../../types/logger.js";
import { OUTPUT_BUFFER_BYTES, OUTPUT_CHUNK_CHARS } from "./line-writer.js";
import { toSdkStream, type AcpStreams, type AcpWireOptions } from "./streams.js";

type Json = Record<string, unknown>;

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string) => {
    lines.push(message);
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

function connect(app: acp.AgentApp, options: AcpWireOptions = {}, streams?: AcpStreams) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  const split = lineSplitter((line) => lines.push(line));
  output.on("data", (chunk: Buffer) => split.push(chunk));
  const wire = toSdkStream(streams ?? { input, output }, options);
  const connection = app.connect(wire.stream);
  const answers = () => lines.map((line) => JSON.parse(line) as Json);
  return {
    wire,
    connection,
    input,
    lines,
    write: (line: string) => input.write(`${line}\n`),
    answer: async (id: string | number | null, nth = 0): Promise<Json> => {
      await expect.poll(() => answers().filter((message) => message.id === id && !("method" in message)).length, { timeout: 5000 }).toBeGreaterThan(nth);
      return answers().filter((message) => message.id === id && !("method" in message))[nth] as Json;
    },
  };
}

const request = (id: string | number, method: string, params: unknown = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

function echoAgent(): acp.AgentApp {
  return acp
    .agent({ name: "echo" })
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: 1 }))
    .onRequest(acp.methods.agent.session.new, () => ({ sessionId: "s1" }));
}

describe("toSdkStream", () => {
  it("answers a line nested too deep with its id, and reads on", async () => {
    const logger = recordingLogger();
    const agent = connect(echoAgent(), { logger });
    agent.write(`{"jsonrpc":"2.0","id":"deep","method":"session/new","params":{"cwd":${nested(5000)}}}`);
    agent.write(request(1, "initialize", { protocolVersion: 1 }));
    expect(await agent.answer("deep")).toEqual({
      jsonrpc: "2.0",
      id: "deep",
      error: { code: -32600, message: "Invalid request: the request is nested deeper than 128 levels", data: { maxDepth: 128 } },
    });
    expect((await agent.answer(1)).result).toEqual({ protocolVersion: 1 });
    expect(logger.lines).toContainEqual(expect.stringMatching(/session\/new .* nested deeper than 128 levels/));
    agent.connection.close();
  });

  it("answers a line too long without reading it whole, and reads on at the next line", async () => {
    const agent = connect(echoAgent(), { limits: { maxBytes: 4096 } });
    agent.write(request(1, "initialize", { protocolVersion: 1 }));
    await agent.answer(1);
    const padding = "x".repeat(1024);
    agent.input.write(`{"jsonrpc":"2.0","method":"session/new","params":{"cwd":"`);
    for (let chunk = 0; chunk < 64; chunk += 1) {
      agent.input.write(padding);
    }
    agent.input.write(`"},"id":"long"}\n${request(2, "session/new", { cwd: "/tmp", mcpServers: [] })}\n`);
    expect((await agent.answer("long")).error).toEqual({ code: -32600, message: "Invalid request: the request is longer than 4096 bytes", data: { maxBytes: 4096 } });
    expect((await agent.answer(2)).result).toEqual({ sessionId: "s1" });
    agent.connection.close();
  });

  it("cuts the SDK's echo of a message it cannot read to a small error, however deep or long", async () => {
    // Limits raised so that the SDK itself sees the message: the writer alone must cope.
    const agent = connect(echoAgent(), { limits: { maxDepth: 100_000 } });
    agent.write(`{"jsonrpc":"1.0","id":1,"method":"initialize","params":${nested(5000)}}`);
    agent.write(`{"not":"a request","padding":"${"p".repeat(2_000_000)}"}`);
    agent.write(`"${"s".repeat(2_000_000)}"`);
    agent.write(request(2, "initialize", { protocolVersion: 1 }));
    expect((await agent.answer(2)).result).toEqual({ protocolVersion: 1 });
    const errors = agent.lines.filter((line) => line.includes('"id":null'));
    expect(errors).toHaveLength(3);
    for (const line of errors) {
      expect(line.length).toBeLessThan(2000);
      expect(JSON.parse(line)).toMatchObject({ id: null, error: { code: -32600, data: { truncated: true, preview: expect.any(String) } } });
    }
    agent.connection.close();
  });

  it("answers a request whose result cannot be JSON with -32603, and the connection goes on", async () => {
    const cyclic: Json = { name: "loop" };
    cyclic.self = cyclic;
    const logger = recordingLogger();
    const app = acp
      .agent({ name: "cyclic" })
      .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: 1, _meta: cyclic }))
      .onRequest(acp.methods.agent.session.new, () => ({ sessionId: "s1", _meta: { big: 1n } }));
    const agent = connect(app, { logger });
    agent.write(request(1, "initialize", { protocolVersion: 1 }));
    agent.write(request(2, "session/new", { cwd: "/tmp", mcpServers: [] }));
    agent.write(request(3, "no/such_method"));
    expect(await agent.answer(1)).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error: the agent's answer could not be written as JSON" } });
    expect((await agent.answer(2)).error).toMatchObject({ code: -32603 });
    expect((await agent.answer(3)).error).toMatchObject({ code: -32601 });
    expect(logger.lines).toContainEqual(expect.stringMatching(/answer to request 1 could not be written as JSON/));
    agent.connection.close();
  });

  it("drops a notification that cannot be JSON, and fails at once a request of the agent's that cannot be", async () => {
    const cyclic: Json = {};
    cyclic.again = cyclic;
    const logger = recordingLogger();
    const app = echoAgent().onRequest(acp.methods.agent.session.prompt, async ({ client }) => {
      await client.notify(acp.methods.client.session.update, { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x", _meta: cyclic } } });
      try {
        await client.request(acp.methods.client.session.requestPermission, {
          sessionId: "s1",
          toolCall: { toolCallId: "t", rawInput: { big: 1n } },
          options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }],
        });
        return { stopReason: "end_turn" };
      } catch (error) {
        return { stopReason: "refusal", _meta: { error: (error as Error).message } };
      }
    });
    const agent = connect(app, { logger });
    agent.write(request(1, "initialize", { protocolVersion: 1 }));
    agent.write(request(2, "session/prompt", { sessionId: "s1", prompt: [{ type: "text", text: "go" }] }));
    expect((await agent.answer(2)).result).toEqual({ stopReason: "refusal", _meta: { error: "Internal error: the agent's request could not be written as JSON" } });
    expect(agent.lines.filter((line) => line.includes('"method"'))).toEqual([]);
    expect(logger.lines).toEqual([
      expect.stringMatching(/notification session\/update could not be written/),
      expect.stringMatching(/request session\/request_permission could not be written/),
    ]);
    agent.connection.close();
  });

  it("fails the agent's request when the editor's answer to it is over the limits", async () => {
    const app = echoAgent().onRequest(acp.methods.agent.session.prompt, async ({ client }) => {
      try {
        await client.request(acp.methods.client.fs.readTextFile, { sessionId: "s1", path: "/tmp/x" });
        return { stopReason: "end_turn" };
      } catch (error) {
        return { stopReason: "refusal", _meta: { error: (error as Error).message } };
      }
    });
    const agent = connect(app);
    agent.write(request(1, "initialize", { protocolVersion: 1 }));
    agent.write(request(2, "session/prompt", { sessionId: "s1", prompt: [{ type: "text", text: "go" }] }));
    await expect.poll(() => agent.lines.some((line) => line.includes('"method":"fs/read_text_file"'))).toBe(true);
    agent.write(`{"jsonrpc":"2.0","id":0,"result":{"content":${nested(500)}}}`);
    expect((await agent.answer(2)).result).toEqual({ stopReason: "refusal", _meta: { error: "Invalid request: the editor's answer is nested deeper than 128 levels" } });
    agent.connection.close();
  });

  it("says nothing broke when the editor ends its side", async () => {
    const agent = connect(echoAgent());
    agent.write(request(1, "initialize", { protocolVersion: 1 }));
    await agent.answer(1);
    agent.input.end();
    await agent.connection.closed;
    expect(agent.wire.ended()).toBe(true);
    expect(agent.wire.failure()).toBeUndefined();
  });

  it("says why when reading from the editor fails, or writing to it", async () => {
    async function* failing(): AsyncGenerator<string> {
      yield `${request(1, "initialize", { protocolVersion: 1 })}\n`;
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error("read EIO");
    }
    const output = new PassThrough();
    const reading = connect(echoAgent(), {}, { input: failing(), output });
    await reading.connection.closed;
    expect(reading.wire.failure()).toMatchObject({ name: "AcpConnectionError", code: "input_failed", message: "Reading from the editor failed: read EIO" });
    expect(reading.wire.ended()).toBe(false);

    const input = new PassThrough();
    let writes = 0;
    const writing = connect(echoAgent(), {}, {
      input,
      output: {
        write: () => {
          writes += 1;
          throw new Error("write EPIPE");
        },
      },
    });
    input.write(`${request(1, "initialize", { protocolVersion: 1 })}\n`);
    await expect.poll(() => writes).toBe(1);
    input.write(`${request(2, "initialize", { protocolVersion: 1 })}\n`);
    await writing.connection.closed;
    expect(writing.wire.failure()).toMatchObject({ code: "output_failed", message: "Writing to the editor failed: write EPIPE" });
  });

  it("writes lines as they come, in one write per turn of the event loop or per 64 KiB, in order", async () => {
    const writes: string[] = [];
    const wire = toSdkStream({ input: new PassThrough(), output: { write: (chunk: string) => void writes.push(chunk) } });
    const line = (index: number, size: number) => `${JSON.stringify({ index, text: "x".repeat(size) })}\n`;
    expect(wire.writeLines(line(0, 10))).toBeUndefined();
    expect(wire.writeLines(line(1, 10))).toBeUndefined();
    // Small lines wait for the end of the turn, to go out together.
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([line(0, 10) + line(1, 10)]);
    // Enough for a write of its own goes out at once, with what was waiting before it.
    expect(wire.writeLines(line(2, 10))).toBeUndefined();
    expect(wire.writeLines(line(3, OUTPUT_CHUNK_CHARS))).toBeUndefined();
    expect(writes).toEqual([line(0, 10) + line(1, 10), line(2, 10) + line(3, OUTPUT_CHUNK_CHARS)]);
    expect(wire.writeLines(line(4, 10))).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.join("")).toBe([0, 1, 2, 3, 4].map((index) => line(index, index === 3 ? OUTPUT_CHUNK_CHARS : 10)).join(""));
  });

  it("makes writers wait once more than 1 MiB waits in the output's buffer, until it drains", async () => {
    const held: Array<() => void> = [];
    let received = 0;
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        held.push(done);
      },
    });
    const wire = toSdkStream({ input: new PassThrough(), output });
    const chunk = `${JSON.stringify({ text: "x".repeat(OUTPUT_CHUNK_CHARS) })}\n`;
    let wait: Promise<void> | undefined;
    let written = 0;
    while (!wait && written < 4 * OUTPUT_BUFFER_BYTES) {
      wait = wire.writeLines(chunk);
      written += chunk.length;
    }
    // Past the output's own high-water mark the writer goes on; it waits only past 1 MiB.
    expect(written).toBeGreaterThan(OUTPUT_BUFFER_BYTES);
    expect(written).toBeLessThan(OUTPUT_BUFFER_BYTES + 2 * chunk.length);
    let resolved = false;
    void wait?.then(() => (resolved = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(resolved).toBe(false);
    // A writer that comes meanwhile waits for the same drain.
    expect(wire.writeLines(chunk)).toBe(wait);
    while (!resolved) {
      held.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(output.writableLength).toBeLessThan(OUTPUT_BUFFER_BYTES);
    for (let index = 0; index < 100 && held.length > 0; index++) {
      held.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(received).toBe(written + chunk.length);
  });
});
