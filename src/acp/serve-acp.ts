// serveAcp(): serves a graph to an editor over ACP on the official SDK, over one connection (the
// agent's stdio). The protocol's methods are answered in acp-agent.ts; the sessions themselves
// (turns, permissions, replay) are in acp-session.ts.

import { silentLogger } from "../types/logger.js";
import type { ProtocolGraph } from "../graph/protocol-graph.js";
import type { AcpConfigValues } from "./surface/config-options.js";
import { AcpAgent } from "./server/acp-agent.js";
import type { AcpOptions } from "./server/acp-options.js";
import { AcpConnectionError } from "./wire/connection-error.js";
import type { AcpCommand } from "./surface/slash-commands.js";
import { toSdkStream, type AcpStreams } from "./wire/streams.js";

export { ACP_PROTOCOL_VERSION } from "./server/acp-agent.js";
export type { AcpOptions } from "./server/acp-options.js";

/** A running ACP connection. */
export interface AcpServer {
  /**
   * Resolves when the connection ends: with nothing when the editor closed its end or `close()` was
   * called, and with the reason when it broke (reading from the editor or writing to it failed).
   * An agent's process should then say why and exit non-zero.
   */
  closed: Promise<AcpConnectionError | undefined>;
  /** Stops every running prompt and closes the connection. */
  close(): void;
  /**
   * Changes config values (or the mode, under `mode`) of a session open on this connection, as the
   * agent's own choice: a tool that leaves plan mode, a model the agent falls back to. The values
   * are checked first (an InvalidConfigValueError says what is wrong, a SessionNotFoundError that
   * the session is not open here), written to the session's record, and shown to the editor: the
   * full list as `config_option_update`, and a new mode as `current_mode_update` too. A run going
   * on sees them from its next step. Resolves once the record is written.
   */
  setConfig(sessionId: string, values: Readonly<AcpConfigValues>): Promise<void>;
  /**
   * Gives a session open on this connection its own slash commands instead of AcpOptions.commands
   * (undefined goes back to those), and sends the editor the new list. The commands are checked
   * first (a WeftError, code `invalid_option`, says what is wrong; a SessionNotFoundError that the
   * session is not open here). They last as long as the session is open here.
   */
  setCommands(sessionId: string, commands: readonly AcpCommand[] | undefined): void;
}

/**
 * Serves a graph to an editor over ACP. Run it as the agent's process:
 *
 * ```ts
 * serveAcp(agent, { input: process.stdin, output: process.stdout }, { agentInfo: { name: "reviewer", version: "1.0.0" } });
 * ```
 */
export function serveAcp(graph: ProtocolGraph, streams: AcpStreams, options: AcpOptions = {}): AcpServer {
  const agent = new AcpAgent(graph, options, { shared: false });
  const logger = options.logger ?? silentLogger;
  const wire = toSdkStream(streams, { logger, ...(options.lineLimits ? { limits: options.lineLimits } : {}) });
  const connection = agent.connect(wire.stream, {
    // A replay's lines stop with the connection, as the SDK's notifications do.
    lines: (text) => {
      if (connection.signal.aborted) {
        throw connection.signal.reason;
      }
      return wire.writeLines(text);
    },
  });
  let closing = false;
  const closed = connection.closed.then(async () => {
    const failure = wire.failure() ?? (closing || wire.ended() ? undefined : new AcpConnectionError("connection_failed", "The ACP connection failed", { cause: connection.signal.reason }));
    await agent.close();
    return failure;
  });
  return {
    closed,
    close: () => {
      closing = true;
      agent.stopAll();
      connection.close();
    },
    setConfig: async (sessionId, values) => {
      await agent.live(sessionId).config.change(values);
    },
    setCommands: (sessionId, commands) => {
      agent.live(sessionId).commands.set(commands);
    },
  };
}
