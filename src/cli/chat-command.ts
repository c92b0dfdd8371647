// `weft chat`: chooses the agent to run (weft's own by default) and starts the terminal client.

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { runChat } from "../chat/run-chat.js";
import { splitCommand } from "../chat/split-command.js";
import { UsageError } from "./config.js";

export interface ChatFlags {
  agent?: string | undefined;
  cwd?: string | undefined;
  list?: boolean | undefined;
  resume?: string | undefined;
  model?: string | undefined;
  "base-url"?: string | undefined;
  sessions?: string | undefined;
}

export async function runChatCommand(flags: ChatFlags, version: string): Promise<number> {
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
    for (const name of ["model", "base-url", "sessions"] as const) {
      const value = flags[name];
      if (value !== undefined) {
        agent.push(`--${name}`, value);
      }
    }
  }
  const options: Parameters<typeof runChat>[0] = { agent, cwd: resolve(flags.cwd ?? process.cwd()), input: process.stdin, output: process.stdout, version };
  if (flags.list) {
    options.list = true;
  }
  if (flags.resume) {
    options.resume = flags.resume;
  }
  return runChat(options);
}
