// The SDK's agent and client connected to each other in memory, each through its own
// newline-delimited JSON stream: the real wire without a process or a server, for unit tests of
// code that talks to an editor through the agent's side.

import * as acp from "@agentclientprotocol/sdk";
import { afterEach } from "vitest";

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

/** `sdkPair` for the tests of the calling file: each pair it makes is closed after the test that made it. */
export function sdkPairsClosedAfterEach(): typeof sdkPair {
  const pairs: SdkPair[] = [];
  afterEach(() => {
    for (const pair of pairs.splice(0)) {
      pair.close();
    }
  });
  return (configure) => {
    const pair = sdkPair(configure);
    pairs.push(pair);
    return pair;
  };
}
