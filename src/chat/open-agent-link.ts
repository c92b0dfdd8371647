// Opens `weft chat`'s link to its agent (agent-link.ts): the agent's process started here, or a
// connection to the remote agent at a URL (remote-agent.ts, loaded only then).

import * as acp from "@agentclientprotocol/sdk";

import type { AgentLink, AgentLinkOptions, AgentTarget } from "./agent-link.js";
import { AgentProcess } from "./agent-process.js";

/** Opens a link to `target`; throws only if it cannot even be tried (no command). */
export async function openAgentLink(target: AgentTarget, options: AgentLinkOptions): Promise<AgentLink> {
  if ("url" in target) {
    // The SDK's client transports (and ws) load only when a URL is given.
    const { connectRemoteAgent } = await import("./remote-agent.js");
    return connectRemoteAgent(target, options);
  }
  return startedAgentLink(new AgentProcess({ command: target.command, cwd: options.cwd, env: options.env, fromAgent: options.fromAgent, toAgent: options.toAgent, log: target.log }), target.command);
}

function startedAgentLink(agentProcess: AgentProcess, command: readonly string[]): AgentLink {
  let gone = false;
  const ended = agentProcess.exited.then(async () => {
    gone = true;
    return agentProcess.goneMessage();
  });
  return {
    stream: acp.ndJsonStream(agentProcess.writable, agentProcess.readable),
    label: command[0] ?? "agent",
    ended,
    get gone() {
      return gone || agentProcess.gone;
    },
    close: (graceMs = 3_000) => agentProcess.stop(graceMs),
  };
}
