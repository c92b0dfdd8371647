// The SDK's agent and client connected to each other in memory, each through its own
// newline-delimited JSON stream: the real wire without a process or a server, for unit tests of
// code that talks to an editor through the agent's side.

import * as acp from "@agentclientprotocol/sdk";

export interface SdkPair {
  /** The agent's side: what code under test calls the editor through. */
  agent: acp.AgentConnection;
  /** The editor's side, with the handlers `configure` gave it. */
  client: acp.ClientConnection;
  close(): void;
}

export function sdkPair(configure: (app: acp.ClientApp) => acp.ClientApp): SdkPair {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const client = configure(acp.client({ name: "editor" })).connect(acp.ndJsonStream(toAgent.writable, toClient.readable));
  const agent = acp.agent({ name: "agent" }).connect(acp.ndJsonStream(toClient.writable, toAgent.readable));
  return {
    agent,
    client,
    close: () => {
      agent.close();
      client.close();
    },
  };
}
