// What `weft serve`'s flags grant: --allow-client-mcp read into a policy (and refused when it is
// not stdio, a host or *), the server's own files hidden from commands, and flags that contradict.

import { join } from "node:path";

import { describe, expect, it } from "vitest";

import type { AgentConfig } from "./config.js";
import { readClientMcpPolicy, readCommandSandbox, serverSecrets } from "./serve-grants.js";
import { UsageError } from "./usage-error.js";

const config = (extra: Partial<AgentConfig>): AgentConfig => ({
  models: [],
  defaultModel: undefined,
  configFile: "/srv/weft/config/weft/config.json",
  sessions: "memory",
  logLevel: "warn",
  modelIdleTimeoutMs: undefined,
  contextWindow: undefined,
  ...extra,
});

describe("readClientMcpPolicy", () => {
  it("allows nothing by default, and stdio, hosts and * when named", () => {
    expect(readClientMcpPolicy(undefined)).toMatchObject({ stdio: false, hosts: [] });
    expect(readClientMcpPolicy(["stdio", "mcp.example.com", "10.0.0.7", "[::1]", "*"])).toMatchObject({ stdio: true, hosts: ["mcp.example.com", "10.0.0.7", "[::1]", "*"] });
    expect(readClientMcpPolicy([]).howToAllow?.("stdio")).toBe("weft serve --allow-client-mcp stdio allows them");
  });

  it("refuses a URL, a host with a port, and what is no host", () => {
    expect(() => readClientMcpPolicy(["https://mcp.example.com/mcp"])).toThrow(/is a URL or path: give the host alone/);
    expect(() => readClientMcpPolicy(["mcp.example.com:8080"])).toThrow(/is a host with a port: give the host alone/);
    expect(() => readClientMcpPolicy(["http"])).not.toThrow();
    expect(() => readClientMcpPolicy(["-x"])).toThrow(UsageError);
  });
});

describe("serverSecrets", () => {
  it("names the SQLite store with the files beside it, the token, key and certificate files, the config directory and the models' key files", () => {
    const secrets = serverSecrets(
      { "tokens-file": "/srv/weft/tokens", "jwt-key": "/srv/weft/jwt.pem", "tls-cert": "/srv/weft/cert.pem", "tls-key": "/srv/weft/key.pem" },
      config({ sessions: "sqlite:/srv/weft/sessions.db", models: [{ model: "openai:gpt-4.1", apiKeyFile: "/srv/weft/keys/openai.key" }] }),
    );
    expect(secrets).toEqual([
      "/srv/weft/sessions.db",
      "/srv/weft/sessions.db-wal",
      "/srv/weft/sessions.db-shm",
      "/srv/weft/sessions.db-journal",
      "/srv/weft/tokens",
      "/srv/weft/jwt.pem",
      "/srv/weft/cert.pem",
      "/srv/weft/key.pem",
      "/srv/weft/keys/openai.key",
      join("/srv/weft/config", "weft"),
    ]);
    expect(serverSecrets({}, config({ sessions: "postgres://root@127.0.0.1/test" }))).toEqual(["/srv/weft/config/weft"]);
  });
});

describe("readCommandSandbox", () => {
  it("confines by default, with WEFT_BWRAP as bwrap, and not with --unconfined-commands", () => {
    expect(readCommandSandbox({}, config({}), { WEFT_BWRAP: "/opt/bwrap" })).toBeDefined();
    expect(readCommandSandbox({ "command-network": true }, config({}), {})?.network).toBe(true);
    expect(readCommandSandbox({ "unconfined-commands": true }, config({}), {})).toBeUndefined();
  });

  it("refuses sandbox flags beside --unconfined-commands", () => {
    expect(() => readCommandSandbox({ "unconfined-commands": true, "command-network": true }, config({}), {})).toThrow(/--unconfined-commands runs them with all this server's access/);
    expect(() => readCommandSandbox({ "unconfined-commands": true, "hide-from-commands": ["/srv"] }, config({}), {})).toThrow(UsageError);
  });
});
