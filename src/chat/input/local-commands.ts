// Chat's own slash commands, handled in the terminal and never sent to the agent: /help, /quit,
// /sessions, /mode and /model (the last two from the session's modes and config options).

import type * as acp from "@agentclientprotocol/sdk";

import type { Style } from "../render-updates.js";
import { wrapWords } from "../wrap-words.js";

/** What a local command can see and do; the session is made on first need. */
export interface LocalCommandContext {
  write(text: string): void;
  style: Style;
  /** The terminal's width, to wrap at; undefined when it is not a terminal. */
  columns(): number | undefined;
  /** The agent's own commands, from its last `available_commands_update`. */
  agentCommands(): readonly acp.AvailableCommand[];
  /** The session's modes and config options as last reported, once a session exists. */
  surface(): { modes: acp.SessionModeState | undefined; configOptions: readonly acp.SessionConfigOption[] };
  /** The lines that list the agent's sessions here (session-list.ts); undefined when it cannot list them. */
  listSessions(): Promise<string[] | undefined>;
  ensureSession(): Promise<string>;
  setMode(modeId: string): Promise<void>;
  setConfigOption(configId: string, value: string): Promise<void>;
}

export const localCommandNames = ["help", "quit", "sessions", "mode", "model"] as const;

/** Tab completion of a command's name: chat's own and the agent's (its last `available_commands_update`). */
export function commandCompleter(agentCommands: () => readonly acp.AvailableCommand[]): (line: string) => [string[], string] {
  return (line) => {
    if (!line.startsWith("/") || line.includes(" ")) {
      return [[], line];
    }
    const names = [...localCommandNames, ...agentCommands().map((entry) => entry.name)].map((name) => `/${name}`);
    return [[...new Set(names)].filter((name) => name.startsWith(line)).map((name) => `${name} `), line];
  };
}

/** What /help says of chat's own commands. */
const chatCommands: ReadonlyArray<readonly [string, string]> = [
  ["/help", "this list"],
  ["/quit", "leave (also Ctrl-D)"],
  ["/sessions", "the agent's sessions in this directory"],
  ["/mode [id]", "show or set the session's mode"],
  ["/model [value]", "show or set the session's model"],
];

/** Handles `line` if it is a local command: "quit" to leave, "handled", or "agent" to send it on. */
export async function runLocalCommand(line: string, context: LocalCommandContext): Promise<"quit" | "handled" | "agent"> {
  const match = /^\/(\w[\w-]*)\s*(.*)$/s.exec(line.trim());
  const name = match?.[1];
  const argument = match?.[2]?.trim() ?? "";
  const { write, style } = context;
  switch (name) {
    case "quit":
    case "exit":
      return "quit";
    case "help": {
      // Lines wrap between words; a command's description goes on under itself.
      const line = (text: string, indent = "") => `${wrapWords(text, context.columns(), indent)}\n`;
      const hanging = " ".repeat(18);
      write(line(style.bold("chat's commands")));
      for (const [usage, what] of chatCommands) {
        write(line(`  ${usage.padEnd(15)} ${what}`, hanging));
      }
      // The agent's commands that chat answers itself (its /help, /mode, /model) are not listed again.
      const shadowed = new Set<string>([...localCommandNames, "exit"]);
      const commands = context.agentCommands().filter((command) => !shadowed.has(command.name));
      if (commands.length > 0) {
        write(line(`${style.bold("the agent's commands")} ${style.dim("(sent to the agent)")}`));
        for (const command of commands) {
          write(line(`  /${command.name.padEnd(14)} ${style.dim(command.description)}`, hanging));
        }
      }
      write(line(style.dim("End a line with \\ (or press Alt+Enter) to go on to a new line; lines typed while the agent works are queued.")));
      return "handled";
    }
    case "sessions": {
      const lines = await context.listSessions();
      if (lines === undefined) {
        write(style.dim("This agent cannot list its sessions.\n"));
      } else if (lines.length === 0) {
        write(style.dim("No sessions here yet.\n"));
      }
      for (const line of lines ?? []) {
        write(`  ${line}\n`);
      }
      return "handled";
    }
    case "mode":
      await context.ensureSession();
      await modeCommand(argument, context);
      return "handled";
    case "model":
      await context.ensureSession();
      await modelCommand(argument, context);
      return "handled";
    default:
      return "agent";
  }
}

async function modeCommand(argument: string, context: LocalCommandContext): Promise<void> {
  const { write, style } = context;
  const { modes, configOptions } = context.surface();
  const option = configOptions.find((candidate) => candidate.category === "mode" && candidate.type === "select");
  if (option) {
    await selectCommand(option, argument, context);
    return;
  }
  if (!modes) {
    write(style.dim("This agent has no modes.\n"));
    return;
  }
  if (argument === "") {
    for (const mode of modes.availableModes) {
      write(choiceLine(mode.id === modes.currentModeId, mode.id, mode.name, mode.description, context));
    }
    return;
  }
  const chosen = modes.availableModes.find((mode) => mode.id === argument || mode.name.toLowerCase() === argument.toLowerCase());
  if (!chosen) {
    write(style.dim(`No mode ${JSON.stringify(argument)}; /mode lists them.\n`));
    return;
  }
  await context.setMode(chosen.id);
  write(style.dim(`Mode: ${chosen.name}.\n`));
}

async function modelCommand(argument: string, context: LocalCommandContext): Promise<void> {
  const option = context.surface().configOptions.find((candidate) => candidate.category === "model" && candidate.type === "select");
  if (!option) {
    context.write(context.style.dim("This agent offers no model choice.\n"));
    return;
  }
  await selectCommand(option, argument, context);
}

/** Shows a select option's values (the current one marked), or sets it to `argument`. */
async function selectCommand(option: acp.SessionConfigOption, argument: string, context: LocalCommandContext): Promise<void> {
  const { write, style } = context;
  if (option.type !== "select") {
    return;
  }
  const values = option.options.flatMap((entry) => ("options" in entry ? entry.options : [entry]));
  if (argument === "") {
    for (const value of values) {
      write(choiceLine(value.value === option.currentValue, value.value, value.name, value.description, context));
    }
    return;
  }
  const chosen = values.find((value) => value.value === argument || value.name.toLowerCase() === argument.toLowerCase());
  if (!chosen) {
    write(style.dim(`No ${option.name.toLowerCase()} ${JSON.stringify(argument)}; /${option.category === "mode" ? "mode" : "model"} lists them.\n`));
    return;
  }
  await context.setConfigOption(option.id, chosen.value);
  write(style.dim(`${option.name}: ${chosen.name}.\n`));
}

/**
 * One choice of /mode or /model: its id, and its description, or else its name where the name is
 * not the id again (a model named by its id is not shown twice).
 */
function choiceLine(current: boolean, id: string, name: string, description: string | null | undefined, context: LocalCommandContext): string {
  const about = description || (name !== id ? name : "");
  const text = about === "" ? `  ${current ? "●" : " "} ${id}` : `  ${current ? "●" : " "} ${id.padEnd(14)} ${context.style.dim(about)}`;
  return `${wrapWords(text, context.columns(), " ".repeat(19))}\n`;
}
