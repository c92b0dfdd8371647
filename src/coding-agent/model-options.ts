// The models a person can pick in their editor for a `weft acp` session: the `model` config option
// (the models they configured, and what their Ollama or OpenAI-compatible servers list), the
// `thought_level` option for models that reason, the model and provider options each model call
// uses, and the context window (the config's, the server's own, or the known-models table's) and
// prices for the usage display.

import { readFileSync } from "node:fs";

import type { LanguageModelV3, SharedV3ProviderOptions } from "@ai-sdk/provider";

import type { AgentRunContext } from "../agent/create-agent.js";
import { WeftError } from "../errors/weft-error.js";
import type { RunConfig } from "../graph/run-outcome.js";
import { apiKeyProblem } from "../models/api-key-problem.js";
import { knownModel, type ModelPrices } from "../models/known-models.js";
import { lazyModel } from "../models/lazy-model.js";
import { OLLAMA_BASE_URL, parseModelSpec } from "../models/resolve-model.js";
import { serverContextWindows } from "../models/server-context-windows.js";
import { type ServerModel, serverModelList, SERVER_MODELS_TIMEOUT_MS } from "../models/server-models.js";
import type { AcpConfigChoice, AcpConfigOption } from "../acp/surface/config-options.js";
import type { AcpUsageOptions } from "../acp/surface/usage.js";
import { silentLogger, type Logger } from "../types/logger.js";
import { choiceId, qualifiedChoiceId, serverOf } from "./model-choice-id.js";
import { errorMessage } from "../errors/error-message.js";

/** One model a person can pick, as their config file or environment gives it. */
export interface ModelChoice {
  /** A "provider:model" string, such as `openai:gpt-4.1`: also the value the option takes, unless `id` is given. */
  model: string;
  /**
   * The value the option takes for this choice, when it is not the model string: for a model
   * that two servers serve, so each is a choice of its own (`openai-compatible:llama@box:8000`).
   */
  id?: string | undefined;
  /** What the editor shows. Defaults to the model string. */
  name?: string | undefined;
  description?: string | undefined;
  /** The server's base URL (required for openai-compatible; Ollama defaults to its local port). */
  baseURL?: string | undefined;
  /** The API key itself (from WEFT_API_KEY); a config file names a file instead. */
  apiKey?: string | undefined;
  /** A file holding the API key, read when the model is first called. */
  apiKeyFile?: string | undefined;
  /** Overrides the known-model table's context window, in tokens. */
  contextWindow?: number | undefined;
  /** Overrides the known-model table's prices. */
  prices?: ModelPrices | undefined;
  /** Overrides whether the model takes a reasoning effort (the table's, else no). */
  reasoning?: boolean | undefined;
  /** For Ollama and OpenAI-compatible servers: also offer the models the server lists. Default true. */
  listServerModels?: boolean | undefined;
}

/** The config option ids the run reads. */
export const MODEL_OPTION_ID = "model";
export const THOUGHT_LEVEL_OPTION_ID = "thought_level";

/** The reasoning efforts offered, and what each asks of Anthropic's thinking, in tokens. */
const THOUGHT_LEVELS = [
  { value: "low", name: "Low", budgetTokens: 2_048 },
  { value: "medium", name: "Medium", budgetTokens: 8_192 },
  { value: "high", name: "High", budgetTokens: 24_576 },
] as const;

export interface ModelCatalogOptions {
  /** The model a new session starts with; defaults to the first choice. */
  default?: string | undefined;
  logger?: Logger | undefined;
  /** How long a server's model list may take. */
  listTimeoutMs?: number | undefined;
}

/** How long a failed listing is left before the next session asks again. */
const RETRY_LISTING_MS = 60_000;

/**
 * The models of one `weft acp`: what the editor offers, and the model, provider options and
 * usage figures for each session's pick. Servers' own lists are fetched once `warm()` is called
 * (after `initialize` is answered) and awaited, with a short timeout, by the first session;
 * a server that does not answer is logged and its list left out.
 */
export class ModelCatalog {
  private readonly choices: ModelChoice[];
  private readonly defaultModel: string;
  private readonly logger: Logger;
  private readonly listTimeoutMs: number;
  private readonly models = new Map<string, LanguageModelV3>();
  /** The context windows the servers told, by "provider:model". */
  private readonly serverWindows = new Map<string, number>();
  private listing: Promise<void> | undefined;
  private listedAt = 0;
  private listFailed = false;
  private options: AcpConfigOption[] | undefined;

  /** Throws a WeftError (`invalid_option`) when there is no choice or the default is not one. */
  constructor(choices: readonly ModelChoice[], options: ModelCatalogOptions = {}) {
    if (choices.length === 0) {
      throw new WeftError("invalid_option", "A model catalog needs at least one model.");
    }
    this.choices = [...choices];
    this.defaultModel = options.default ?? choiceId(choices[0] as ModelChoice);
    if (!this.choices.some((choice) => choiceId(choice) === this.defaultModel)) {
      throw new WeftError("invalid_option", `The default model ${this.defaultModel} is not one of the models.`);
    }
    this.logger = options.logger ?? silentLogger;
    this.listTimeoutMs = options.listTimeoutMs ?? SERVER_MODELS_TIMEOUT_MS;
  }

