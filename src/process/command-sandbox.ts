// CommandSandbox: runs the commands an agent's tools start confined with bubblewrap (bwrap), for a
// server whose callers must not get its own access: they write only where they are let, and see
// none of the server's secrets (its environment, credentials, state and network).

import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { homedir } from "node:os";
import { delimiter, isAbsolute, join } from "node:path";

import { bwrapArguments } from "./bwrap-arguments.js";

export interface CommandSandboxOptions {
  /** The bwrap program: a path, or a name looked up on PATH. Default `bwrap`. */
  bwrap?: string | undefined;
  /**
   * Give commands this machine's network, loopback included (so whatever listens on 127.0.0.1,
   * a session store's database too, is in reach). Default false: no network at all.
   */
  network?: boolean | undefined;
  /**
   * Paths commands must not see, besides those always hidden: the user's credentials in the home
   * directory (`~/.ssh`, `~/.aws`, `~/.netrc`, `~/.pgpass`, shell histories, …), the XDG config
   * and state directories, and /run's sockets. Give the server's own files: its session store,
   * token files, keys and certificates.
   */
  hide?: readonly string[] | undefined;
  /**
   * Variables commands get besides the few harmless ones passed on (PATH, HOME, USER, LOGNAME,
   * LANG, LC_*, TZ, TERM; TMPDIR is /tmp). None of the server's others reach them.
   */
  environment?: Readonly<Record<string, string>> | undefined;
  /** What the server's operator can do when commands cannot be confined, said when one is refused. */
  advice?: string | undefined;
}

/** A command to spawn (in a process group of its own) in place of the one asked for. */
export interface SandboxedCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Whether commands can be confined here, and if not, why. */
export type SandboxCheck = { ok: true; bwrap: string } | { ok: false; reason: string };

/** Where a confined command runs and what it may change. */
export interface SandboxPlace {
  cwd: string;
  /** The directories it may write to (a session's own and its others). */
  writable: readonly string[];
}

/** Credentials and state in the home directory that no command of a caller's should read. */
const HOME_SECRETS = [
  ".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".terraform.d", ".password-store",
  ".netrc", ".pgpass", ".npmrc", ".yarnrc.yml", ".pypirc", ".git-credentials", ".vault-token",
  ".cargo/credentials", ".cargo/credentials.toml", ".config", ".local/state", ".local/share/keyrings",
  ".bash_history", ".zsh_history", ".sh_history", ".psql_history", ".mysql_history", ".python_history", ".node_repl_history", ".rediscli_history",
];

/** The variables passed on to commands, by name or prefix. */
const PASSED_ON = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM"];

const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

const PROBE_TIMEOUT_MS = 10_000;

/**
 * Confines commands with bubblewrap: the whole machine read-only, the session's directories
 * writable, a fresh /tmp, no network, the server's secrets hidden and its environment left out.
 * A command it cannot confine is refused, not run as it is. Linux only.
 */
export class CommandSandbox {
  /** A check that passed, kept; one that failed is made again next time (bwrap may have been installed since). */
  private passed: SandboxCheck | undefined;

  constructor(
    private readonly options: CommandSandboxOptions = {},
    /** The server's environment, where PATH, HOME and the XDG directories are read. */
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Whether commands get the network. */
  get network(): boolean {
    return this.options.network ?? false;
  }

  /** What the server's operator can do when commands cannot be confined. */
  get advice(): string {
    return this.options.advice ?? "install bubblewrap (the bwrap command) on the server";
  }

  /**
   * Whether commands can be confined: bwrap is found, and makes a sandbox here (it needs user
   * namespaces, which some containers do not allow). A check that passes is not made again.
   */
  async check(): Promise<SandboxCheck> {
    if (this.passed) {
      return this.passed;
    }
    const check = await this.probe();
    if (check.ok) {
      this.passed = check;
    }
    return check;
  }

  /** What to spawn to run `command args` confined to `place`, or why it cannot be. */
  async confine(command: string, args: readonly string[], place: SandboxPlace): Promise<{ ok: true; command: SandboxedCommand } | { ok: false; reason: string }> {
    const check = await this.check();
    if (!check.ok) {
      return check;
    }
    const plan = { command, args, cwd: place.cwd, writable: place.writable, hidden: this.hidden(), readable: this.readable(), network: this.network };
    return { ok: true, command: { command: check.bwrap, args: bwrapArguments(plan), env: this.environment() } };
  }

  /** The paths hidden from commands: the user's credentials and state, and the operator's own list. */
  hidden(): string[] {
    const home = this.home();
    const paths = HOME_SECRETS.map((name) => join(home, name));
    for (const name of ["XDG_CONFIG_HOME", "XDG_STATE_HOME"]) {
      const value = this.env[name]?.trim();
      if (value && isAbsolute(value)) {
        paths.push(value);
      }
    }
    return [...paths, ...(this.options.hide ?? [])];
  }

  /** The environment commands get. */
  environment(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.env)) {
      if (value !== undefined && (PASSED_ON.includes(name) || name.startsWith("LC_"))) {
        env[name] = value;
      }
    }
    env.PATH ??= DEFAULT_PATH;
    env.HOME ??= this.home();
    env.TMPDIR = "/tmp";
    return { ...env, ...this.options.environment };
  }

  private home(): string {
    const home = this.env.HOME?.trim();
    return home && isAbsolute(home) ? home : homedir();
  }

  /** With the network, the resolver's file (which may be a link into /run, hidden) stays readable. */
  private readable(): string[] {
    return this.network ? ["/etc/resolv.conf"] : [];
  }

  private async probe(): Promise<SandboxCheck> {
    if (process.platform !== "linux") {
      return { ok: false, reason: "commands can be confined only on Linux (with bubblewrap)" };
    }
    const bwrap = findProgram(this.options.bwrap ?? "bwrap", this.env.PATH ?? DEFAULT_PATH);
    if (!bwrap.found) {
      return { ok: false, reason: bwrap.reason };
    }
    const args = bwrapArguments({ command: "/bin/sh", args: ["-c", ":"], cwd: "/", writable: [], hidden: [], network: this.network });
    return new Promise((resolve) => {
      execFile(bwrap.path, args, { timeout: PROBE_TIMEOUT_MS, env: this.environment() }, (error, _stdout, stderr) => {
        if (error) {
          const said = stderr.trim().split("\n").at(-1) || error.message;
          resolve({ ok: false, reason: `bwrap (${bwrap.path}) cannot make a sandbox here: ${said}` });
        } else {
          resolve({ ok: true, bwrap: bwrap.path });
        }
      });
    });
  }
}

/** A program by path, or by name on PATH, that this process may run. */
function findProgram(program: string, path: string): { found: true; path: string } | { found: false; reason: string } {
  const runnable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (program.includes("/")) {
    return runnable(program) ? { found: true, path: program } : { found: false, reason: `bwrap was not found at ${program}` };
  }
  for (const directory of path.split(delimiter)) {
    if (directory && isAbsolute(directory) && runnable(join(directory, program))) {
      return { found: true, path: join(directory, program) };
    }
  }
  return { found: false, reason: `${program} (bubblewrap) was not found on PATH` };
}
