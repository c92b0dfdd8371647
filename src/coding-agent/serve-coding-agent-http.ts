// The coding agent served remotely, over ACP's Streamable HTTP and WebSocket transport: the same
// agent as over stdio, whose tools work on this machine's files, in the directories allowed.

import { type AcpHttpOptions, type AcpHttpServer, serveAcpHttp } from "../acp/remote/serve-acp-http.js";
import { codingAgent, type CodingAgentOptions } from "./serve-coding-agent.js";

/** Serves the coding agent remotely (see serveAcpHttp), to the principals `http.authenticate` lets in. */
export function serveCodingAgentHttp(http: AcpHttpOptions, options: CodingAgentOptions): AcpHttpServer {
  const made = codingAgent(options);
  const server = serveAcpHttp(made.graph, http, made.options);
  made.serves(server);
  return server;
}
