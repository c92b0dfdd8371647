// mcpRefusal(): which of a client's MCP servers a policy lets the agent connect to, and the reason
// told for the others, naming what would allow them.

import type { McpServer } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { allowsAnyHost, mcpRefusal, type McpServerPolicy } from "./mcp-policy.js";

const stdio: McpServer = { name: "local", command: "/usr/bin/touch", args: ["/tmp/pwned"], env: [] };
const http = (url: string): McpServer => ({ type: "http", name: "remote", url, headers: [] });
const policy = (extra: Partial<McpServerPolicy>): McpServerPolicy => ({ stdio: false, hosts: [], howToAllow: (what) => `--allow ${what} allows them`, ...extra });

describe("mcpRefusal", () => {
  it("allows every server without a policy", () => {
    expect(mcpRefusal(stdio, undefined)).toBeUndefined();
    expect(mcpRefusal(http("http://127.0.0.1:5432/"), undefined)).toBeUndefined();
  });

  it("refuses stdio servers unless allowed, saying the operator does not allow them and what would", () => {
    expect(mcpRefusal(stdio, policy({}))).toBe("this server's operator does not allow client MCP servers that run a command on the server: --allow stdio allows them");
    expect(mcpRefusal(stdio, policy({ stdio: true }))).toBeUndefined();
    expect(mcpRefusal(stdio, policy({ hosts: ["*"] }))).toMatch(/does not allow/);
  });

  it("allows HTTP and SSE servers on the hosts named, any port, whatever the case, and any host for *", () => {
    const named = policy({ hosts: ["MCP.example.com", "[::1]"] });
    expect(mcpRefusal(http("https://mcp.example.com:8443/mcp"), named)).toBeUndefined();
    expect(mcpRefusal({ type: "sse", name: "events", url: "http://mcp.example.com./sse", headers: [] }, named)).toBeUndefined();
    expect(mcpRefusal(http("http://[::1]:9000/"), named)).toBeUndefined();
    expect(mcpRefusal(http("http://127.0.0.1:5432/"), named)).toBe("this server's operator does not allow client MCP servers on 127.0.0.1: --allow 127.0.0.1 allows them");
    expect(mcpRefusal(http("http://mcp.example.com.evil.test/"), named)).toMatch(/on mcp\.example\.com\.evil\.test:/);
    expect(mcpRefusal(http("http://169.254.169.254/latest/"), policy({ hosts: ["*"] }))).toBeUndefined();
  });

  it("refuses URLs that are not http or https, or not URLs", () => {
    expect(mcpRefusal(http("file:///etc/passwd"), policy({ hosts: ["*"] }))).toBe("its URL is file: and only http: and https: ones are allowed");
    expect(mcpRefusal(http("not a url"), policy({ hosts: ["*"] }))).toBe('its URL "not a url" is not a valid URL');
  });

  it("names acpEditor's options when the policy does not say how to allow a server", () => {
    expect(mcpRefusal(stdio, { stdio: false, hosts: [] })).toMatch(/acpEditor's mcp\.allow\.stdio allows them$/);
    expect(mcpRefusal(http("http://a.test/"), { stdio: false, hosts: [] })).toMatch(/adding a\.test to acpEditor's mcp\.allow\.hosts allows them$/);
  });

  it("offers HTTP and SSE transports only when some host is allowed", () => {
    expect(allowsAnyHost(undefined)).toBe(true);
    expect(allowsAnyHost(policy({ stdio: true }))).toBe(false);
    expect(allowsAnyHost(policy({ hosts: ["a.test"] }))).toBe(true);
  });
});
