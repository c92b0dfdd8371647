// What an "always" answer to run_command covers: the command's prefix, the program and its
// subcommand words (`npm test`, `git status`, `npm run build`). Only a plain, single command has
// one: anything the shell would do more with (chaining, pipes, redirections, substitutions,
// variables, escapes, globs) has none, and is asked about every time.

import type { ApprovalScope } from "../../agent/tool-approval.js";

/**
 * Characters a command with a prefix may hold: words, paths, flags and quotes. Everything else
 * (`;`, `&`, `|`, `<`, `>`, `$`, backticks, `\`, `(`, `)`, `{`, `}`, `*`, `?`, `[`, `]`, `~`, `#`,
 * `!`, newlines, control and non-ASCII characters) means no prefix.
 */
const PLAIN = /^[A-Za-z0-9 \t_\-./:=,+@%'"]+$/;

/** A program: a plain name or path, no `=` (that would be a variable for the command after it). */
const PROGRAM = /^[A-Za-z0-9_][A-Za-z0-9_.+/-]*$|^\.{1,2}\/[A-Za-z0-9_.+/-]+$|^\/[A-Za-z0-9_.+/-]+$/;

/** A subcommand word: lower-case letters, digits and `-`, `_`, `:` after a letter (`test`, `run`, `build:prod`). */
const SUBCOMMAND = /^[a-z][a-z0-9_:-]*$/;

/** The most subcommand words a prefix takes after the program (`npm run build`). */
const SUBCOMMAND_WORDS = 2;

/**
 * Programs that run the command they are given, or whose first word is not a subcommand: only the
 * whole command, word for word, can be granted for them.
 */
const EXACT_ONLY = new Set([
  "sudo", "doas", "su", "env", "exec", "eval", "command", "builtin", "nohup", "nice", "time", "timeout", "xargs", "watch",
  "sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "source", ".",
  "rm", "rmdir", "mv", "cp", "dd", "chmod", "chown", "ln", "kill", "pkill", "killall", "curl", "wget", "ssh", "scp",
]);

/** A command's scope: its prefix, or the whole command for programs that get none; or none. */
export interface CommandScope {
  /** What a grant covers: `npm test`, or the whole command (`rm -rf build`). */
  prefix: string;
  /** True when `prefix` is the whole command, so the grant covers only that exact command. */
  exact: boolean;
  /** Shorter prefixes whose grants cover the command too (`npm test` for `npm test unit`). */
  within: string[];
}

/**
 * The scope of `command`, or undefined when it is not one plain command. The words are split on
 * white space; a quoted word ends the prefix (it is an argument), and an unbalanced quote means no
 * scope. The prefix is the program and up to two subcommand words after it, stopping at the first
 * word that is not one (a flag, a path, `--`). A program with no subcommand word, or one of
 * EXACT_ONLY, gets the whole command as its scope: a grant then covers that command only.
 */
export function commandScope(command: string): CommandScope | undefined {
  const trimmed = command.trim();
  if (trimmed === "" || trimmed.length > 1000 || !PLAIN.test(trimmed) || !balancedQuotes(trimmed)) {
    return undefined;
  }
  const words = trimmed.split(/[ \t]+/);
  const [program, ...rest] = words;
  if (program === undefined || !PROGRAM.test(program)) {
    return undefined;
  }
  // The whole command as given (white space inside quotes is part of what it means).
  const whole = trimmed;
  const name = program.slice(program.lastIndexOf("/") + 1);
  if (EXACT_ONLY.has(name)) {
    return { prefix: whole, exact: true, within: [] };
  }
  const subcommands: string[] = [];
  for (const word of rest.slice(0, SUBCOMMAND_WORDS)) {
    if (!SUBCOMMAND.test(word)) {
      break;
    }
    subcommands.push(word);
  }
  if (subcommands.length === 0) {
    return { prefix: whole, exact: true, within: [] };
  }
  const prefix = [program, ...subcommands].join(" ");
  const within = subcommands.length > 1 ? [`${program} ${subcommands[0] as string}`] : [];
  return { prefix, exact: false, within };
}

/** The scope run_command declares: keyed `exact:` for a whole command and `prefix:` for a prefix. */
export function commandApprovalScope(command: string): ApprovalScope | undefined {
  const scope = commandScope(command);
  if (!scope) {
    return undefined;
  }
  if (scope.exact) {
    return { key: `exact:${scope.prefix}`, label: `\`${scope.prefix}\`` };
  }
  return { key: `prefix:${scope.prefix}`, label: `\`${scope.prefix} …\``, within: scope.within.map((prefix) => `prefix:${prefix}`) };
}

/** True when every quote the command opens it also closes. */
function balancedQuotes(command: string): boolean {
  let open: string | undefined;
  for (const character of command) {
    if (open === undefined && (character === "'" || character === '"')) {
      open = character;
    } else if (character === open) {
      open = undefined;
    }
  }
  return open === undefined;
}
