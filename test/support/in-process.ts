// Serves a graph with serveAcp() and connects the SDK client to it through in-memory byte streams
// in this process: the same JSON lines as stdio, without a child process, for fast tests.

import { PassThrough, Readable, Writable } from "node:stream";

import * as acp from "@agentclientprotocol/sdk";

import { serveAcp, type AcpOptions, type AcpServer, type AcpStreams } from "../../src/acp/index.js";
import type { ProtocolGraph } from "../../src/graph/protocol-graph.js";
import { WireChecker } from "./acp-wire.js";
import { lineSplitter } from "./lines.js";

export interface InProcessAgent {
  server: AcpServer;
  client: acp.ClientContext;
  connection: acp.ClientConnection;
  wire: WireChecker;
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  answerPermission: (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
  newSession(cwd?: string): Promise<string>;
  prompt(sessionId: string, prompt: string | acp.ContentBlock[]): Promise<acp.PromptResponse>;
  textOf(sessionId: string, from?: number): string;
  updatesOf(sessionId: string): acp.SessionUpdate[];
  /** Ends the editor's side, as an editor closing would. */
  end(): void;
}

export function serveInProcess(graph: ProtocolGraph, options: AcpOptions = {}, configure?: (app: acp.ClientApp) => acp.ClientApp): Promise<InProcessAgent> {
  return connectInProcess((streams) => serveAcp(graph, streams, options), configure);
}

/** Like serveInProcess, for an agent served by some other function (such as serveCodingAgent). */
export async function connectInProcess(serve: (streams: AcpStreams) => AcpServer, configure?: (app: acp.ClientApp) => acp.ClientApp): Promise<InProcessAgent> {
  // Each direction is two streams joined by a tap, so every stream has exactly one reader.
  const fromClient = new PassThrough();
  const toAgent = new PassThrough();
  const fromAgent = new PassThrough();
  const toClient = new PassThrough();
  const wire = new WireChecker();
  tap(fromClient, toAgent, (line) => wire.fromClientLine(line));
  tap(fromAgent, toClient, (line) => wire.fromAgentLine(line));
  const server = serve({ input: toAgent, output: fromAgent });
  const agent: InProcessAgent = {
    server,
    wire,
    updates: [],
    permissions: [],
    answerPermission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }),
    client: undefined as unknown as acp.ClientContext,
    connection: undefined as unknown as acp.ClientConnection,
    newSession: async (cwd = "/tmp") => (await agent.client.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId,
    prompt: (sessionId, prompt) =>
      agent.client.request(acp.methods.agent.session.prompt, { sessionId, prompt: typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt }),
    updatesOf: (sessionId) => agent.updates.filter((notification) => notification.sessionId === sessionId).map((notification) => notification.update),
    textOf: (sessionId, from = 0) =>
      agent
        .updatesOf(sessionId)
        .slice(from)
        .map((update) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? update.content.text : ""))
        .join(""),
    end: () => fromClient.end(),
  };
  let app = acp
    .client({ name: "in-process-editor" })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      agent.permissions.push(params);
      return agent.answerPermission(params);
    })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      agent.updates.push(params);
    });
  if (configure) {
    app = configure(app);
  }
  agent.connection = app.connect(acp.ndJsonStream(Writable.toWeb(fromClient), Readable.toWeb(toClient) as ReadableStream<Uint8Array>));
  agent.client = agent.connection.agent;
  await agent.client.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  return agent;
}

function tap(source: PassThrough, target: PassThrough, onLine: (line: string) => void): void {
  const lines = lineSplitter(onLine);
  source.on("end", () => target.end());
  source.on("data", (chunk: Buffer) => {
    target.write(chunk);
    lines.push(chunk);
  });
}
