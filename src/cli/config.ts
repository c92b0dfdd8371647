// Reads the command's settings from flags and environment variables, checking each value.

import { homedir } from "node:os";
import { join } from "node:path";

import { parseModelSpec } from "../models/resolve-model.js";
import { LOG_LEVELS, type LogLevel } from "./stderr-logger.js";

/** A flag or variable with a value the command cannot use. Exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface AgentConfig {
  /** Undefined when no model is configured. */
  model: string | undefined;
  baseURL: string | undefined;
  apiKey: string | undefined;
  sessions: string;
  logLevel: LogLevel;
}

export function readAgentConfig(flags: { model?: string | undefined; "base-url"?: string | undefined; sessions?: string | undefined }, env: NodeJS.ProcessEnv): AgentConfig {
  const model = flags.model ?? nonEmpty(env.WEFT_MODEL);
  if (model !== undefined) {
    try {
      parseModelSpec(model);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (model.startsWith("openai-compatible:") && !(flags["base-url"] ?? nonEmpty(env.WEFT_BASE_URL))) {
      throw new UsageError(`${model} needs a base URL: pass --base-url or set WEFT_BASE_URL (for example http://127.0.0.1:8000/v1).`);
    }
  }
  const baseURL = flags["base-url"] ?? nonEmpty(env.WEFT_BASE_URL);
  if (baseURL !== undefined && !/^https?:\/\/./.test(baseURL)) {
    throw new UsageError(`The base URL must start with http:// or https://, not ${JSON.stringify(baseURL)}.`);
  }
  const logLevel = (nonEmpty(env.WEFT_LOG) ?? "warn") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`WEFT_LOG must be one of ${LOG_LEVELS.join(", ")}, not ${JSON.stringify(env.WEFT_LOG)}.`);
  }
  return {
    model,
    baseURL,
    apiKey: nonEmpty(env.WEFT_API_KEY),
    sessions: flags.sessions ?? nonEmpty(env.WEFT_SESSIONS) ?? defaultSessionsPath(env),
    logLevel,
  };
}

/** `$XDG_STATE_HOME/weft/sessions.db`, or `~/.local/state/weft/sessions.db`. */
export function defaultSessionsPath(env: NodeJS.ProcessEnv): string {
  const state = nonEmpty(env.XDG_STATE_HOME) ?? join(homedir(), ".local", "state");
  return join(state, "weft", "sessions.db");
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
