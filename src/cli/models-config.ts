// The models `weft acp` offers: the config file (`$XDG_CONFIG_HOME/weft/config.json`), WEFT_MODELS
// and WEFT_MODEL/--model, read and checked, with an error that names the file and the field.

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";

import { choiceId } from "../coding-agent/model-choice-id.js";
import type { ModelChoice } from "../coding-agent/model-options.js";
import type { ModelPrices } from "../models/known-models.js";
import { parseModelSpec } from "../models/resolve-model.js";
import { definedFields } from "../types/defined-fields.js";
import { UsageError } from "./usage-error.js";

/** The models to offer and the one a new session starts with. */
export interface ModelsConfig {
  models: ModelChoice[];
  /** Undefined when there are no models. */
  default: string | undefined;
}

/** What the command line and environment add to the file. */
export interface ModelSources {
  /** --model or WEFT_MODEL: offered first, and the default. */
  model?: string | undefined;
  /** WEFT_MODELS, comma-separated. */
  models?: string | undefined;
  /** WEFT_BASE_URL or --base-url, for the models above. */
  baseURL?: string | undefined;
  /** WEFT_API_KEY, for the models above. */
  apiKey?: string | undefined;
}

/** `$XDG_CONFIG_HOME/weft/config.json`, or `~/.config/weft/config.json`. */
export function configFilePath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(homedir(), ".config");
  return join(base, "weft", "config.json");
}

/**
 * The models from the config file at `path` (none when there is no file), then the ones the
 * environment names: `--model`/WEFT_MODEL first and as the default, then WEFT_MODELS, then the
 * file's (a model both name keeps the file's settings: the entry with that id, else the first with
 * that model string). Throws a UsageError naming the file and the field for a file that is not valid.
 */
export function readModelsConfig(path: string, sources: ModelSources): ModelsConfig {
  const file = readConfigFile(path);
  const fromEnvironment = (model: string, source: string): ModelChoice => {
    const inFile = file?.models.find((choice) => choiceId(choice) === model) ?? file?.models.find((choice) => choice.model === model);
    if (inFile) {
      return inFile;
    }
    checkSpec(model, source);
    if (model.startsWith("openai-compatible:") && !sources.baseURL) {
      throw new UsageError(`${model} needs a base URL: pass --base-url or set WEFT_BASE_URL (for example http://127.0.0.1:8000/v1).`);
    }
    const choice: ModelChoice = { model };
    if (sources.baseURL) {
      choice.baseURL = sources.baseURL;
    }
    if (sources.apiKey) {
      choice.apiKey = sources.apiKey;
    }
    return choice;
  };
  const models: ModelChoice[] = [];
  const add = (choice: ModelChoice) => {
    if (!models.some((known) => choiceId(known) === choiceId(choice))) {
      models.push(choice);
    }
  };
  if (sources.model !== undefined) {
    add(fromEnvironment(sources.model, "--model or WEFT_MODEL"));
  }
  for (const model of (sources.models ?? "").split(",").map((entry) => entry.trim()).filter(Boolean)) {
    add(fromEnvironment(model, "WEFT_MODELS"));
  }
  for (const choice of file?.models ?? []) {
    add(choice);
  }
  const first = models[0];
  const named = sources.model === undefined ? undefined : models.find((choice) => choiceId(choice) === sources.model || choice.model === sources.model);
  return { models, default: named ? choiceId(named) : (file?.default ?? (first && choiceId(first))) };
}

