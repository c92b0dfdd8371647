// What `weft serve` lets a principal do beyond the files in its roots, from the flags: which of a
// client's MCP servers it connects to, and how commands run (confined by bwrap, or not); and the
// start-up line that says it all in one sentence.

import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";

import { CommandSandbox, type SandboxCheck } from "../process/command-sandbox.js";
import type { McpServerPolicy } from "../acp/editor/mcp-policy.js";
import type { AgentConfig } from "./config.js";
import { UsageError } from "./usage-error.js";

/** The flags of `weft serve` that grant more, or less. */
export interface GrantFlags {
  "allow-client-mcp"?: string[] | undefined;
  "unconfined-commands"?: boolean | undefined;
  "command-network"?: boolean | undefined;
  "hide-from-commands"?: string[] | undefined;
  "tokens-file"?: string | undefined;
  "jwt-key"?: string | undefined;
  "tls-cert"?: string | undefined;
  "tls-key"?: string | undefined;
}

/**
 * The MCP servers of a client's that are connected to: none unless `--allow-client-mcp` names
 * them (`stdio`, a host, or `*` for any host). Throws a UsageError for a value that is none of those.
 */
export function readClientMcpPolicy(values: readonly string[] | undefined): McpServerPolicy {
  const hosts: string[] = [];
  let stdio = false;
  for (const value of values ?? []) {
    const given = value.trim();
    if (given === "stdio") {
      stdio = true;
    } else if (given === "*" || /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?\.?$/.test(given) || /^\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\]?$/.test(given)) {
      hosts.push(given);
    } else {
      const why = given.includes("/") ? "a URL or path: give the host alone" : given.includes(":") ? "a host with a port: give the host alone" : "not a host name";
      throw new UsageError(`--allow-client-mcp takes stdio, a host name or IP address (any port), or *; ${JSON.stringify(value)} is ${why}`);
    }
  }
  return { stdio, hosts, howToAllow: (what) => `weft serve --allow-client-mcp ${what} allows them` };
}

/**
 * The sandbox commands run in, or undefined with `--unconfined-commands`. bwrap is `WEFT_BWRAP`
 * when set, else `bwrap` on PATH. Hidden from commands, besides what the sandbox always hides:
 * the session store's SQLite file, the token file, the JWT key, the TLS key and certificate, the
 * config file's directory and the models' key files, and what `--hide-from-commands` names.
 */
export function readCommandSandbox(flags: GrantFlags, config: AgentConfig, env: NodeJS.ProcessEnv): CommandSandbox | undefined {
  if (flags["unconfined-commands"]) {
    if (flags["command-network"] || flags["hide-from-commands"]?.length) {
      throw new UsageError("--command-network and --hide-from-commands are for confined commands, and --unconfined-commands runs them with all this server's access");
    }
    return undefined;
  }
  return new CommandSandbox(
    {
      bwrap: env.WEFT_BWRAP?.trim() || "bwrap",
      network: flags["command-network"] ?? false,
      hide: [...serverSecrets(flags, config), ...(flags["hide-from-commands"] ?? []).map((path) => resolve(path))],
      advice: "install bubblewrap (the bwrap command, in the bubblewrap package), or start weft serve with --unconfined-commands to run commands with the server's own access",
    },
    env,
  );
}

/** The files of the server's own that commands must not read. */
export function serverSecrets(flags: GrantFlags, config: AgentConfig): string[] {
  const paths: string[] = [];
  const store = sqliteFile(config.sessions);
  if (store) {
    // WAL mode keeps the latest writes beside the file until they are checkpointed into it.
    paths.push(store, `${store}-wal`, `${store}-shm`, `${store}-journal`);
  }
  for (const file of [flags["tokens-file"], flags["jwt-key"], flags["tls-cert"], flags["tls-key"], ...config.models.map((model) => model.apiKeyFile)]) {
    if (file) {
      paths.push(resolve(file));
    }
  }
  paths.push(dirname(config.configFile));
  return paths;
}

/** The server's own files that lie inside a root, where the file tools can read them. */
export function secretsInRoots(flags: GrantFlags, config: AgentConfig, roots: readonly string[]): string[] {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const allowed = roots.map(real);
  const store = sqliteFile(config.sessions);
  return [store, flags["tokens-file"], flags["jwt-key"], flags["tls-key"], ...config.models.map((model) => model.apiKeyFile)]
    .filter((file): file is string => Boolean(file))
    .map((file) => resolve(file))
    .filter((file) => {
      const path = real(file);
      return allowed.some((root) => {
        const rest = relative(root, path);
        return rest !== "" && !rest.startsWith("..") && !isAbsolute(rest);
      });
    });
}

/** What a principal may do, in one sentence, for the start-up line. */
export function describeGrants(grants: {
  credential: "token" | "JWT" | "token or JWT" | undefined;
  roots: readonly string[];
  sandbox: CommandSandbox | undefined;
  check: SandboxCheck | undefined;
  mcp: McpServerPolicy;
}): string {
  const who = grants.credential ? `a ${grants.credential} lets its holder` : "anyone who connects may";
  let commands: string;
  if (!grants.sandbox) {
    commands = "run commands with this server's own access, environment and network (--unconfined-commands)";
  } else if (grants.check?.ok) {
    commands = `run commands confined to them (bwrap, ${grants.sandbox.network ? "with this machine's network, loopback included (--command-network)" : "no network"})`;
  } else {
    commands = `not run commands (run_command is refused: ${grants.check?.reason ?? "bwrap was not checked"}; ${grants.sandbox.advice})`;
  }
  const hosts = grants.mcp.hosts.includes("*") ? "any host" : grants.mcp.hosts.join(", ");
  const mcp =
    grants.mcp.stdio && hosts
      ? `client MCP servers may run commands on this machine (stdio) and reach ${hosts}`
      : grants.mcp.stdio
        ? "client MCP servers may run commands on this machine (stdio); HTTP and SSE ones are refused"
        : hosts
          ? `client MCP servers may reach ${hosts}; stdio ones are refused`
          : "client MCP servers are refused (--allow-client-mcp allows them)";
  return `${who} read and write files in ${grants.roots.join(", ")} and ${commands}; ${mcp}.`;
}

/** The SQLite file a sessions value names, or undefined for memory, Postgres and Redis. */
function sqliteFile(sessions: string): string | undefined {
  if (sessions === "memory" || /^(postgres(ql)?|rediss?):\/\//.test(sessions)) {
    return undefined;
  }
  return resolve(sessions.startsWith("sqlite:") ? sessions.slice("sqlite:".length) : sessions);
}
