// A small MCP server over streamable HTTP on 127.0.0.1 with a free port, for tests: one tool,
// `add_numbers`. It counts the requests it gets, so a test can tell that no one connected.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface HttpMcpServer {
  url: string;
  /** Calls of its tool. */
  calls: number;
  /** HTTP requests of any kind. */
  requests: number;
  close(): Promise<void>;
}

export async function startHttpMcpServer(): Promise<HttpMcpServer> {
  const state = { calls: 0, requests: 0 };
  const http: Server = createServer(async (request, response) => {
    state.requests++;
    // Stateless: a fresh server and transport per request.
    const server = new McpServer({ name: "adder", version: "1.0.0" });
    server.registerTool("add_numbers", { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => {
      state.calls++;
      return { content: [{ type: "text", text: String(a + b) }] };
    });
    // Stateless: no session id generator.
    const transport = new StreamableHTTPServerTransport({});
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    let body = "";
    for await (const chunk of request) {
      body += String(chunk);
    }
    await transport.handleRequest(request, response, body ? JSON.parse(body) : undefined);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get calls() {
      return state.calls;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
