// `weft setup` (and `weft acp --setup`, which editors run as a terminal sign-in): asks for a
// provider, a model and an API key, then writes the config file and the key, in a file of the
// server's own that only the person can read. Reads its answers line by line, so a script can pipe
// them in.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";

import { choiceId, qualifiedChoiceId, serverAt, serverOf } from "../coding-agent/model-choice-id.js";
import { apiKeyProblem } from "../models/api-key-problem.js";
import { OLLAMA_BASE_URL } from "../models/resolve-model.js";
import { listServerModels } from "../models/server-models.js";
import { configFilePath, keyPath, parseConfig } from "./models-config.js";
import { UsageError } from "./usage-error.js";

interface ProviderChoice {
  provider: "openai" | "anthropic" | "ollama" | "openai-compatible";
  label: string;
  suggested?: string | undefined;
  /** Whether it needs a key (else a key is asked for but may be left empty), or never takes one. */
  key: "required" | "optional" | "none";
}

const PROVIDERS: readonly ProviderChoice[] = [
  { provider: "openai", label: "OpenAI", suggested: "gpt-4.1", key: "required" },
  { provider: "anthropic", label: "Anthropic", suggested: "claude-sonnet-4-5", key: "required" },
  { provider: "ollama", label: "Ollama, on this machine", suggested: "qwen3", key: "none" },
  { provider: "openai-compatible", label: "Another OpenAI-compatible server (vLLM, LM Studio, llama.cpp…)", key: "optional" },
];

/** The questions' way in and out: one answer a line; a secret is not echoed on a terminal. */
interface Asker {
  ask(question: string, options?: { secret?: boolean | undefined }): Promise<string>;
  say(text: string): void;
  close(): void;
}

/** Runs setup on this terminal (or piped input) and resolves with the exit code. */
export async function runSetup(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const asker = terminalAsker();
  try {
    return await setUp(asker, env);
  } finally {
    asker.close();
  }
}

