// acpEditor(): the bridge that gives an agent what the editor offers. Its tools read and write
// files through the editor (or the disk), run commands in the editor's terminal (or locally, in a
// sandbox if given one), and reach the MCP servers the editor listed for each session that its
// policy allows. serveAcp() attaches it.

import type { Tool } from "../../agent/tool.js";
import type { CommandSandbox } from "../../process/command-sandbox.js";
import { silentLogger, type Logger } from "../../types/logger.js";
import type { AcpConnection, AcpEditorBridge } from "../editor-bridge.js";
import type { AcpSessionInfo } from "../record/session-store.js";
import { commandTool } from "./command-tool.js";
import { DEFAULT_LIMITS, EditorAccess, type EditorLimits } from "./editor-access.js";
import { fileTools } from "./file-tools.js";
import { allowsAnyHost, type McpServerPolicy } from "./mcp-policy.js";
import { isMcpServer, SessionMcpServers } from "./mcp-servers.js";

export interface AcpEditorOptions {
  /** Caps on what tools return and how long commands run. */
  limits?: Partial<EditorLimits> | undefined;
  /** Ask the person before write_file, edit_file and run_command. Default true. */
  askBeforeChanges?: boolean | undefined;
  /**
   * MCP transports besides stdio to accept from the editor (default: HTTP and SSE), and which of
   * the editor's servers to connect to (default: all). A server the policy refuses is reported as
   * one that failed, with the reason; the session works on without it. An agent served to remote
   * clients should have a policy: a stdio server runs the client's command on this machine, and
   * an HTTP one makes this machine connect where the client says.
   */
  mcp?: { http?: boolean | undefined; sse?: boolean | undefined; allow?: McpServerPolicy | undefined } | undefined;
  /**
   * Confines the commands run_command runs on this machine (when the editor offers no terminal,
   * as when served remotely) to the session's directories, without the server's secrets or
   * network; a command it cannot confine is refused. Default: none, commands run with this
   * process's access and environment.
   */
  commandSandbox?: CommandSandbox | undefined;
  logger?: Logger | undefined;
}

export interface AcpEditor extends AcpEditorBridge {
  /**
   * The tools for `createAgent({ tools: editor.tools })`: read_file, write_file, edit_file,
   * list_files, search_files and run_command, plus the tools of the session's MCP servers.
   */
  tools(context: { threadId: string }): Promise<Tool<unknown>[]>;
  /**
   * Instructions for `createAgent({ instructions: editor.instructions(base) })`: `base`, a note
   * naming the session's other directories (which the file tools reach by absolute path), and one
   * naming any MCP server of the session that could not be reached, so the model knows.
   */
  instructions(base: string): (context: { threadId: string }) => string;
  /** An open session's directory and other info (the thread id is the session id), for what else reads its project. */
  session(threadId: string): AcpSessionInfo | undefined;
}

export function acpEditor(options: AcpEditorOptions = {}): AcpEditor {
  const access = new EditorAccess({ ...DEFAULT_LIMITS, ...options.limits });
  const logger = options.logger ?? silentLogger;
  const ask = options.askBeforeChanges ?? true;
  const own = [...fileTools(access, { ask }), commandTool(access, { ask, sandbox: options.commandSandbox })];
  const policy = options.mcp?.allow;
  const servers = new Map<string, SessionMcpServers>();
  const reported = new Map<string, number>();

  const showsNotices = () => Boolean(access.connection?.notice && access.connection.capabilities().session?.notices);
  /** The session's failures not told yet, which count as told from now on. */
  const unreported = (sessionId: string, session: SessionMcpServers) => {
    const already = reported.get(sessionId) ?? 0;
    reported.set(sessionId, session.failures.length);
    return session.failures.slice(already);
  };
  const announce = async (sessionId: string, session: SessionMcpServers) => {
    for (const { server, reason } of unreported(sessionId, session)) {
      await access.connection?.notice?.(sessionId, { severity: "warning", title: `The MCP server "${server}" is not available`, description: `${reason.replace(/\.$/, "")}. Carrying on without its tools.` });
    }
  };

  const close = async (sessionId: string) => {
    const current = servers.get(sessionId);
    servers.delete(sessionId);
    reported.delete(sessionId);
    await current?.close();
  };

  return {
    mcpCapabilities: { http: (options.mcp?.http ?? true) && allowsAnyHost(policy), sse: (options.mcp?.sse ?? true) && allowsAnyHost(policy) },

    attach(connection: AcpConnection) {
      access.connection = connection;
    },

    async detach() {
      await Promise.all([...servers.keys()].map(close));
      access.connection = undefined;
    },

    async openSession(session: AcpSessionInfo) {
      await close(session.id);
      const configs = session.mcpServers.filter(isMcpServer);
      if (configs.length < session.mcpServers.length) {
        logger.warn("Left out MCP servers that ACP does not describe", { sessionId: session.id, count: session.mcpServers.length - configs.length });
      }
      if (configs.length > 0) {
        // Connecting starts now and goes on in the background; the first turn waits for it.
        const mcp = new SessionMcpServers(configs, logger, () => access.limits.modelChars, policy);
        servers.set(session.id, mcp);
        // An editor that shows notices hears of a server that failed as soon as it has; any
        // other is told at the start of the next turn (takeNotices).
        void mcp.ready
          .then(() => (servers.get(session.id) === mcp && showsNotices() ? announce(session.id, mcp) : undefined))
          .catch((error: unknown) => logger.warn("Could not tell the editor of MCP servers that failed", { sessionId: session.id, error: String(error) }));
      }
    },

    closeSession: close,

    async takeNotices(sessionId: string) {
      const session = servers.get(sessionId);
      if (!session) {
        return [];
      }
      await session.ready;
      if (showsNotices()) {
        return [];
      }
      return unreported(sessionId, session).map(({ server, reason }) => `The MCP server "${server}" is not available (${reason}); carrying on without its tools.`);
    },

    async tools({ threadId }) {
      const session = servers.get(threadId);
      if (!session) {
        return own;
      }
      await session.ready;
      return [...own, ...session.available()];
    },

    session: (threadId) => access.connection?.session(threadId),

    instructions(base) {
      return ({ threadId }) => {
        let text = base;
        const directories = access.connection?.session(threadId)?.additionalDirectories ?? [];
        if (directories.length > 0) {
          text += `\n\nBesides the project directory, this session has these directories, which the file tools reach by absolute path: ${directories.join(", ")}.`;
        }
        const failures = servers.get(threadId)?.failures ?? [];
        if (failures.length > 0) {
          const missing = failures.map(({ server, reason }) => `${server} (${reason})`).join("; ");
          text += `\n\nThese MCP servers from the editor could not be reached, so their tools are missing: ${missing}.`;
        }
        return text;
      };
    },
  };
}
