// The `weft` command: parses arguments and hands off to a subcommand. Subcommands load only when
// chosen, so `weft acp` starts with nothing but what answers `initialize`.

import { readFileSync } from "node:fs";
import { type ParseArgsConfig, parseArgs } from "node:util";

import { UsageError } from "./config.js";
import { errorMessage } from "../errors/error-message.js";

const HELP = `weft: AI agents as graphs, served to code editors over the Agent Client Protocol (ACP).

Usage:
  weft acp [options]     Serve the weft coding agent over ACP on stdin/stdout (what an editor runs).
  weft chat [options]    Chat with an ACP agent (weft's, or any other) in this terminal.
  weft serve [options]   Serve the weft coding agent remotely, over ACP's Streamable HTTP and
                         WebSocket transport (weft chat --url, or any remote ACP client).
  weft setup             Choose a provider and a model and store its API key (asks in this
                         terminal, or reads the answers from stdin, one a line).
  weft check [options] -- <agent command…>
                         Check that an ACP agent (any, weft's or not) keeps the protocol: runs
                         it, plays the editor and the model, and reports each scenario.
  weft --help            Show this help.
  weft --version         Show the version.

weft acp options:
  --model <provider:model>   The model new sessions start with: openai:<id>, anthropic:<id>,
                             ollama:<id>, or openai-compatible:<id> with --base-url. [WEFT_MODEL]
  --base-url <url>           The model server's base URL (openai-compatible, or to override
                             a provider's).                                     [WEFT_BASE_URL]
  --model-timeout <seconds>  Stop a model call that sends nothing for this long and tell the
                             person. Default: 300.                            [WEFT_MODEL_TIMEOUT]
  --context-window <tokens>  The model's context window: older turns are summarised to keep
                             every call within it, and the editor is shown how full it is.
                                                                           [WEFT_CONTEXT_WINDOW]
  --graph <module>           Serve the graph a module exports instead of the coding agent (see
                             "Your own graph" below).
  --setup                    Run weft setup instead (what an editor's terminal sign-in runs).
  --sessions <where>         Where sessions are kept: memory, a SQLite file (a path with a
                             directory or a .db/.sqlite/.sqlite3 extension, or sqlite:<path>),
                             postgres://… or redis://…. Default: $XDG_STATE_HOME/weft/sessions.db
                             (~/.local/state/weft/sessions.db).               [WEFT_SESSIONS]

weft serve options (and the weft acp options above):
  --listen <host:port>       Where to listen. Default: 127.0.0.1:8377. Without authentication
                             only a loopback address is allowed.              [WEFT_LISTEN]
  --root <dir>               A directory sessions may be opened in, with all inside it (may be
                             repeated). Default: the current directory.
  --tokens-file <file>       Bearer tokens, one "token principal-id" a line.
                             Also WEFT_TOKENS=token:principal,token:principal.
  --jwks <url>               Accept JWTs signed by a key of this JWKS (with --issuer, --audience).
  --jwt-key <file>           Accept JWTs signed with this PEM public key or shared secret.
  --issuer <iss>             The issuer JWTs must name.
  --audience <aud>           The audience JWTs must name.
  --origin <origin>          A browser origin allowed to call (may be repeated). Default: loopback.
  --tls-cert <file>          Serve TLS (HTTP/2 and HTTP/1.1) with this certificate ...
  --tls-key <file>           ... and this key.
  What a principal may do: read and write files in the roots, and run commands (run_command)
  confined by bubblewrap (bwrap, needed on the server): they can write only in the session's
  directories and a /tmp of their own, have no network, and see none of the server's secrets
  (its environment, session store file, token and key files, config, and the credentials in
  its home directory). Without bwrap, run_command is refused. The clients' MCP servers are
  refused (a stdio one would run a command here; an HTTP one would have this machine connect
  where the client says).
  --allow-client-mcp <what>  Connect to the clients' MCP servers of this kind (may be repeated):
                             stdio (runs the command a client names, unconfined), a host name
                             or IP address (HTTP and SSE servers on it, any port), or * (any host).
  --command-network          Give commands this machine's network, loopback included: they can
                             then reach what listens on it, a Postgres or Redis session store too.
  --hide-from-commands <path>
                             Another file or directory commands must not see (may be repeated).
  --unconfined-commands      Run commands as they are, with this server's own access, environment
                             and network (as weft acp does): for a server whose every principal
                             may do all that. bwrap is then not needed.

weft chat options:
  --agent "<command args>"   The agent to run. Default: weft acp (with the options above).
  --url <url>                Connect to an agent served remotely instead of starting one:
                             http(s)://host/acp (Streamable HTTP) or ws(s)://host/acp (WebSocket).
  --token <token>            Sent as "Authorization: Bearer <token>" with --url. Other users can
                             see a flag in ps; prefer the environment.            [WEFT_TOKEN]
  --header "<Name: value>"   Another header to send with --url (may be repeated).
  --cwd <dir>                The directory the session works in. Default: the current one.
  --list                     List the agent's sessions in that directory and exit. Those
                             one-shot runs started are counted, not listed.
  --all                      With --list: list those one-shot runs started too.
  --resume <session id>      Reopen a session (with a prompt: send it there).
  -p, --prompt "<prompt>"    Run one turn with this prompt and exit; what is piped into stdin
                             follows it. Without -p, stdin that is not a terminal is the prompt
                             (all of it, as one).
  --format text|json         What a one-shot run prints: the turn as text (default), or every
                             ACP message both ways, one JSON object a line, as they go.
  --approve reads|edits|all|none
                             How a one-shot run answers permissions: reads (default) allows
                             reading and searching; edits also edits, deletes and moves files;
                             all allows everything (commands too); none rejects everything.
                             It is the whole policy: weft acp's "always" answers do not apply.
  --session <name>           Carry on the session this name was given in this directory by an
                             earlier one-shot run (the first run with the name starts it).
  -c, --continue             Carry on the last session a one-shot run used in this directory.

weft check options:
  --env NAME=value           Set a variable in the agent's environment (may be repeated). The
                             check serves every model API at one fake origin and already sets
                             WEFT_MODEL, WEFT_BASE_URL and OPENAI_BASE_URL (<origin>/v1),
                             ANTHROPIC_BASE_URL (the origin) and their API keys,
                             WEFT_CONTEXT_WINDOW (the fake model's window), and a private
                             HOME, XDG_STATE_HOME and XDG_CONFIG_HOME. In a value, {model} is
                             the origin, {model_v1} <origin>/v1, {home} the private directory
                             and {project} the scenario's project.
  --only <id,…>              Run only these scenarios (may be repeated; --scenario <id> too).
  --tier <tier,…>            Run only the scenarios of these tiers: core (what every ACP agent
                             must do), session (the late-2026 session surface) and product
                             (what ACP does not require: their misses are notes, not failures).
  --list                     Print the scenarios with their tiers, and exit.
  --timeout <seconds>        How long any one wait for the agent may take. Default: 20.
  --json                     Print the report as JSON instead of text.
  Exit codes: 0 every scenario passed, was skipped or noted, 1 one failed (or the agent could
  not start or answer initialize: one failure, with its stderr), 2 bad usage.

weft chat exit codes (one-shot runs):
  0 the turn ended normally        4 the agent refused            7 cancelled (Ctrl-C)
  1 the agent failed or exited     5 max tokens reached           8 the agent asked a question
  2 bad usage                      6 max turn requests reached      and waits for the answer
  3 a permission was denied by --approve                            (the next prompt gives it)
  1 includes a failed model call, a graph that threw, and an unknown --resume session. With
  --url, 1 also means the server could not be reached, refused the credentials, or dropped the
  connection.

Models:
  The models a session can switch between (the editor's model picker) are, in order: --model or
  WEFT_MODEL, then WEFT_MODELS (comma-separated provider:model strings), then the config file
  $XDG_CONFIG_HOME/weft/config.json (~/.config/weft/config.json), which weft setup writes:
    { "models": [{ "model": "openai:gpt-4.1", "name": "GPT-4.1", "apiKeyFile": "keys/openai.key" }],
      "default": "openai:gpt-4.1" }
  Each model may also set id (its value in the picker, for one model on two servers), baseURL,
  contextWindow, prices { inputPerMillion, outputPerMillion, currency }, reasoning (true offers a
  thinking level) and listServerModels (Ollama and OpenAI-compatible servers' own lists are
  offered too unless false). See the README.

Your own graph (weft acp --graph, weft chat --graph):
  The module (.js or .mjs; .ts or .mts with a Node that strips types, 22.18 and later, else with
  tsx installed) exports the graph as default or as graph, or as its only graph: a weft graph
  (StateGraph's compile(), createAgent()) or a compiled LangGraph.js graph (with langchain's
  createAgent() too). Or a function that answers one, called with { store, editor, logger }: the
  --sessions store (give it to the graph to keep its checkpoints beside the sessions) and the
  editor bridge (editor.tools for createAgent). --model and --base-url reach the module as
  WEFT_MODEL and WEFT_BASE_URL. A LangGraph graph whose state is not a messages conversation
  can be mapped by the exports toInput({ text, history }) (its input for a prompt) and
  fromOutput(state) (what to show). What the module writes to stdout goes to stderr.

Environment:
  WEFT_API_KEY               The API key of the --model/WEFT_MODELS models (else OPENAI_API_KEY,
                             ANTHROPIC_API_KEY, …; config file models use apiKeyFile).
  WEFT_LOG                   silent, error, warn (default), info, or debug (debug adds a log of
                             every ACP message). Logs go to stderr; stdout is only ACP. Set, it
                             also has weft chat show its agent's log on chat's stderr.
  WEFT_BWRAP                 The bubblewrap program weft serve confines commands with. Default:
                             bwrap on PATH.
`;