/** The file's models and default; undefined when there is no file. */
function readConfigFile(path: string): { models: ModelChoice[]; default: string | undefined } | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return undefined;
    }
    throw new UsageError(`Cannot read the config file ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`The config file ${path} is not valid JSON (${(error as Error).message})`);
  }
  return parseConfig(json, path);
}

const TOP_FIELDS = ["$schema", "models", "default"];
const MODEL_FIELDS = ["model", "id", "name", "description", "baseURL", "apiKeyFile", "contextWindow", "prices", "reasoning", "listServerModels"];
const PRICE_FIELDS = ["currency", "inputPerMillion", "outputPerMillion"];

/** Checks a parsed config file, field by field; `path` is for the messages and for relative key files. */
export function parseConfig(json: unknown, path: string): { models: ModelChoice[]; default: string | undefined } {
  const fail = (field: string, problem: string): never => {
    throw new UsageError(`The config file ${path} is not valid: ${field} ${problem}`);
  };
  const object = (value: unknown, field: string, known: readonly string[]): Record<string, unknown> => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      fail(field, "must be a JSON object");
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!known.includes(key)) {
        fail(field === "the file" ? key : `${field}.${key}`, `is not a field weft knows (the fields are ${known.filter((name) => name !== "$schema").join(", ")})`);
      }
    }
    return record;
  };
  const text = (value: unknown, field: string): string | undefined => {
    if (value !== undefined && (typeof value !== "string" || value.trim() === "")) {
      fail(field, `must be a non-empty string, not ${JSON.stringify(value)}`);
    }
    return value as string | undefined;
  };
  const flag = (value: unknown, field: string): boolean | undefined => {
    if (value !== undefined && typeof value !== "boolean") {
      fail(field, `must be true or false, not ${JSON.stringify(value)}`);
    }
    return value as boolean | undefined;
  };
  const top = object(json, "the file", TOP_FIELDS);
  const list = top.models ?? [];
  if (!Array.isArray(list)) {
    fail("models", "must be a list of models");
  }
  const models = (list as unknown[]).map((entry, index): ModelChoice => {
    const at = `models[${index}]`;
    const fields = object(entry, at, MODEL_FIELDS);
    const model = text(fields.model, `${at}.model`) ?? fail(`${at}.model`, 'is missing (write it as provider:model, such as "openai:gpt-4.1")');
    try {
      parseModelSpec(model);
    } catch (error) {
      fail(`${at}.model`, `is not usable: ${(error as Error).message}`);
    }
    // Checked in the order of MODEL_FIELDS; a field that is not given stays absent.
    const id = text(fields.id, `${at}.id`);
    const name = text(fields.name, `${at}.name`);
    const description = text(fields.description, `${at}.description`);
    const baseURL = text(fields.baseURL, `${at}.baseURL`);
    if (baseURL !== undefined && !/^https?:\/\/./.test(baseURL)) {
      fail(`${at}.baseURL`, `must start with http:// or https://, not ${JSON.stringify(baseURL)}`);
    }
    if (baseURL === undefined && model.startsWith("openai-compatible:")) {
      fail(`${at}.baseURL`, `is missing: ${model} needs the server's base URL (such as http://127.0.0.1:8000/v1)`);
    }
    const keyFile = text(fields.apiKeyFile, `${at}.apiKeyFile`);
    const contextWindow = fields.contextWindow;
    if (contextWindow !== undefined && (typeof contextWindow !== "number" || !Number.isSafeInteger(contextWindow) || contextWindow <= 0)) {
      fail(`${at}.contextWindow`, `must be a whole number of tokens above 0, not ${JSON.stringify(contextWindow)}`);
    }
    const choice = {
      id,
      name,
      description,
      baseURL,
      apiKeyFile: keyFile === undefined ? undefined : keyPath(keyFile, path),
      contextWindow: contextWindow as number | undefined,
      prices: fields.prices === undefined ? undefined : prices(object(fields.prices, `${at}.prices`, PRICE_FIELDS), `${at}.prices`, fail),
      reasoning: flag(fields.reasoning, `${at}.reasoning`),
      listServerModels: flag(fields.listServerModels, `${at}.listServerModels`),
    };
    return { model, ...definedFields(choice) };
  });
  const twice = models.find((choice, index) => models.findIndex((other) => choiceId(other) === choiceId(choice)) !== index);
  if (twice) {
    fail("models", `lists ${choiceId(twice)} twice (to offer one model from two servers, give each entry an "id" of its own)`);
  }
  const chosen = text(top.default, "default");
  if (chosen !== undefined && !models.some((choice) => choiceId(choice) === chosen)) {
    fail("default", `is ${JSON.stringify(chosen)}, which is not one of the models listed (${models.map(choiceId).join(", ") || "none"})`);
  }
  return { models, default: chosen };
}

function prices(fields: Record<string, unknown>, at: string, fail: (field: string, problem: string) => never): ModelPrices {
  const currency = fields.currency ?? "USD";
  if (typeof currency !== "string" || currency.trim() === "") {
    fail(`${at}.currency`, `must name a currency, such as "USD", not ${JSON.stringify(currency)}`);
  }
  const amount = (key: "inputPerMillion" | "outputPerMillion"): number => {
    const value = fields[key];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      fail(`${at}.${key}`, value === undefined ? "is missing (a price per million tokens)" : `must be a price of 0 or more, not ${JSON.stringify(value)}`);
    }
    return value as number;
  };
  return { currency: currency as string, inputPerMillion: amount("inputPerMillion"), outputPerMillion: amount("outputPerMillion") };
}

/** A key file's path: `~/` from the home directory, a relative one from the config file's folder. */
export function keyPath(file: string, configPath: string): string {
  if (file === "~" || file.startsWith("~/")) {
    return join(homedir(), file.slice(1));
  }
  return isAbsolute(file) ? file : resolve(dirname(configPath), file);
}

function checkSpec(model: string, source: string): void {
  try {
    parseModelSpec(model);
  } catch (error) {
    throw new UsageError(source === "WEFT_MODELS" ? `WEFT_MODELS: ${(error as Error).message}` : (error as Error).message);
  }
}
