// The MCP servers an editor offers with a session: connected with the MCP SDK (stdio, streamable
// HTTP, or SSE), their tools offered to the model under the server's name, for that session only.
// A server that fails to start or to list its tools, or that the policy refuses, is kept as a
// failure to report; the session works without it. The MCP SDK loads only when a session has servers (it is an optional peer;
// the `weft` command bundles it).

import type { McpServer } from "@agentclientprotocol/sdk";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

import type { Tool, ToolOutput } from "../../agent/tool.js";
import { MissingPackageError } from "../../errors/missing-package-error.js";
import type { Logger } from "../../types/logger.js";
import { boundText } from "../mapping/tool-calls.js";
import { mcpRefusal, type McpServerPolicy } from "./mcp-policy.js";
import { errorMessage } from "../../errors/error-message.js";

/**
 * Whether a value is an MCP server as ACP describes it in session/new and session/load: one to
 * start (stdio) or one to reach over HTTP or SSE. A session's `mcpServers` come from the wire,
 * where the SDK checked them, but its type leaves them unknown.
 */
export function isMcpServer(value: unknown): value is McpServer {
  if (typeof value !== "object" || value === null || typeof (value as { name?: unknown }).name !== "string") {
    return false;
  }
  const server = value as Record<string, unknown>;
  if ("command" in server) {
    return typeof server.command === "string" && Array.isArray(server.args) && Array.isArray(server.env);
  }
  return (server.type === "http" || server.type === "sse") && typeof server.url === "string" && Array.isArray(server.headers);
}

export interface McpFailure {
  server: string;
  reason: string;
}

const CONNECT_TIMEOUT_MS = 30_000;

/** One session's MCP servers. */
export class SessionMcpServers {
  readonly failures: McpFailure[] = [];
  /** Each server's tools, in the order the editor listed the servers. */
  private readonly tools: Tool<unknown>[][];
  private readonly clients: Client[] = [];
  /** Settles when every server has connected and listed its tools, or failed to. */
  readonly ready: Promise<void>;
  private closed = false;

  constructor(
    servers: readonly McpServer[],
    private readonly logger: Logger,
    private readonly outputLimit: () => number,
    /** Which servers may be connected to; without one, all may. */
    private readonly policy?: McpServerPolicy | undefined,
  ) {
    this.tools = servers.map(() => []);
    this.ready = Promise.all(servers.map((server, index) => this.connect(server, index))).then(() => undefined);
  }

  /** The tools of the servers that work (after `ready`). */
  available(): Tool<unknown>[] {
    return this.tools.flat();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.clients.map((client) => client.close().catch(() => undefined)));
  }

  private async connect(server: McpServer, index: number): Promise<void> {
    const refusal = mcpRefusal(server, this.policy);
    if (refusal) {
      this.failures.push({ server: server.name, reason: refusal });
      this.logger.warn("MCP server refused", { server: server.name, reason: refusal });
      return;
    }
    let client: Client | undefined;
    try {
      const { Client } = await import("@modelcontextprotocol/sdk/client/index.js").catch((error: unknown) => {
        throw MissingPackageError.isMissing(error, "@modelcontextprotocol/sdk") ? new MissingPackageError("@modelcontextprotocol/sdk", "MCP servers", { cause: error }) : error;
      });
      client = new Client({ name: "weft", version: "0.1.0" });
      const transport = await transportFor(server);
      await withTimeout(client.connect(transport), CONNECT_TIMEOUT_MS, `connecting to it took over ${CONNECT_TIMEOUT_MS / 1000} s`);
      this.clients.push(client);
      if (this.closed) {
        await client.close();
        return;
      }
      const { tools } = await withTimeout(client.listTools(), CONNECT_TIMEOUT_MS, `listing its tools took over ${CONNECT_TIMEOUT_MS / 1000} s`);
      this.tools[index] = tools.map((tool) => this.wrap(server.name, client as Client, tool));
      this.logger.info("MCP server connected", { server: server.name, tools: tools.length });
    } catch (error) {
      const reason = errorMessage(error);
      this.failures.push({ server: server.name, reason });
      this.logger.warn("MCP server failed", { server: server.name, reason });
      await client?.close().catch(() => undefined);
    }
  }

  private wrap(serverName: string, client: Client, tool: { name: string; description?: string | undefined; inputSchema: Record<string, unknown> }): Tool<unknown> {
    return {
      name: toolName(serverName, tool.name),
      description: `[MCP server ${serverName}] ${tool.description ?? tool.name}`,
      inputSchema: tool.inputSchema,
      execute: async (input, context) => {
        const result = await client.callTool({ name: tool.name, arguments: input as Record<string, unknown> }, undefined, { signal: context.signal });
        const parts = (result.content ?? []) as Array<{ type: string; text?: string | undefined; mimeType?: string | undefined; resource?: { uri?: string | undefined; text?: string | undefined } | undefined }>;
        const text = parts
          .map((part) => {
            switch (part.type) {
              case "text":
                return part.text ?? "";
              case "resource":
                return part.resource?.text ?? `[resource ${part.resource?.uri ?? ""}]`;
              default:
                return `[${part.type}${part.mimeType ? ` ${part.mimeType}` : ""}]`;
            }
          })
          .join("\n");
        const output: ToolOutput = { output: boundText(text || JSON.stringify(result.structuredContent ?? ""), this.outputLimit()) };
        if (result.isError) {
          output.isError = true;
        }
        return output;
      },
    };
  }
}

/** `server__tool`, made of the characters every provider accepts in a tool name, at most 64 long. */
export function toolName(server: string, tool: string): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "_");
  return `${clean(server)}__${clean(tool)}`.slice(0, 64);
}

async function transportFor(server: McpServer) {
  if ("command" in server) {
    const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const env = { ...getDefaultEnvironment(), ...Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])) };
    // The server's stderr is ours (logs); its stdout is the MCP protocol, never ours.
    return new StdioClientTransport({ command: server.command, args: server.args, env, stderr: "ignore" });
  }
  const headers = Object.fromEntries(server.headers.map((header) => [header.name, header.value]));
  if (server.type === "sse") {
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    return new SSEClientTransport(new URL(server.url), { requestInit: { headers } });
  }
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
}

function withTimeout<T>(work: Promise<T>, milliseconds: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.finally(() => clearTimeout(timer)),
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(message)), milliseconds);
    }),
  ]);
}
