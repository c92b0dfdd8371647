// Token latency: the time from a token leaving the fake model server to its agent_message_chunk
// reaching the client, through `weft acp` and a real AI SDK provider, at a realistic pace and flat out.

import * as acp from "@agentclientprotocol/sdk";

import { FakeModelServer } from "../src/testing/fake-model-server.js";
import { spawnAgent } from "./agent-client.js";
import { median, percentile } from "./stats.js";
import type { AgentCommand } from "./startup.js";

export interface LatencyResult {
  medianMs: number;
  p99Ms: number;
  tokens: number;
}

export async function tokenLatency(weft: AgentCommand, tokens: number, delayMs: number): Promise<LatencyResult> {
  const sent = new Map<string, number>();
  const arrived: number[] = [];
  const words = Array.from({ length: tokens }, (_, index) => `t${index} `);
  const server = await FakeModelServer.start(() => ({ text: words, chunkDelayMs: delayMs }));
  server.onChunk = (text) => sent.set(text, performance.now());
  const agent = spawnAgent(weft.command, weft.args, { ...weft.env, WEFT_MODEL: "openai-compatible:fake", WEFT_BASE_URL: server.url, WEFT_SESSIONS: "memory" });
  try {
    agent.onUpdate = ({ update }) => {
      if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") {
        const leftAt = sent.get(update.content.text);
        if (leftAt !== undefined) {
          arrived.push(performance.now() - leftAt);
        }
      }
    };
    const client = agent.connection.agent;
    await client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await client.request(acp.methods.agent.session.new, { cwd: process.cwd(), mcpServers: [] });
    // A warm-up turn, then the measured one.
    await client.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "warm up" }] });
    arrived.length = 0;
    await client.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] });
    while (arrived.length < tokens) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { medianMs: median(arrived), p99Ms: percentile(arrived, 0.99), tokens };
  } finally {
    await agent.stop();
    await server.close();
  }
}
