// `weft serve`: the coding agent served remotely over ACP's Streamable HTTP and WebSocket transport,
// with the configured model and session store, behind bearer tokens or JWTs; its commands confined
// by bwrap and the clients' MCP servers refused, unless the flags say otherwise.

import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { resolve } from "node:path";

import { serveCodingAgentHttp } from "../coding-agent/serve-coding-agent-http.js";
import { UnconfiguredModel } from "../models/unconfigured-model.js";
import { killAllGroups } from "../process/process-groups.js";
import type { AcpHttpAuthenticate } from "../acp/remote/auth/acp-http-authenticate.js";
import { anyOf } from "../acp/remote/auth/any-of.js";
import { bearerTokens } from "../acp/remote/auth/bearer-tokens.js";
import { jwtAuth } from "../acp/remote/auth/jwt-auth.js";
import { listenHttp } from "../acp/remote/listen-http.js";
import { parseTokenList, readTokensFile } from "../acp/remote/auth/token-lists.js";
import { LazyStore } from "../stores/lazy-store.js";
import { openStore } from "../stores/open-store.js";
import type { Logger } from "../types/logger.js";
import { configuredModels, keepServing } from "./agent-setup.js";
import { type AgentConfig, UsageError } from "./config.js";
import { describeGrants, type GrantFlags, readClientMcpPolicy, readCommandSandbox, secretsInRoots } from "./serve-grants.js";
import { stderrLogger } from "./stderr-logger.js";

/** What `weft serve` was told, beside the agent's own options. */
export interface ServeFlags extends GrantFlags {
  listen?: string | undefined;
  root?: string[] | undefined;
  "tokens-file"?: string | undefined;
  jwks?: string | undefined;
  "jwt-key"?: string | undefined;
  issuer?: string | undefined;
  audience?: string | undefined;
  origin?: string[] | undefined;
  "tls-cert"?: string | undefined;
  "tls-key"?: string | undefined;
}

const DEFAULT_LISTEN = "127.0.0.1:8377";

export async function runServe(flags: ServeFlags, config: AgentConfig, env: NodeJS.ProcessEnv, version: string): Promise<number> {
  const logger = stderrLogger(config.logLevel);
  const { host, port } = readListen(flags.listen ?? env.WEFT_LISTEN ?? DEFAULT_LISTEN);
  const authenticate = await readAuth(flags, env, logger);
  if (!authenticate && !isLoopback(host)) {
    throw new UsageError(`weft serve will not listen on ${host} without authentication: give --tokens-file, WEFT_TOKENS or --jwks/--jwt-key, or listen on 127.0.0.1`);
  }
  const tls = readTls(flags);
  keepServing(logger);
  const models = configuredModels(config, logger);
  const store = new LazyStore(() => openStore(config.sessions));
  const roots = (flags.root?.length ? flags.root : [process.cwd()]).map((root) => resolve(root));
  const mcp = readClientMcpPolicy(flags["allow-client-mcp"]);
  const commandSandbox = readCommandSandbox(flags, config, env);
  for (const file of secretsInRoots(flags, config, roots)) {
    logger.warn(`${file} lies inside a --root, where the file tools can read it (commands cannot): keep the server's own files outside the roots.`);
  }
  const server = serveCodingAgentHttp(
    { authenticate, roots, origins: flags.origin?.length ? flags.origin : undefined },
    {
      ...(models ? { models } : { model: new UnconfiguredModel(config.configFile) }),
      store,
      logger,
      agentInfo: { name: "weft", title: "weft", version },
      modelIdleTimeoutMs: config.modelIdleTimeoutMs,
      contextWindow: config.contextWindow,
      editor: { mcp: { allow: mcp }, commandSandbox },
    },
  );
  const listener = await listenHttp(server, { host, port, tls });
  store.warm();
  models?.warm();
  const url = new URL("/acp", listener.url);
  const check = await commandSandbox?.check();
  const credential = readCredential(flags, env);
  process.stderr.write(`weft serve: ${describeGrants({ credential, roots, sandbox: commandSandbox, check, mcp })}\n`);
  process.stderr.write(`weft serve: listening on ${url.href} for sessions in ${roots.join(", ")}\n`);
  if (!authenticate) {
    process.stderr.write("weft serve: no authentication is set, so only this machine can connect (and anyone on it can).\n");
  } else if (!tls && !isLoopback(host)) {
    logger.warn("Credentials cross the network in clear text: give --tls-cert and --tls-key, or put a TLS proxy in front.");
  }
  await new Promise<void>((done) => {
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      process.once(signal, () => done());
    }
  });
  // Turns in progress stay recorded as in progress, as after a crash: the next load, here or in
  // another process on the same store, carries them on.
  killAllGroups();
  await Promise.race([Promise.all([server.close(), listener.close()]), new Promise((settle) => setTimeout(settle, 2000))]);
  await store.close().catch(() => undefined);
  return 0;
}

