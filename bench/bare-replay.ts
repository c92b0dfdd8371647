// What sending N session/update notifications costs the SDK alone: the bare agent streams N
// chunks from a fresh process. It is the floor under a replay of N updates.

import * as acp from "@agentclientprotocol/sdk";

import { spawnAgent } from "./agent-client.js";
import { median } from "./stats.js";
import type { AgentCommand } from "./startup.js";

export async function coldNotifications(bare: AgentCommand, count: number, runs: number): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const agent = spawnAgent(bare.command, bare.args, bare.env);
    try {
      const client = agent.connection.agent;
      await client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await client.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
      const started = performance.now();
      await client.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: `stream ${count}` }] });
      if (run > 0) {
        times.push(performance.now() - started);
      }
    } finally {
      await agent.stop();
    }
  }
  return median(times);
}
