// Streaming throughput: agent_message_chunks per second from prompt to answer, for a prompt that
// makes the agent stream N one-character chunks, read by the official SDK client.

import * as acp from "@agentclientprotocol/sdk";

import { spawnAgent } from "./agent-client.js";
import { median } from "./stats.js";
import type { AgentCommand } from "./startup.js";

export async function chunksPerSecond(agent: AgentCommand, chunks: number, runs: number): Promise<number> {
  const process = spawnAgent(agent.command, agent.args, agent.env);
  try {
    const client = process.connection.agent;
    await client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await client.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
    const rates: number[] = [];
    for (let run = 0; run <= runs; run++) {
      const before = process.updates;
      const started = performance.now();
      await client.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: `stream ${chunks}` }] });
      const seconds = (performance.now() - started) / 1000;
      // The client runs notification handlers without waiting; let the last ones land.
      while (process.updates - before < chunks) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (run > 0) {
        rates.push(chunks / seconds);
      }
    }
    return median(rates);
  } finally {
    await process.stop();
  }
}
