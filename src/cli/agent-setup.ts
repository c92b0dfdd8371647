// What `weft acp` and `weft serve` both start with: a process that outlives a stray error, and the
// configured models (or none yet, which every prompt then explains).

import { ModelCatalog } from "../coding-agent/model-options.js";
import type { Logger } from "../types/logger.js";
import type { AgentConfig } from "./config.js";

/**
 * An agent must outlive a stray error: log it and keep serving (the session store keeps what was
 * acknowledged, and each request's own errors already become JSON-RPC errors).
 */
export function keepServing(logger: Logger): void {
  process.on("unhandledRejection", (reason) => logger.error("Unhandled rejection", { reason: String(reason) }));
  process.on("uncaughtException", (error) => logger.error("Uncaught exception", { error: error.stack ?? String(error) }));
}

/** The configured models, or undefined (with a warning saying how to set one up) when there are none. */
export function configuredModels(config: AgentConfig, logger: Logger): ModelCatalog | undefined {
  if (config.models.length === 0) {
    logger.warn(`No model is configured (run weft setup, write ${config.configFile}, or set WEFT_MODEL); every prompt will get a message saying how.`);
    return undefined;
  }
  return new ModelCatalog(config.models, { default: config.defaultModel, logger });
}