/** Runs the command and resolves with its exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        noArguments(command ?? "--help", rest);
        process.stdout.write(HELP);
        return 0;
      case "--version":
      case "-v":
        noArguments(command, rest);
        process.stdout.write(`${version()}\n`);
        return 0;
      case "acp":
        return await acp(rest);
      case "chat":
        return await chat(rest);
      case "setup":
        return await setup(rest);
      case "serve":
        return await serve(rest);
      case "check":
        return await check(rest);
      default:
        throw new UsageError(`unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string | undefined }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`weft: ${(error as Error).message.replace(/\.$/, "")}. Run weft --help for the options.\n`);
      return 2;
    }
    process.stderr.write(`weft: ${errorMessage(error)}\n`);
    return 1;
  }
}

function noArguments(command: string, rest: readonly string[]): void {
  if (rest.length > 0) {
    throw new UsageError(`${command} takes no arguments, but was given ${rest.map((argument) => JSON.stringify(argument)).join(" ")}`);
  }
}

/**
 * A subcommand's flags, parsed strictly (an unknown flag, or one without its value, is a usage
 * error), or undefined when they ask for the help, which this prints.
 */
function parseFlags<const T extends Omit<ParseArgsConfig, "strict">>(config: T): ReturnType<typeof parseArgs<T & { strict: true }>> | undefined {
  const parsed = parseArgs({ ...config, strict: true });
  if ((parsed.values as { help?: boolean | undefined }).help) {
    process.stdout.write(HELP);
    return undefined;
  }
  return parsed;
}

