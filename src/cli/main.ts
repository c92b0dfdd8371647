// The `weft` command: parses arguments and hands off to a subcommand. Subcommands load only when
// chosen, so `weft acp` starts with nothing but what answers `initialize`.

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

import { UsageError } from "./config.js";

const HELP = `weft: AI agents as graphs, served to code editors over the Agent Client Protocol (ACP).

Usage:
  weft acp [options]     Serve the weft coding agent over ACP on stdin/stdout (what an editor runs).
  weft chat [options]    Chat with an ACP agent (weft's, or any other) in this terminal.
  weft --help            Show this help.
  weft --version         Show the version.

weft acp options:
  --model <provider:model>   The model: openai:<id>, anthropic:<id>, ollama:<id>, or
                             openai-compatible:<id> with --base-url.            [WEFT_MODEL]
  --base-url <url>           The model server's base URL (openai-compatible, or to override
                             a provider's).                                     [WEFT_BASE_URL]
  --model-timeout <seconds>  Stop a model call that sends nothing for this long and tell the
                             person. Default: 300.                            [WEFT_MODEL_TIMEOUT]
  --context-window <tokens>  The model's context window: older turns are summarised to keep
                             every call within it, and the editor is shown how full it is.
                                                                           [WEFT_CONTEXT_WINDOW]
  --sessions <where>         Where sessions are kept: memory, a SQLite file (a path with a
                             directory or a .db/.sqlite/.sqlite3 extension, or sqlite:<path>),
                             postgres://… or redis://…. Default: $XDG_STATE_HOME/weft/sessions.db
                             (~/.local/state/weft/sessions.db).               [WEFT_SESSIONS]

weft chat options:
  --agent "<command args>"   The agent to run. Default: weft acp (with the options above).
  --cwd <dir>                The directory the session works in. Default: the current one.
  --list                     List the agent's sessions in that directory and exit.
  --resume <session id>      Reopen a session.

Environment:
  WEFT_API_KEY               The model's API key (else OPENAI_API_KEY, ANTHROPIC_API_KEY, …).
  WEFT_LOG                   silent, error, warn (default), info, or debug (debug adds a log of
                             every ACP message). Logs go to stderr; stdout is only ACP.
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
      default:
        throw new UsageError(`unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string | undefined }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`weft: ${(error as Error).message.replace(/\.$/, "")}. Run weft --help for the options.\n`);
      return 2;
    }
    process.stderr.write(`weft: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function noArguments(command: string, rest: readonly string[]): void {
  if (rest.length > 0) {
    throw new UsageError(`${command} takes no arguments, but was given ${rest.map((argument) => JSON.stringify(argument)).join(" ")}`);
  }
}

const agentOptions = {
  model: { type: "string" },
  "base-url": { type: "string" },
  sessions: { type: "string" },
  "model-timeout": { type: "string" },
  "context-window": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

async function acp(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: agentOptions, strict: true, allowPositionals: false });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const { readAgentConfig } = await import("./config.js");
  const config = readAgentConfig(values, process.env);
  const { runAcp } = await import("./acp-command.js");
  return runAcp(config, version());
}

async function chat(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...agentOptions, agent: { type: "string" }, cwd: { type: "string" }, list: { type: "boolean" }, resume: { type: "string" } },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const { runChatCommand } = await import("./chat-command.js");
  return runChatCommand(values, version());
}

function version(): string {
  const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return packageJson.version;
}
