// Slash commands: what an integrator offers the person as `/name` in the editor's prompt box. How
// they are declared, checked and shown (`available_commands_update`), how a prompt names one, and
// the error of one that fails. A command answers by itself (its reply is the agent's message, no
// model call), or gives the prompt to run instead, or the graph's input for the turn.
// session-commands.ts keeps a session's commands and runs them.

import type { AvailableCommand } from "@agentclientprotocol/sdk";

import { WeftError } from "../../errors/weft-error.js";
import type { RunConfig } from "../../graph/run-outcome.js";
import type { Message } from "../../types/messages.js";
import type { AcpContentBlock } from "../mapping/content.js";
import type { AcpGrant } from "../record/permission-grants.js";
import type { AcpSessionInfo } from "../record/session-store.js";

/** What a command is given when a prompt runs it. */
export interface AcpCommandCall {
  /** What was typed after the command's name, trimmed; "" when nothing was. */
  input: string;
  /** The prompt's other blocks: files and selections the person attached. */
  attachments: AcpContentBlock[];
  session: AcpSessionInfo;
  /** The session's config values and mode, as its runs see them. */
  config: RunConfig;
  /** The conversation so far (the command's prompt is not in it). */
  history: readonly Message[];
  /** Aborts when the turn is cancelled. */
  signal: AbortSignal;
  /** The permission grants of the session's project, to list and revoke (see `/permissions` in `weft acp`). */
  permissions: AcpPermissions;
}

/** A project's permission grants, as a command sees them. */
export interface AcpPermissions {
  /** True when the store keeps grants for the project; false when they last only while the session is open. */
  readonly kept: boolean;
  /** The grants, oldest first. Rejects when the ledger cannot be read. */
  list(): Promise<AcpGrant[]>;
  /** Removes a grant. */
  revoke(grant: Pick<AcpGrant, "tool" | "scope">): Promise<void>;
}

/**
 * What a command does with the turn:
 * - `reply`: the turn's answer, as the agent's message; no model is called, and neither the prompt
 *   nor the reply becomes part of the conversation (the model never sees them, a load does not
 *   replay them);
 * - `prompt`: a prompt to run instead, as if the person had typed it (the attachments go with it);
 * - `input`: the graph's input for the turn, instead of what AcpOptions.input would make of the
 *   prompt. The prompt as typed is kept in the conversation; the input must be plain data (it is
 *   kept with the turn in progress, so a turn carried on after a restart starts from it), and a
 *   question the last turn asked is dropped: the run starts afresh.
 */
export type AcpCommandResult = { reply: string } | { prompt: string } | { input: unknown };

/** A slash command (see AcpOptions.commands). */
export interface AcpCommand {
  /** What the person types after the slash: no spaces, no slash of its own (`review`, `plan:new`). */
  name: string;
  /** What it does, shown in the editor's command menu. */
  description: string;
  /** A hint for what to type after the name (`a file or a branch`), where the editor shows one. */
  hint?: string | undefined;
  /** Runs the command; what it throws answers the prompt with an error (CommandFailedError). */
  run: (call: AcpCommandCall) => AcpCommandResult | Promise<AcpCommandResult>;
}

/** What a session's commands are made from when they depend on it: its info and its config values. */
export interface AcpCommandContext {
  session: AcpSessionInfo;
  config: RunConfig;
}

/**
 * The commands sessions offer: a list, or a function of the session and its config, asked again
 * when its config changes (so a mode can have commands of its own).
 */
export type AcpCommands = readonly AcpCommand[] | ((context: AcpCommandContext) => readonly AcpCommand[]);

/** A slash command that threw, or answered with something that is not a command result. */
export class CommandFailedError extends WeftError {
  static override readonly errorName = "CommandFailedError";

  constructor(
    readonly command: string,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super("command_failed", `The command /${command} failed: ${reason}`, options);
  }
}

/** Throws a WeftError (`invalid_option`) that says what is wrong with a list of commands. */
export function checkCommands(commands: readonly AcpCommand[]): void {
  const names = new Set<string>();
  for (const command of commands) {
    const name = JSON.stringify(command.name);
    if (typeof command.name !== "string" || !/^[^\s/]\S*$/.test(command.name)) {
      throw new WeftError("invalid_option", `A command's name must be a word without spaces or a leading slash, not ${name}.`);
    }
    if (names.has(command.name)) {
      throw new WeftError("invalid_option", `Command names must be unique: ${name} is declared twice.`);
    }
    names.add(command.name);
    if (typeof command.description !== "string" || command.description.trim() === "") {
      throw new WeftError("invalid_option", `Command ${name} needs a description, which the editor shows in its menu.`);
    }
    if (command.hint !== undefined && (typeof command.hint !== "string" || command.hint.trim() === "")) {
      throw new WeftError("invalid_option", `Command ${name} has an empty hint; leave it out for a command that takes no input.`);
    }
    if (typeof command.run !== "function") {
      throw new WeftError("invalid_option", `Command ${name} has no run function.`);
    }
  }
}

/** The commands as ACP sends them: names without the slash, a hint only for those that take input. */
export function toAvailableCommands(commands: readonly AcpCommand[]): AvailableCommand[] {
  return commands.map((command) => (command.hint === undefined ? { name: command.name, description: command.description } : { name: command.name, description: command.description, input: { hint: command.hint } }));
}

/** A prompt that names a command: the name, what follows it, and the other blocks. */
export interface CommandPrompt {
  name: string;
  input: string;
  attachments: AcpContentBlock[];
}

/**
 * The command a prompt names, if it names one: its first block is text that starts with `/name`
 * (white space before it is fine), followed by white space or nothing. Whether there is such a
 * command is the session's to say.
 */
export function commandPrompt(blocks: readonly AcpContentBlock[]): CommandPrompt | undefined {
  const [first, ...attachments] = blocks;
  if (first?.type !== "text" || typeof first.text !== "string") {
    return undefined;
  }
  const match = /^\s*\/([^\s/]\S*)(?:\s+([\s\S]*))?$/.exec(first.text);
  if (!match) {
    return undefined;
  }
  return { name: match[1] as string, input: (match[2] ?? "").trim(), attachments };
}

/** `result` as a command result, or undefined when it is not one. */
export function checkResult(result: unknown): AcpCommandResult | undefined {
  if (typeof result === "object" && result !== null) {
    const keys = Object.keys(result).filter((key) => ["reply", "prompt", "input"].includes(key));
    const value = result as Record<string, unknown>;
    if (keys.length === 1) {
      const [key] = keys;
      if (key === "input" || typeof value[key as string] === "string") {
        return result as AcpCommandResult;
      }
    }
  }
  return undefined;
}
