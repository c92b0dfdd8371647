// Idle memory per open session: the agent's resident memory grows by this much for each session
// opened (and left idle), over many sessions.

import * as acp from "@agentclientprotocol/sdk";

import { spawnAgent } from "./agent-client.js";
import { residentBytes, type AgentCommand } from "./startup.js";

export async function bytesPerSession(agent: AgentCommand, sessions: number): Promise<number> {
  const process = spawnAgent(agent.command, agent.args, agent.env);
  try {
    const client = process.connection.agent;
    await client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    // One session first, so what every session needs once (a store, code paths) is already there.
    for (let index = 0; index < 10; index++) {
      await client.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = residentBytes(process.child.pid as number);
    for (let index = 0; index < sessions; index++) {
      await client.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    return (residentBytes(process.child.pid as number) - before) / sessions;
  } finally {
    await process.stop();
  }
}