  /** Starts fetching the servers' model lists, if any; call it off the start path. */
  warm(): void {
    void this.listed();
  }

  /**
   * The config options for a session: `model`, and `thought_level` when a model offered
   * reasons. The same array while nothing changes, so serveAcp checks it once.
   */
  configOptions = async (): Promise<readonly AcpConfigOption[]> => {
    await this.listed();
    this.options ??= this.buildOptions();
    return this.options;
  };

  /** The model for a run's pick, built once per choice. */
  modelFor = ({ config }: Pick<AgentRunContext, "config">): LanguageModelV3 => {
    const choice = this.choiceFor(config);
    let model = this.models.get(choiceId(choice));
    if (!model) {
      model = lazyChoice(choice);
      this.models.set(choiceId(choice), model);
    }
    return model;
  };

  /** The provider options that carry the session's thought level to a model that reasons. */
  providerOptionsFor = ({ config }: Pick<AgentRunContext, "config">): SharedV3ProviderOptions | undefined => {
    const choice = this.choiceFor(config);
    const level = THOUGHT_LEVELS.find((entry) => entry.value === config[THOUGHT_LEVEL_OPTION_ID]);
    if (!level || !this.reasons(choice)) {
      return undefined;
    }
    return reasoningOptions(parseModelSpec(choice.model).provider, level);
  };

  /** The context window and prices of each session's pick, for serveAcp's `usage`. */
  readonly usage: AcpUsageOptions = {
    contextWindow: (config) => this.figures(this.choiceFor(config)).contextWindow,
    prices: (config) => this.figures(this.choiceFor(config)).prices,
  };

  private choiceFor(config: RunConfig): ModelChoice {
    const picked = config[MODEL_OPTION_ID];
    return this.choices.find((choice) => choiceId(choice) === picked) ?? (this.choices.find((choice) => choiceId(choice) === this.defaultModel) as ModelChoice);
  }

  /** A choice's window: the config's, else what its server told, else the known-models table's. */
  private figures(choice: ModelChoice): { contextWindow: number | undefined; prices: ModelPrices | undefined } {
    const known = knownModel(choice.model);
    return { contextWindow: choice.contextWindow ?? this.serverWindows.get(choice.model) ?? known?.contextWindow, prices: choice.prices ?? known?.prices };
  }

  private reasons(choice: ModelChoice): boolean {
    return choice.reasoning ?? knownModel(choice.model)?.reasoning ?? false;
  }

  private buildOptions(): AcpConfigOption[] {
    const choices: AcpConfigChoice[] = this.choices.map((choice) => {
      const entry: AcpConfigChoice = { value: choiceId(choice), name: choice.name ?? choiceId(choice) };
      if (choice.description !== undefined) {
        entry.description = choice.description;
      }
      return entry;
    });
    const options: AcpConfigOption[] = [{ type: "select", id: MODEL_OPTION_ID, name: "Model", category: "model", default: this.defaultModel, options: choices }];
    const reasoning = this.choices.filter((choice) => this.reasons(choice)).map(choiceId);
    if (reasoning.length > 0) {
      options.push({
        type: "select",
        id: THOUGHT_LEVEL_OPTION_ID,
        name: "Thinking",
        description: "How hard a model that reasons thinks before it answers.",
        category: "thought_level",
        default: "medium",
        options: THOUGHT_LEVELS.map(({ value, name }) => ({ value, name })),
        when: (values) => reasoning.includes(String(values[MODEL_OPTION_ID])),
      });
    }
    return options;
  }

  /** Waits for the servers' lists (fetched once; a failed one again after a while). */
  private listed(): Promise<void> {
    if (this.listing && this.listFailed && Date.now() - this.listedAt > RETRY_LISTING_MS) {
      this.listing = undefined;
    }
    this.listing ??= this.listServers();
    return this.listing;
  }