async function setUp(asker: Asker, env: NodeJS.ProcessEnv): Promise<number> {
  const configFile = configFilePath(env);
  const existing = readExisting(configFile);
  asker.say(`Set up a model for weft. Your answers go to ${configFile}.\n`);
  asker.say(PROVIDERS.map((choice, index) => `  ${index + 1}) ${choice.label}`).join("\n"));
  const provider = await pick(asker);
  let baseURL: string | undefined;
  if (provider.provider === "ollama" || provider.provider === "openai-compatible") {
    const fallback = provider.provider === "ollama" ? OLLAMA_BASE_URL : undefined;
    for (;;) {
      const answer = (await asker.ask(fallback ? `Server's base URL [${fallback}]: ` : "Server's base URL (such as http://127.0.0.1:8000/v1): ")) || fallback || "";
      if (/^https?:\/\/./.test(answer) && URL.canParse(answer)) {
        baseURL = answer;
        break;
      }
      asker.say("The base URL must start with http:// or https://.");
    }
  }
  const directory = dirname(configFile);
  const entries = existing.models as ConfigEntry[];
  const server = serverAt(provider.provider, baseURL);
  const ofServer = (entry: ConfigEntry) => serverOf(entry) === server;
  // A key saved for this server before may be kept: Enter keeps it ("-" then means none).
  const saved = entries.find((entry) => ofServer(entry) && entry.apiKeyFile !== undefined)?.apiKeyFile;
  let key: string | undefined;
  let keyFile: string | undefined;
  if (provider.key !== "none") {
    const question =
      provider.key === "required"
        ? `${provider.label} API key (not shown${saved ? "; empty keeps the saved one" : ""}): `
        : `API key, if the server needs one (not shown; ${saved ? 'empty keeps the saved one, "-" for none' : "empty for none"}): `;
    for (;;) {
      key = (await asker.ask(question, { secret: true })).trim();
      if (key === "" && saved !== undefined) {
        keyFile = saved;
        key = savedKey(saved, configFile);
        break;
      }
      if (key === "-" && saved !== undefined && provider.key === "optional") {
        key = undefined;
        break;
      }
      const problem = key === "" ? undefined : apiKeyProblem(key);
      if (problem !== undefined) {
        asker.say(`That key ${problem}. Paste the key itself.`);
        continue;
      }
      if (key !== "" || provider.key === "optional") {
        break;
      }
      asker.say("The key is needed to reach the provider.");
    }
  }
  let suggested = provider.suggested;
  if (baseURL !== undefined) {
    const listed = await listServerModels(baseURL, key ? { apiKey: key } : {}).catch((): string[] => []);
    if (listed.length > 0) {
      asker.say(`The server lists: ${listed.slice(0, 20).join(", ")}${listed.length > 20 ? ", …" : ""}`);
      suggested = listed.includes(suggested ?? "") ? suggested : listed[0];
    }
  }
  let modelId = "";
  while (modelId === "") {
    modelId = (await asker.ask(suggested ? `Model [${suggested}]: ` : "Model: ")).trim() || suggested || "";
  }
  const model = `${provider.provider}:${modelId}`;
  privateDirectory(directory);
  if (key && keyFile === undefined) {
    privateDirectory(join(directory, "keys"));
    keyFile = keyFileName(provider.provider, baseURL, (name) => entries.some((entry) => entry.apiKeyFile === name && !ofServer(entry)));
    const path = join(directory, keyFile);
    writeFileSync(path, `${key}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  // The key is the server's: its other models use the one given or kept too (or, with none, none).
  const models = entries.map((entry) => (ofServer(entry) ? withKeyFile(entry, keyFile) : entry));
  // The same model on the same server is set up again: its entry is replaced, keeping the fields
  // the person added. On another server it is a model of its own, with an id that names the server.
  const same = models.findIndex((entry) => entry.model === model && ofServer(entry));
  const entry: ConfigEntry = same >= 0 ? { ...(models.splice(same, 1)[0] as ConfigEntry), model } : { model };
  if (baseURL !== undefined) {
    entry.baseURL = baseURL;
  }
  const taken = (id: string) => models.some((other) => choiceId(other) === id);
  if (same < 0 && taken(model)) {
    entry.id = qualifiedChoiceId(model, baseURL, taken);
  }
  const config = { ...existing, models: [withKeyFile(entry, keyFile), ...models], default: choiceId(entry) };
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  asker.say(`\nSaved ${configFile}: weft acp now starts with ${choiceId(entry)}.`);
  if (keyFile !== undefined) {
    asker.say(`The key is in ${join(directory, keyFile)}, readable only by you.`);
  }
  return 0;
}

/** An entry of the config file as setup reads and writes it: the fields it sets, and the rest as they are. */
interface ConfigEntry extends Record<string, unknown> {
  model: string;
  id?: string;
  baseURL?: string;
  apiKeyFile?: string;
}

/** The key in a key file the config file names, for asking the server for its models; undefined when it cannot be read. */
function savedKey(file: string, configFile: string): string | undefined {
  try {
    return readFileSync(keyPath(file, configFile), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** `entry` with `keyFile` as its key file, or with none. */
function withKeyFile(entry: ConfigEntry, keyFile: string | undefined): ConfigEntry {
  const { apiKeyFile: _old, ...rest } = entry;
  return keyFile === undefined ? rest : { ...rest, apiKeyFile: keyFile };
}

/**
 * The key file of a server, relative to the config file's folder: `keys/openai.key` for a
 * provider's own service; for a server with a base URL, one named after its host, port and path
 * (`keys/openai-compatible-127.0.0.1-8000-v1.key`), numbered when another server's entry uses it.
 */
function keyFileName(provider: string, baseURL: string | undefined, usedByOther: (name: string) => boolean): string {
  let stem = provider;
  if (baseURL !== undefined) {
    const url = new URL(baseURL);
    const place = `${url.hostname}-${url.port || (url.protocol === "https:" ? "443" : "80")}${url.pathname}`;
    stem = `${provider}-${place.replace(/[^A-Za-z0-9.]+/g, "-").replace(/^-+|-+$/g, "")}`;
  }
  let name = join("keys", `${stem}.key`);
  for (let number = 2; usedByOther(name); number++) {
    name = join("keys", `${stem}-${number}.key`);
  }
  return name;
}

/** The config file as it is, to add to; a file weft cannot read is not overwritten. */
function readExisting(configFile: string): Record<string, unknown> & { models: unknown[] } {
  if (!existsSync(configFile)) {
    return { models: [] };
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(configFile, "utf8"));
  } catch (error) {
    throw new UsageError(`The config file ${configFile} is not valid JSON (${(error as Error).message}); fix or remove it, then run weft setup again`);
  }
  parseConfig(json, configFile);
  const existing = json as Record<string, unknown>;
  return { ...existing, models: Array.isArray(existing.models) ? existing.models : [] };
}

async function pick(asker: Asker): Promise<ProviderChoice> {
  for (;;) {
    const answer = (await asker.ask("Provider [1]: ")).trim().toLowerCase() || "1";
    const chosen = PROVIDERS[Number(answer) - 1] ?? PROVIDERS.find((choice) => choice.provider === answer);
    if (chosen) {
      return chosen;
    }
    asker.say(`Answer with a number from 1 to ${PROVIDERS.length}.`);
  }
}

/** Makes a directory only its owner can enter, or makes an existing one so. */
function privateDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}

/** Asks on stdin and stdout; on a terminal, a secret answer is not echoed. */
function terminalAsker(): Asker {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (!muted) {
        process.stdout.write(chunk);
      }
      callback();
    },
  });
  const terminal = Boolean(process.stdin.isTTY);
  const lines = createInterface({ input: process.stdin, output, terminal });
  // Ctrl-C stops setup (its input ends) rather than pausing the terminal.
  lines.on("SIGINT", () => lines.close());
  // Piped input can end before the last questions are asked: its lines wait in the iterator, but
  // a closed readline refuses to prompt (Node 24 throws), so the question is then written as is.
  let closed = false;
  lines.on("close", () => {
    closed = true;
  });
  const next = lines[Symbol.asyncIterator]();
  return {
    async ask(question, options) {
      // The question as readline's prompt, so it redraws it as the person edits the line.
      if (closed) {
        process.stdout.write(question);
      } else {
        lines.setPrompt(question);
        lines.prompt();
      }
      muted = Boolean(options?.secret) && terminal;
      const line = await next.next();
      if (muted) {
        process.stdout.write("\n");
      }
      muted = false;
      if (line.done) {
        throw new SetupStopped();
      }
      return line.value;
    },
    say(text) {
      process.stdout.write(`${text}\n`);
    },
    close() {
      lines.close();
    },
  };
}

/** The input ended before setup was done: nothing is written. */
export class SetupStopped extends Error {
  override name = "SetupStopped";
  constructor() {
    super("Setup stopped before it was done; nothing was written.");
  }
}
