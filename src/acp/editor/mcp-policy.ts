// Which MCP servers a client may have the agent connect to. A stdio server is a command the agent
// runs on its own machine, and an HTTP or SSE one makes the agent connect where the client says:
// an agent serving many people connects only to what its operator allowed.

import type { McpServer } from "@agentclientprotocol/sdk";

/** The MCP servers from a client that are connected to; the others are reported as failed. */
export interface McpServerPolicy {
  /** Start stdio servers: run the command a client names, on this machine. */
  stdio: boolean;
  /** The hosts HTTP and SSE servers may be on (names or IP addresses, any port); `*` allows any. */
  hosts: readonly string[];
  /**
   * How the operator would allow what was refused, said in the reason the client is told:
   * given `stdio` or the host, words such as "weft serve --allow-client-mcp stdio allows them".
   */
  howToAllow?: ((what: string) => string) | undefined;
}

/** Why the policy refuses `server`, or undefined when it allows it (or there is no policy). */
export function mcpRefusal(server: McpServer, policy: McpServerPolicy | undefined): string | undefined {
  if (!policy) {
    return undefined;
  }
  const howToAllow = policy.howToAllow ?? defaultHowToAllow;
  if ("command" in server) {
    return policy.stdio ? undefined : `this server's operator does not allow client MCP servers that run a command on the server: ${howToAllow("stdio")}`;
  }
  let url: URL;
  try {
    url = new URL(server.url);
  } catch {
    return `its URL ${JSON.stringify(server.url)} is not a valid URL`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `its URL is ${url.protocol} and only http: and https: ones are allowed`;
  }
  const host = hostOf(url.hostname);
  if (allowsHost(policy, host)) {
    return undefined;
  }
  return `this server's operator does not allow client MCP servers on ${host}: ${howToAllow(host)}`;
}

/** Whether the policy lets any HTTP or SSE server in (if not, the agent does not offer those transports). */
export function allowsAnyHost(policy: McpServerPolicy | undefined): boolean {
  return !policy || policy.hosts.length > 0;
}

function allowsHost(policy: McpServerPolicy, host: string): boolean {
  return policy.hosts.some((allowed) => allowed === "*" || hostOf(allowed) === host);
}

/** A host name as compared: lower case, without IPv6 brackets or a final dot. */
function hostOf(name: string): string {
  return name.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

function defaultHowToAllow(what: string): string {
  return what === "stdio" ? "acpEditor's mcp.allow.stdio allows them" : `adding ${what} to acpEditor's mcp.allow.hosts allows them`;
}
