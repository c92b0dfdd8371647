// How `weft chat` reaches its agent: a process it starts (the agent's stdio is the connection) or a
// server at a URL (ACP over Streamable HTTP or WebSocket). Both runners talk to either the same
// way: a stream of ACP messages, a way to close it, and a sentence saying how it ended. The
// links themselves are made by open-agent-link.ts.

import type * as acp from "@agentclientprotocol/sdk";
import type { AcpCookieStore } from "@agentclientprotocol/sdk/experimental/http-client";

import type { LineTap } from "./agent-process.js";

/** Where the agent is: a command to start here, or a remote server's ACP endpoint. */
export type AgentTarget = LocalAgentTarget | RemoteAgentTarget;

export interface LocalAgentTarget {
  /** The agent's command and its arguments. */
  command: readonly string[];
  /** Where the agent's stderr is copied as it comes, when the person asked for its log (WEFT_LOG). */
  log?: NodeJS.WritableStream | undefined;
}

export interface RemoteAgentTarget {
  /** The endpoint: http:// or https:// (Streamable HTTP), ws:// or wss:// (WebSocket). */
  url: URL;
  /** Sent with every request (the bearer token among them); never shown in messages. */
  headers: Record<string, string>;
  /**
   * The server's affinity cookies, kept for the whole run, so that a reconnect reaches the same
   * server behind a load balancer (the transport RFD asks clients to keep them).
   */
  cookieStore: AcpCookieStore;
}

export interface AgentLinkOptions {
  /** The directory a started agent runs in. */
  cwd: string;
  env?: NodeJS.ProcessEnv | undefined;
  /** Each ACP message from the agent, as one line of JSON. */
  fromAgent?: LineTap | undefined;
  /** Each ACP message to the agent, as one line of JSON. */
  toAgent?: LineTap | undefined;
}

/** An open connection to an agent, wherever it runs. */
export interface AgentLink {
  /** The ACP messages both ways: what the client app connects to. */
  readonly stream: acp.Stream;
  /** What names the agent until it names itself: its command, or the server's host. */
  readonly label: string;
  /**
   * Resolves once the agent is gone (the process exited; the connection closed, dropped or was
   * refused), with a sentence for the person saying how, and why if known.
   */
  readonly ended: Promise<string>;
  /** True once `ended` has resolved. */
  readonly gone: boolean;
  /**
   * Ends the link and waits for it: a started agent's stdin is closed and its process group
   * killed if it has not exited after `graceMs`; a remote connection is closed (HTTP: DELETE),
   * waiting at most `graceMs` for the server.
   */
  close(graceMs?: number): Promise<void>;
}
