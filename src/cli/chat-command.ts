// `weft chat`: chooses the agent to run (weft's own by default) and starts the terminal client.

import { statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { runChat } from "../chat/run-chat.js";
import { splitCommand } from "../chat/split-command.js";
import { readAgentConfig, UsageError } from "./config.js";

export interface ChatFlags {
  agent?: string | undefined;
  cwd?: string | undefined;
  list?: boolean | undefined;
  resume?: string | undefined;
  model?: string | undefined;
  "base-url"?: string | undefined;
  sessions?: string | undefined;
  "model-timeout"?: string | undefined;
  "context-window"?: string | undefined;
}

export async function runChatCommand(flags: ChatFlags, version: string): Promise<number> {
  const cwd = resolve(flags.cwd ?? process.cwd());
  if (flags.cwd !== undefined && !isDirectory(cwd)) {
    throw new UsageError(`--cwd ${JSON.stringify(flags.cwd)} is not a directory`);
  }
  if (flags.resume !== undefined && flags.resume.trim() === "") {
    throw new UsageError("--resume needs a session id");
  }
  if (flags.list && flags.resume !== undefined) {
    throw new UsageError("--list and --resume cannot be used together");
  }
  if (flags.agent !== undefined) {
    for (const name of ["model", "base-url", "sessions", "model-timeout", "context-window"] as const) {
      if (flags[name] !== undefined) {
        throw new UsageError(`--${name} configures weft's own agent; it does nothing with --agent`);
      }
    }
  } else {
    // Checked here, so a bad value is a usage error of this command and not of the agent it starts.
    readAgentConfig(flags, process.env);
  }
  let agent: string[];
  if (flags.agent !== undefined) {
    try {
      agent = splitCommand(flags.agent);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (agent.length === 0) {
      throw new UsageError("--agent needs a command");
    }
  } else {
    // weft's own agent, passing on the model and session flags.
    agent = [process.execPath, fileURLToPath(new URL("../../bin/weft.js", import.meta.url)), "acp"];
    for (const name of ["model", "base-url", "sessions", "model-timeout", "context-window"] as const) {
      const value = flags[name];
      if (value !== undefined) {
        agent.push(`--${name}`, value);
      }
    }
  }
  const options: Parameters<typeof runChat>[0] = { agent, cwd, input: process.stdin, output: process.stdout, version };
  if (flags.list) {
    options.list = true;
  }
  if (flags.resume) {
    options.resume = flags.resume;
  }
  return runChat(options);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
