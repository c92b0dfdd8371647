// Reads the command's settings from flags and environment variables, checking each value.

import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

import type { ModelChoice } from "../coding-agent/model-options.js";
import { apiKeyProblem } from "../models/api-key-problem.js";
import { configFilePath, readModelsConfig } from "./models-config.js";
import { LOG_LEVELS, type LogLevel } from "./stderr-logger.js";
import { UsageError } from "./usage-error.js";

export { UsageError } from "./usage-error.js";

export interface AgentConfig {
  /** The models to offer, from the config file, WEFT_MODELS and WEFT_MODEL/--model; empty when none is configured. */
  models: ModelChoice[];
  /** The model a new session starts with; undefined when there are no models. */
  defaultModel: string | undefined;
  /** The config file the models were read from (it need not exist). */
  configFile: string;
  sessions: string;
  logLevel: LogLevel;
  /** How long a model call may send nothing before it is stopped, in ms; undefined for the default. */
  modelIdleTimeoutMs: number | undefined;
  /** The model's context window in tokens, when it was given; undefined when it is not known. */
  contextWindow: number | undefined;
}

export interface AgentFlags {
  model?: string | undefined;
  "base-url"?: string | undefined;
  sessions?: string | undefined;
  "model-timeout"?: string | undefined;
  "context-window"?: string | undefined;
}

export function readAgentConfig(flags: AgentFlags, env: NodeJS.ProcessEnv): AgentConfig {
  const baseURL = flags["base-url"] ?? nonEmpty(env.WEFT_BASE_URL);
  if (baseURL !== undefined && !/^https?:\/\/./.test(baseURL)) {
    throw new UsageError(`The base URL must start with http:// or https://, not ${JSON.stringify(baseURL)}.`);
  }
  const apiKey = nonEmpty(env.WEFT_API_KEY);
  const keyProblem = apiKey === undefined ? undefined : apiKeyProblem(apiKey);
  if (keyProblem !== undefined) {
    throw new UsageError(`WEFT_API_KEY ${keyProblem}. Set it to the real key.`);
  }
  const configFile = configFilePath(env);
  const models = readModelsConfig(configFile, { model: flags.model ?? nonEmpty(env.WEFT_MODEL), models: nonEmpty(env.WEFT_MODELS), baseURL, apiKey });
  const logLevel = (nonEmpty(env.WEFT_LOG) ?? "warn") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`WEFT_LOG must be one of ${LOG_LEVELS.join(", ")}, not ${JSON.stringify(env.WEFT_LOG)}.`);
  }
  return {
    models: models.models,
    defaultModel: models.default,
    configFile,
    sessions: checkSessions(flags.sessions ?? nonEmpty(env.WEFT_SESSIONS) ?? defaultSessionsPath(env), flags.sessions === undefined ? "WEFT_SESSIONS" : "--sessions"),
    logLevel,
    modelIdleTimeoutMs: readSeconds(flags["model-timeout"] ?? nonEmpty(env.WEFT_MODEL_TIMEOUT), flags["model-timeout"] === undefined ? "WEFT_MODEL_TIMEOUT" : "--model-timeout"),
    contextWindow: readTokens(flags["context-window"] ?? nonEmpty(env.WEFT_CONTEXT_WINDOW), flags["context-window"] === undefined ? "WEFT_CONTEXT_WINDOW" : "--context-window"),
  };
}

/**
 * Checks the flags given with `weft acp --graph`, and hands `--model` and `--base-url` to the
 * module as WEFT_MODEL and WEFT_BASE_URL, where a graph that takes its model as `weft acp` does
 * (the examples do) finds them. The coding agent's other settings mean nothing to a module's graph.
 */
export function graphFlags(flags: AgentFlags & { setup?: boolean | undefined }, env: NodeJS.ProcessEnv): void {
  for (const name of ["model-timeout", "context-window", "setup"] as const) {
    if (flags[name] !== undefined) {
      throw new UsageError(`--${name} is for weft's coding agent; it does nothing with --graph`);
    }
  }
  if (flags.model !== undefined) {
    env.WEFT_MODEL = flags.model;
  }
  if (flags["base-url"] !== undefined) {
    env.WEFT_BASE_URL = flags["base-url"];
  }
}

/** A whole number of tokens above 0 (`200000`, or `200k`). */
function readTokens(value: string | undefined, source: string): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const match = /^\s*(\d+)\s*([kK]?)\s*$/.exec(value);
  const tokens = match ? Number(match[1]) * (match[2] ? 1000 : 1) : Number.NaN;
  if (!Number.isSafeInteger(tokens) || tokens <= 0) {
    throw new UsageError(`${source} must be a whole number of tokens above 0 (such as 200000 or 200k), not ${JSON.stringify(value)}`);
  }
  return tokens;
}

/** A positive number of seconds, as milliseconds. */
function readSeconds(value: string | undefined, source: string): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const seconds = Number(value);
  if (value.trim() === "" || !Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`${source} must be a positive number of seconds, not ${JSON.stringify(value)}`);
  }
  return Math.round(seconds * 1000);
}

const SQLITE_EXTENSIONS = [".db", ".sqlite", ".sqlite3", ".db3"];

/**
 * Checks a sessions value against what the help documents: `memory`, `postgres://…` or
 * `postgresql://…`, `redis://…` or `rediss://…`, `sqlite:<path>`, or a SQLite file path (one with
 * a directory in it or a SQLite extension, so a typo such as `MEMORY` is not taken for a file).
 */
export function checkSessions(value: string, source: string): string {
  const fail = (reason: string): never => {
    throw new UsageError(`${source} ${JSON.stringify(value)} ${reason}; use memory, a SQLite file path (such as ./sessions.db), postgres://… or redis://…`);
  };
  if (value.trim() === "") {
    fail("is empty");
  }
  if (value === "memory") {
    return value;
  }
  if (value.toLowerCase() === "memory") {
    fail("is not memory (write it in lower case)");
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1];
  // A single letter before the colon is a Windows drive, not a scheme.
  if (scheme !== undefined && scheme.length > 1) {
    const name = scheme.toLowerCase();
    if (name === "sqlite") {
      return value.length > "sqlite:".length ? value : fail("names no file");
    }
    if (!["postgres", "postgresql", "redis", "rediss"].includes(name)) {
      fail(`uses a scheme weft does not support (${scheme}:)`);
    }
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return fail("is not a valid URL");
    }
    if (!value.slice(scheme.length).startsWith("://") || url.hostname === "") {
      fail("has no host (write it as scheme://host…)");
    }
    return value;
  }
  if (!/[\\/]/.test(value) && !SQLITE_EXTENSIONS.some((extension) => value.toLowerCase().endsWith(extension))) {
    fail(`is not a file path (a SQLite file needs a directory in its path or an extension such as ${SQLITE_EXTENSIONS.join(", ")})`);
  }
  if (existsSync(value) && statSync(value).isDirectory()) {
    fail("is a directory, not a file");
  }
  return value;
}

/** `$XDG_STATE_HOME/weft/sessions.db`, or `~/.local/state/weft/sessions.db`. */
export function defaultSessionsPath(env: NodeJS.ProcessEnv): string {
  const state = nonEmpty(env.XDG_STATE_HOME) ?? join(homedir(), ".local", "state");
  return join(state, "weft", "sessions.db");
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