/** What callers show to get in, for the start-up line. */
function readCredential(flags: ServeFlags, env: NodeJS.ProcessEnv): "token" | "JWT" | "token or JWT" | undefined {
  const tokens = Boolean(flags["tokens-file"] || env.WEFT_TOKENS);
  const jwt = Boolean(flags.jwks || flags["jwt-key"]);
  return tokens && jwt ? "token or JWT" : tokens ? "token" : jwt ? "JWT" : undefined;
}

/** `host:port`, `[v6]:port` or `:port` (loopback). */
function readListen(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(value);
  const port = Number(match?.[3]);
  if (!match || port > 65535) {
    throw new UsageError(`--listen takes host:port (such as 127.0.0.1:8377), not ${JSON.stringify(value)}`);
  }
  return { host: match[1] ?? (match[2] || "127.0.0.1"), port };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
}

/** The authentication the flags and environment set up, or undefined when none is. */
async function readAuth(flags: ServeFlags, env: NodeJS.ProcessEnv, logger: Logger): Promise<AcpHttpAuthenticate | undefined> {
  const hooks: AcpHttpAuthenticate[] = [];
  const tokens = new Map<string, string>();
  if (flags["tokens-file"]) {
    const file = await readTokensFile(flags["tokens-file"]);
    if (file.warning) {
      logger.warn(file.warning);
    }
    for (const [token, principal] of file.tokens) {
      tokens.set(token, principal);
    }
  }
  if (env.WEFT_TOKENS) {
    for (const [token, principal] of parseTokenList(env.WEFT_TOKENS)) {
      tokens.set(token, principal);
    }
  }
  if (tokens.size > 0) {
    hooks.push(bearerTokens(tokens));
  }
  const jwks = flags.jwks;
  const keyFile = flags["jwt-key"];
  if (jwks || keyFile) {
    if (jwks && keyFile) {
      throw new UsageError("give --jwks or --jwt-key, not both");
    }
    if (!flags.issuer || !flags.audience) {
      throw new UsageError("JWTs need --issuer and --audience");
    }
    hooks.push(jwtAuth({ ...(jwks ? { jwks } : { key: readFileSync(keyFile as string, "utf8").trim() }), issuer: flags.issuer, audience: flags.audience }));
  } else if (flags.issuer || flags.audience) {
    throw new UsageError("--issuer and --audience go with --jwks or --jwt-key");
  }
  return hooks.length === 0 ? undefined : hooks.length === 1 ? hooks[0] : anyOf(...hooks);
}

function readTls(flags: ServeFlags): { key: string; cert: string } | undefined {
  const cert = flags["tls-cert"];
  const key = flags["tls-key"];
  if (!cert && !key) {
    return undefined;
  }
  if (!cert || !key) {
    throw new UsageError("TLS needs both --tls-cert and --tls-key");
  }
  return { cert: readFileSync(cert, "utf8"), key: readFileSync(key, "utf8") };
}
