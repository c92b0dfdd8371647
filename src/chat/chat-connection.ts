// Interactive chat's connection to its agent, over a link that can be replaced: when the link to a
// remote agent drops, `reconnect()` opens a new one (with the same headers and affinity cookies),
// initializes again and reloads the session, as the transport RFD's v1 reconnect goes. A started
// agent that exits is gone for good.

import * as acp from "@agentclientprotocol/sdk";

import type { AgentLink, AgentLinkOptions, AgentTarget } from "./agent-link.js";
import { openAgentLink } from "./open-agent-link.js";

export class ChatConnection {
  /** True while a reconnect's session/load replays the conversation the person has already seen. */
  reloading = false;

  private constructor(
    private readonly target: AgentTarget,
    private readonly client: acp.ClientApp,
    private readonly options: AgentLinkOptions,
    private link: AgentLink,
    private connection: acp.ClientConnection,
  ) {}

  /** Opens the first link and connects `client` (the chat's handlers) to it. */
  static async open(target: AgentTarget, client: acp.ClientApp, options: AgentLinkOptions): Promise<ChatConnection> {
    const link = await openAgentLink(target, options);
    return new ChatConnection(target, client, options, link, client.connect(link.stream));
  }

  /** The agent's side of the current connection. */
  get agent(): acp.ClientConnection["agent"] {
    return this.connection.agent;
  }

  /** What names the agent until it names itself. */
  get label(): string {
    return this.link.label;
  }

  /** True once the current link has ended. */
  get gone(): boolean {
    return this.link.gone;
  }

  /** How the current link ended, once it has. */
  get ended(): Promise<string> {
    return this.link.ended;
  }

  /** Rejects, with how, once the current link ends: raced against requests on it. */
  failure(): Promise<never> {
    const failed = this.link.ended.then((message) => Promise.reject(new Error(message)));
    failed.catch(() => undefined);
    return failed;
  }

  /** Whether a dropped link can be opened again (a remote agent's can; a process's cannot). */
  get canReconnect(): boolean {
    return "url" in this.target;
  }

  /**
   * Replaces the ended link with a new one: initializes with `initialize` and, for an open
   * session, reloads it with session/load (its replay is not shown again: see `reloading`).
   * Rejects, leaving the new link closed, if the agent cannot be reached or cannot load sessions.
   */
  async reconnect(initialize: acp.InitializeRequest, session: { sessionId: string; cwd: string } | undefined): Promise<void> {
    this.connection.close();
    await this.link.close(0);
    const link = await openAgentLink(this.target, this.options);
    const connection = this.client.connect(link.stream);
    this.link = link;
    this.connection = connection;
    try {
      const init = await Promise.race([connection.agent.request(acp.methods.agent.initialize, initialize), this.failure()]);
      if (session) {
        if (!init.agentCapabilities?.loadSession) {
          throw new Error("The agent cannot reload the session (it does not offer session/load).");
        }
        this.reloading = true;
        await Promise.race([connection.agent.request(acp.methods.agent.session.load, { ...session, mcpServers: [] }), this.failure()]);
      }
    } catch (error) {
      await this.close(0);
      throw error;
    } finally {
      this.reloading = false;
    }
  }

  /** Ends the link (see AgentLink.close) and the connection. */
  async close(graceMs = 3_000): Promise<void> {
    await this.link.close(graceMs);
    this.connection.close();
  }
}