const agentOptions = {
  model: { type: "string" },
  "base-url": { type: "string" },
  sessions: { type: "string" },
  "model-timeout": { type: "string" },
  "context-window": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

async function setup(args: string[]): Promise<number> {
  noArguments("setup", args);
  const { runSetup } = await import("./setup-command.js");
  return runSetup(process.env);
}

async function acp(args: string[]): Promise<number> {
  const flags = parseFlags({ args, options: { ...agentOptions, setup: { type: "boolean" }, graph: { type: "string" } }, allowPositionals: false });
  if (!flags) {
    return 0;
  }
  const { values } = flags;
  if (values.graph !== undefined) {
    const { graphFlags } = await import("./config.js");
    graphFlags(values, process.env);
  }
  if (values.setup) {
    const { runSetup } = await import("./setup-command.js");
    return runSetup(process.env);
  }
  const { readAgentConfig } = await import("./config.js");
  const config = readAgentConfig(values, process.env);
  const { runAcp } = await import("./acp-command.js");
  return runAcp(config, version(), values.graph);
}

async function serve(args: string[]): Promise<number> {
  const flags = parseFlags({
    args,
    options: {
      ...agentOptions,
      listen: { type: "string" },
      root: { type: "string", multiple: true },
      "tokens-file": { type: "string" },
      jwks: { type: "string" },
      "jwt-key": { type: "string" },
      issuer: { type: "string" },
      audience: { type: "string" },
      origin: { type: "string", multiple: true },
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "allow-client-mcp": { type: "string", multiple: true },
      "command-network": { type: "boolean" },
      "hide-from-commands": { type: "string", multiple: true },
      "unconfined-commands": { type: "boolean" },
    },
    allowPositionals: false,
  });
  if (!flags) {
    return 0;
  }
  const { values } = flags;
  const { readAgentConfig } = await import("./config.js");
  const config = readAgentConfig(values, process.env);
  const { runServe } = await import("./serve-command.js");
  return runServe(values, config, process.env, version());
}

async function check(args: string[]): Promise<number> {
  const flags = parseFlags({
    args,
    options: {
      json: { type: "boolean" },
      env: { type: "string", multiple: true },
      scenario: { type: "string", multiple: true },
      only: { type: "string", multiple: true },
      tier: { type: "string", multiple: true },
      list: { type: "boolean" },
      timeout: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
  });
  if (!flags) {
    return 0;
  }
  const { values, positionals } = flags;
  const { runCheck } = await import("./check-command.js");
  return runCheck(values, positionals);
}

async function chat(args: string[]): Promise<number> {
  const flags = parseFlags({
    args,
    options: {
      ...agentOptions,
      agent: { type: "string" },
      cwd: { type: "string" },
      list: { type: "boolean" },
      all: { type: "boolean" },
      resume: { type: "string" },
      prompt: { type: "string", short: "p" },
      format: { type: "string" },
      approve: { type: "string" },
      session: { type: "string" },
      continue: { type: "boolean", short: "c" },
      url: { type: "string" },
      token: { type: "string" },
      header: { type: "string", multiple: true },
      graph: { type: "string" },
    },
    allowPositionals: false,
  });
  if (!flags) {
    return 0;
  }
  const { values } = flags;
  const { runChatCommand } = await import("./chat-command.js");
  return runChatCommand(values, version());
}

function version(): string {
  const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return packageJson.version;
}
