// `weft chat`: chooses the agent to run (weft's own by default) or reach (--url) and starts the
// terminal client.

import { existsSync, fstatSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

import type { AgentTarget } from "../chat/agent-link.js";
import { APPROVAL_POLICIES, type ApprovalPolicy } from "../chat/approval-policy.js";
import { chatSessionsPath } from "../chat/chat-sessions.js";
import type { CarryOn } from "../chat/run-prompt.js";
import { runChat } from "../chat/run-chat.js";
import { splitCommand } from "../chat/split-command.js";
import { graphFlags, readAgentConfig, UsageError } from "./config.js";
import { remoteAgentTarget } from "./remote-agent-flags.js";

export interface ChatFlags {
  agent?: string | undefined;
  cwd?: string | undefined;
  list?: boolean | undefined;
  all?: boolean | undefined;
  resume?: string | undefined;
  model?: string | undefined;
  "base-url"?: string | undefined;
  sessions?: string | undefined;
  "model-timeout"?: string | undefined;
  "context-window"?: string | undefined;
  prompt?: string | undefined;
  format?: string | undefined;
  approve?: string | undefined;
  session?: string | undefined;
  continue?: boolean | undefined;
  url?: string | undefined;
  token?: string | undefined;
  header?: string[] | undefined;
  graph?: string | undefined;
}

/** The flags that configure weft's own agent, which chat starts unless told otherwise. */
const OWN_AGENT_FLAGS = ["model", "base-url", "sessions", "model-timeout", "context-window", "graph"] as const;

/** The flags that only mean something for a one-shot run. */
const ONE_SHOT_FLAGS = ["format", "approve", "session", "continue"] as const;

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
  if (flags.all && !flags.list) {
    throw new UsageError("--all goes with --list");
  }
  // One turn and out: a prompt given with -p, or on stdin when stdin is not a terminal.
  const oneShot = flags.prompt !== undefined || (!process.stdin.isTTY && !flags.list);
  if (oneShot) {
    checkOneShot(flags);
  } else {
    for (const name of ONE_SHOT_FLAGS) {
      if (flags[name] !== undefined) {
        throw new UsageError(`--${name} is for one-shot runs (-p "prompt", or a prompt on stdin)`);
      }
    }
  }
  if (flags.url !== undefined && flags.agent !== undefined) {
    throw new UsageError("--url and --agent cannot be used together (--url connects to an agent that runs elsewhere)");
  }
  if (flags.url === undefined) {
    for (const name of ["token", "header"] as const) {
      if (flags[name] !== undefined) {
        throw new UsageError(`--${name} is for a remote agent (--url)`);
      }
    }
  }
  const other = flags.agent !== undefined ? "--agent" : flags.url !== undefined ? "--url" : undefined;
  if (other !== undefined) {
    for (const name of OWN_AGENT_FLAGS) {
      if (flags[name] !== undefined) {
        throw new UsageError(`--${name} configures weft's own agent; it does nothing with ${other}`);
      }
    }
  } else {
    // Checked here, so a bad value is a usage error of this command and not of the agent it starts.
    const config = readAgentConfig(flags, process.env);
    // Said now, where the person sees it, not only in the answer to their first prompt.
    if (config.models.length === 0 && flags.graph === undefined) {
      process.stderr.write(`weft chat: no model is configured, so the agent cannot answer yet: run weft setup, list models in ${config.configFile}, or set WEFT_MODEL (or pass --model).\n`);
    }
    if (flags.graph !== undefined) {
      graphFlags(flags, {});
      // The agent runs in the session's directory; the module is named from this one.
      const graph = resolve(flags.graph);
      if (!existsSync(graph)) {
        throw new UsageError(`--graph ${JSON.stringify(flags.graph)}: there is no such file (looked for ${graph})`);
      }
      flags = { ...flags, graph };
    }
  }
  let agent: AgentTarget;
  let agentKey = flags.agent ?? (flags.graph !== undefined ? `weft acp --graph ${flags.graph}` : "weft acp");
  if (flags.url !== undefined) {
    const remote = remoteAgentTarget(flags.url, flags.token ?? process.env.WEFT_TOKEN, flags.header ?? [], flags.token !== undefined);
    agent = remote.target;
    agentKey = remote.key;
  } else if (flags.agent !== undefined) {
    let command: string[];
    try {
      command = splitCommand(flags.agent);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (command.length === 0) {
      throw new UsageError("--agent needs a command");
    }
    agent = { command, ...agentLog() };
  } else {
    // weft's own agent, passing on the model and session flags.
    const command = [process.execPath, fileURLToPath(new URL("../../bin/weft.js", import.meta.url)), "acp"];
    for (const name of OWN_AGENT_FLAGS) {
      const value = flags[name];
      if (value !== undefined) {
        command.push(`--${name}`, value);
      }
    }
    agent = { command, ...agentLog() };
  }
  if (oneShot) {
    // With -p, what is piped or redirected in (`git diff | weft chat -p "review this"`) follows the
    // prompt; stdin left open by a parent (a socket, a terminal) is not waited for.
    const piped = flags.prompt === undefined || pipedIn() ? await readAll(process.stdin) : "";
    const prompt = flags.prompt === undefined ? piped : piped.trim() === "" ? flags.prompt : `${flags.prompt}\n\n${piped}`;
    if (prompt.trim() === "") {
      throw new UsageError(flags.prompt === undefined ? "no prompt on stdin (give one there, or with -p)" : "-p needs a prompt");
    }
    let carryOn: CarryOn | undefined;
    if (flags.resume !== undefined) {
      carryOn = { sessionId: flags.resume };
    } else if (flags.session !== undefined) {
      carryOn = { name: flags.session };
    } else if (flags.continue) {
      carryOn = { last: true };
    }
    const { runPrompt } = await import("../chat/run-prompt.js");
    return runPrompt({
      agent,
      agentKey,
      cwd,
      prompt,
      format: flags.format === "json" ? "json" : "text",
      approve: (flags.approve ?? "reads") as ApprovalPolicy,
      carryOn,
      sessionsFile: chatSessionsPath(process.env),
      output: process.stdout,
      errors: process.stderr,
      version,
    });
  }
  const options: Parameters<typeof runChat>[0] = { agent, agentKey, sessionsFile: chatSessionsPath(process.env), cwd, input: process.stdin, output: process.stdout, version };
  if (flags.list) {
    options.list = true;
    options.all = Boolean(flags.all);
  }
  if (flags.resume) {
    options.resume = flags.resume;
  }
  return runChat(options);
}

/**
 * The agent's log on chat's stderr, when the person asked for one with WEFT_LOG (which the agent
 * started here reads too); otherwise its stderr is kept only to say why it ended.
 */
function agentLog(): { log?: NodeJS.WritableStream } {
  const level = process.env.WEFT_LOG?.trim();
  return level && level !== "silent" ? { log: process.stderr } : {};
}

/** The one-shot flags make sense together, or a usage error says why not. */
function checkOneShot(flags: ChatFlags): void {
  if (flags.list) {
    throw new UsageError("--list cannot be used with a prompt");
  }
  if (flags.format !== undefined && flags.format !== "text" && flags.format !== "json") {
    throw new UsageError(`--format must be text or json, not ${JSON.stringify(flags.format)}`);
  }
  if (flags.approve !== undefined && !(APPROVAL_POLICIES as readonly string[]).includes(flags.approve)) {
    throw new UsageError(`--approve must be one of ${APPROVAL_POLICIES.join(", ")}, not ${JSON.stringify(flags.approve)}`);
  }
  if (flags.session !== undefined && flags.session.trim() === "") {
    throw new UsageError("--session needs a name");
  }
  const carriers = [flags.resume !== undefined && "--resume", flags.session !== undefined && "--session", flags.continue && "--continue"].filter(Boolean);
  if (carriers.length > 1) {
    throw new UsageError(`${carriers.join(" and ")} cannot be used together`);
  }
}

/** Whether stdin is a pipe or a file (not a terminal, a socket or a device). */
function pipedIn(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isFile();
  } catch {
    return false;
  }
}

/** All of a stream, as text. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  stream.setEncoding("utf8");
  for await (const chunk of stream) {
    text += String(chunk);
  }
  return text;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
