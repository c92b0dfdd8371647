// The session interactive `weft chat` talks in. A new one is made only when first needed (the first
// prompt, /mode, /model), so a chat left without a word adds nothing to the agent's session list;
// `--resume` reopens one instead. What the agent answers of its modes and options is kept in the
// session's surface.

import * as acp from "@agentclientprotocol/sdk";

import type { ChatConnection } from "./chat-connection.js";
import type { SessionSurface } from "./chat-state.js";
import type { Style } from "./render-updates.js";
import { sessionModel } from "./session-model.js";

export class ChatSession {
  /** The session's id, once it is made (or reopened). */
  id: string | undefined;
  private opening: Promise<string> | undefined;

  constructor(
    private readonly connection: Pick<ChatConnection, "agent">,
    private readonly cwd: string,
    private readonly surface: SessionSurface,
    private readonly view: { write(text: string): void; style: Style },
  ) {}

  /** The session's id, making the session first if there is none (announced with its model). */
  ensure(): Promise<string> {
    this.opening ??= this.connection.agent.request(acp.methods.agent.session.new, { cwd: this.cwd, mcpServers: [] }).then((response) => {
      this.id = response.sessionId;
      this.surface.opened(response);
      const model = sessionModel(this.surface.configOptions, response);
      this.view.write(this.view.style.dim(`session ${response.sessionId}${model === undefined ? "" : ` · model ${model}`}\n`));
      return response.sessionId;
    });
    return this.opening;
  }

  /** Reopens session `sessionId` with session/load, which replays its conversation. */
  async reopen(sessionId: string): Promise<acp.LoadSessionResponse> {
    this.id = sessionId;
    this.opening = Promise.resolve(sessionId);
    const loaded = await this.connection.agent.request(acp.methods.agent.session.load, { sessionId, cwd: this.cwd, mcpServers: [] });
    this.surface.opened(loaded);
    return loaded;
  }

  /** After a dropped connection: a session/new it cut off is asked for again. */
  forgetUnfinished(): void {
    if (this.id === undefined) {
      this.opening = undefined;
    }
  }

  async setMode(modeId: string): Promise<void> {
    await this.connection.agent.request(acp.methods.agent.session.setMode, { sessionId: await this.ensure(), modeId });
    this.surface.modeSet(modeId);
  }

  async setConfigOption(configId: string, value: string): Promise<void> {
    const response = await this.connection.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: await this.ensure(), configId, value });
    this.surface.configOptions = response.configOptions;
  }
}
