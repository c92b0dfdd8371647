// `weft acp`: wires the configured model and session store to the coding agent on stdio, or
// (with --graph) the session store to the graph a module exports.

import { PassThrough, type Writable } from "node:stream";

import { serveCodingAgent } from "../coding-agent/serve-coding-agent.js";
import { UnconfiguredModel } from "../models/unconfigured-model.js";
import { killAllGroups } from "../process/process-groups.js";
import { serveAcp, type AcpServer } from "../acp/serve-acp.js";
import type { AcpStreams } from "../acp/wire/streams.js";
import { LazyStore } from "../stores/lazy-store.js";
import { openStore } from "../stores/open-store.js";
import type { Logger } from "../types/logger.js";
import { configuredModels, keepServing } from "./agent-setup.js";
import type { AgentConfig } from "./config.js";
import { protocolStdout } from "./protocol-stdout.js";
import { stderrLogger } from "./stderr-logger.js";

/** Serves the coding agent, or with `graphFile` (`--graph`) the graph that module exports. */
export async function runAcp(config: AgentConfig, version: string, graphFile?: string): Promise<number> {
  const logger = stderrLogger(config.logLevel);
  const store = new LazyStore(() => openStore(config.sessions));
  // Open the session store while the editor is busy with our answer to initialize.
  const onInitialized = () => store.warm();
  // A module the person wrote may write to stdout as it loads and runs: only ACP goes there.
  const stdout = graphFile === undefined ? process.stdout : protocolStdout();
  // The module is loaded before anything is served, so a module with no graph is only an error on stderr.
  const own = graphFile === undefined ? undefined : await (await import("./graph-agent.js")).graphAgent(graphFile, { store, logger, version, onInitialized });
  keepServing(logger);
  const streams: AcpStreams = config.logLevel === "debug" ? wireLog(logger, stdout) : { input: process.stdin, output: stdout };
  const server = own ? serveAcp(own.graph, streams, own.options) : codingAgentServer(config, streams, store, logger, version);
  for (const signal of STOP_SIGNALS) {
    process.once(signal, () => void stop(signal, store, logger));
  }
  const failure = await server.closed;
  await store.close().catch(() => undefined);
  // The connection broke rather than ended (its input or output failed): main says why and exits 1.
  if (failure) {
    throw failure;
  }
  return 0;
}

function codingAgentServer(config: AgentConfig, streams: AcpStreams, store: LazyStore, logger: Logger, version: string): AcpServer {
  const models = configuredModels(config, logger);
  return serveCodingAgent(streams, {
    ...(models ? { models } : { model: new UnconfiguredModel(config.configFile) }),
    authMethods: [SETUP_METHOD],
    // With no model yet, an editor that can run setup is asked to (session/new: auth_required);
    // the others get sessions whose every prompt says how to set one up.
    authRequired: () => models === undefined,
    store,
    logger,
    agentInfo: { name: "weft", title: "weft", version },
    onInitialized: () => {
      store.warm();
      models?.warm();
    },
    modelIdleTimeoutMs: config.modelIdleTimeoutMs,
    contextWindow: config.contextWindow,
  });
}

/**
 * `weft setup` offered to editors that can run it in a terminal: the editor runs the command it
 * starts the agent with, plus `--setup`, and starts the agent again once setup exits 0.
 */
const SETUP_METHOD = {
  type: "terminal",
  id: "weft-setup",
  name: "Set up a model",
  description: "Choose a provider and a model, and store its API key for weft (weft setup).",
  args: ["--setup"],
} as const;

/** The signals clients and supervisors stop an agent with. */
const STOP_SIGNALS = ["SIGTERM", "SIGHUP", "SIGINT"] as const;

/** How long a stop waits for the session store to finish what it is writing. */
const STOP_GRACE_MS = 500;

/**
 * Stops the agent at once, as a signal asks. Commands it started are killed with their process
 * groups. Turns in progress are not cancelled: they stay recorded as in progress, exactly as after
 * a crash, so the next `session/load` carries them on. Everything already acknowledged to the
 * editor is in the store, because a turn is answered only after its record is written.
 */
async function stop(signal: NodeJS.Signals, store: LazyStore, logger: Logger): Promise<void> {
  const killed = killAllGroups();
  logger.info(`Stopping on ${signal}`, killed > 0 ? { killedCommands: killed } : undefined);
  process.stdin.pause();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([store.close().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)))]);
  clearTimeout(timer);
  process.exit(0);
}

/** stdin and `stdout` (process.stdout, or the protocol's stream of it) with every ACP line copied to the debug log. */
function wireLog(logger: Logger, stdout: Writable): AcpStreams {
  const tap = (direction: string) => {
    let pending = "";
    return (chunk: Buffer | string) => {
      pending += chunk.toString();
      for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        logger.debug(`${direction} ${line.length > 2000 ? `${line.slice(0, 2000)}…` : line}`);
      }
    };
  };
  const input = new PassThrough();
  const fromEditor = tap("editor →");
  process.stdin.on("data", (chunk: Buffer) => {
    fromEditor(chunk);
    input.write(chunk);
  });
  process.stdin.on("end", () => input.end());
  const output = new PassThrough();
  // An editor that goes away must end the connection in this mode too, as it does without the log.
  stdout.on("error", (error) => output.destroy(error));
  const toEditor = tap("← agent");
  output.on("data", (chunk: Buffer) => {
    toEditor(chunk);
    stdout.write(chunk);
  });
  return { input, output };
}
