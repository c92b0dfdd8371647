// The baseline for the benchmarks: a minimal ACP agent written on the official SDK alone, as an
// integrator would without weft. It answers initialize, creates sessions in a Map, and for a prompt
// "stream N" sends N one-word agent_message_chunks (waiting every 256 for the writes to drain); for
// "replay FILE" it reads FILE (a JSON array of session updates) and sends each one, as an agent
// replaying a kept conversation would.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";

import * as acp from "@agentclientprotocol/sdk";

const sessions = new Map();

const app = acp
  .agent({ name: "bare" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false },
    agentInfo: { name: "bare", version: "1.0.0" },
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    const sessionId = randomUUID();
    sessions.set(sessionId, { cwd: params.cwd, history: [] });
    return { sessionId };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
    const replay = /^replay (.+)$/.exec(text);
    if (replay) {
      const updates = JSON.parse(readFileSync(replay[1], "utf8"));
      let last = Promise.resolve();
      for (let index = 0; index < updates.length; index++) {
        last = client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: updates[index] });
        if (index % 256 === 255) {
          await last;
        }
      }
      await last;
      return { stopReason: "end_turn" };
    }
    const count = Number(/^stream (\d+)/.exec(text)?.[1] ?? 1);
    let last = Promise.resolve();
    for (let index = 0; index < count; index++) {
      last = client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" }, messageId: "m" },
      });
      if (index % 256 === 255) {
        await last;
      }
    }
    await last;
    return { stopReason: "end_turn" };
  })
  .onNotification(acp.methods.agent.session.cancel, () => undefined);

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