  /**
   * Lists each Ollama and OpenAI-compatible server's models (adding them to the choices, unless
   * every choice on it says `listServerModels: false`), and asks it the context window of each of
   * its models whose window the config does not give.
   */
  private async listServers(): Promise<void> {
    this.listFailed = false;
    const servers = new Map<string, { server: ModelChoice & { baseURL: string }; list: boolean }>();
    for (const choice of this.choices) {
      const { provider } = parseModelSpec(choice.model);
      // Ollama's models without a base URL are on its local port, as resolveModel() has it.
      const baseURL = choice.baseURL ?? (provider === "ollama" ? OLLAMA_BASE_URL : undefined);
      if ((provider === "ollama" || provider === "openai-compatible") && baseURL !== undefined) {
        const key = serverOf(choice);
        const list = choice.listServerModels !== false;
        const known = servers.get(key);
        if (!known) {
          servers.set(key, { server: { ...choice, baseURL }, list });
        } else if (list) {
          known.list = true;
        }
      }
    }
    const lists = await Promise.all(
      [...servers.values()].map(async ({ server, list }) => {
        try {
          return { server, list, models: await serverModelList(server.baseURL, { apiKey: readKey(server), timeoutMs: this.listTimeoutMs }), reached: true };
        } catch (error) {
          const message = errorMessage(error);
          if (list) {
            this.listFailed = true;
            this.logger.warn("A model server's list of models is left out", { error: message });
          } else {
            this.logger.debug("A model server's list of models could not be had for its context windows", { error: message });
          }
          return { server, list, models: [] as ServerModel[], reached: false };
        }
      }),
    );
    this.listedAt = Date.now();
    let added = false;
    for (const { server, list, models } of lists) {
      if (!list) {
        continue;
      }
      const provider = parseModelSpec(server.model).provider;
      for (const { id } of models) {
        const model = `${provider}:${id}`;
        // A model the server's own entry names is there already; one another server's entry
        // names too is offered apart, under an id that names this server.
        if (this.choices.some((choice) => choice.model === model && serverOf(choice) === serverOf(server))) {
          continue;
        }
        const listed: ModelChoice = { model, name: id, description: `Listed by ${server.baseURL}`, baseURL: server.baseURL, listServerModels: false };
        if (this.choices.some((choice) => choiceId(choice) === model)) {
          listed.id = qualifiedChoiceId(model, server.baseURL, (taken) => this.choices.some((choice) => choiceId(choice) === taken));
        }
        if (server.apiKey !== undefined) {
          listed.apiKey = server.apiKey;
        }
        if (server.apiKeyFile !== undefined) {
          listed.apiKeyFile = server.apiKeyFile;
        }
        this.choices.push(listed);
        added = true;
      }
    }
    if (added) {
      this.options = undefined;
    }
    await Promise.all(lists.filter((entry) => entry.reached).map(({ server, models }) => this.askWindows(server, models)));
  }

  /** Asks `server` the context window of each of its models the config gives none for, as the server knows it. */
  private async askWindows(server: ModelChoice & { baseURL: string }, models: readonly ServerModel[]): Promise<void> {
    const provider = parseModelSpec(server.model).provider;
    const asked: ServerModel[] = [];
    for (const choice of this.choices) {
      const spec = parseModelSpec(choice.model);
      const baseURL = choice.baseURL ?? (spec.provider === "ollama" ? OLLAMA_BASE_URL : undefined);
      if (spec.provider !== provider || baseURL !== server.baseURL || choice.contextWindow !== undefined) {
        continue;
      }
      asked.push(models.find((model) => model.id === spec.modelId) ?? { id: spec.modelId });
    }
    try {
      const windows = await serverContextWindows({ provider, baseURL: server.baseURL, apiKey: readKey(server), timeoutMs: this.listTimeoutMs }, asked);
      for (const [id, size] of windows) {
        this.serverWindows.set(`${provider}:${id}`, size);
      }
    } catch (error) {
      this.logger.debug("A model server's context windows could not be had", { error: errorMessage(error) });
    }
  }
}

/** The provider options that ask a provider's model for a reasoning effort. */
function reasoningOptions(provider: string, level: (typeof THOUGHT_LEVELS)[number]): SharedV3ProviderOptions {
  switch (provider) {
    case "openai":
      return { openai: { reasoningEffort: level.value } };
    case "anthropic":
      return { anthropic: { thinking: { type: "enabled", budgetTokens: level.budgetTokens } } };
    default:
      // OpenAI-compatible servers (and Ollama's) take OpenAI's `reasoning_effort`.
      return { openaiCompatible: { reasoningEffort: level.value } };
  }
}

/** The key a choice names: given, or read from its file; undefined for the provider's own variable. */
function readKey(choice: ModelChoice): string | undefined {
  if (choice.apiKey !== undefined) {
    return choice.apiKey;
  }
  if (choice.apiKeyFile === undefined) {
    return undefined;
  }
  let key: string;
  try {
    key = readFileSync(choice.apiKeyFile, "utf8").trim();
  } catch (error) {
    throw new WeftError("model_key_unreadable", `Cannot read the API key of ${choice.model} from ${choice.apiKeyFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}. Run weft setup, or fix apiKeyFile in the config file.`, { cause: error });
  }
  const problem = key === "" ? undefined : apiKeyProblem(key);
  if (problem !== undefined) {
    throw new WeftError("invalid_api_key", `The API key of ${choice.model} in ${choice.apiKeyFile} ${problem}. Run weft setup, or put the real key in that file.`);
  }
  return key;
}

/** A model that reads its key and loads its provider when first called. */
function lazyChoice(choice: ModelChoice): LanguageModelV3 {
  return lazyModel(choice.model, () => ({ apiKey: readKey(choice), baseURL: choice.baseURL }));
}
