// Starting an ACP agent for `weft chat`: the agent's command in a process group of its own (so a
// Ctrl-C at the terminal reaches chat, which cancels the turn, not the agent), its stderr kept for
// the error message, and its stdio as the two byte streams of an ACP connection, with an optional
// look at every line each way (what `--format json` prints).

import { type ChildProcess, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";

import { killGroup } from "../process/process-groups.js";

/** Sees each line of the wire, as written, without its newline. */
export type LineTap = (line: string) => void;

export interface AgentProcessOptions {
  /** The agent's command and arguments (not empty). */
  command: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv | undefined;
  /** Each line the agent writes. */
  fromAgent?: LineTap | undefined;
  /** Each line written to the agent. */
  toAgent?: LineTap | undefined;
  /** Where the agent's stderr is copied as it comes (its log); otherwise only its end is kept. */
  log?: NodeJS.WritableStream | undefined;
}

/** A running agent: its ACP streams, how it ended, and the end of what it wrote to stderr. */
export class AgentProcess {
  /** Resolves once the agent has exited, with how, in words ("exited with code 1"). */
  readonly exited: Promise<string>;
  /** What the connection writes (the agent's stdin). */
  readonly writable: WritableStream<Uint8Array>;
  /** What the connection reads (the agent's stdout). */
  readonly readable: ReadableStream<Uint8Array>;
  private errors = "";
  private readonly child: ChildProcess;

  constructor(options: AgentProcessOptions) {
    const [command, ...args] = options.command;
    if (!command) {
      throw new Error("No agent command.");
    }
    // Not spawnGroup: its watchdog shell runs the command in the background, with stdin from
    // /dev/null. The agent ends when its stdin closes, which it does when chat goes, however.
    this.child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["pipe", "pipe", "pipe"], detached: process.platform !== "win32" });
    const { stdin, stdout, stderr } = this.child;
    if (!stdin || !stdout || !stderr) {
      throw new Error("The agent's stdio is not piped.");
    }
    stderr.setEncoding("utf8");
    stderr.on("data", (text: string) => {
      options.log?.write(text);
      this.errors = (this.errors + text).slice(-4000);
    });
    // Writing to an agent that has gone is reported through `exited`, not as an unhandled error.
    stdin.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.on("error", (error) => resolve(`could not be started: ${error.message}`));
      this.child.on("exit", (code, signal) => resolve(signal ? `was killed by ${signal}` : `exited with code ${code}`));
    });
    const toAgent = Writable.toWeb(stdin) as WritableStream<Uint8Array>;
    const fromAgent = Readable.toWeb(stdout) as ReadableStream<Uint8Array>;
    this.writable = options.toAgent ? tapped(options.toAgent, toAgent) : toAgent;
    this.readable = options.fromAgent ? fromAgent.pipeThrough(lineTap(options.fromAgent)) : fromAgent;
  }

  /** True once the agent has exited. */
  get gone(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** The last few thousand characters the agent wrote to stderr, trimmed. */
  get stderrTail(): string {
    return this.errors.trim();
  }

  /** Why the agent is gone, in a sentence with the end of its stderr. */
  async goneMessage(): Promise<string> {
    const how = await this.exited;
    return `The agent ${how}.${this.stderrTail ? `\n${this.stderrTail}` : ""}`;
  }

  /** Closes the agent's stdin and waits for it to exit, killing its group after `graceMs`. */
  async stop(graceMs = 3_000): Promise<void> {
    this.child.stdin?.end();
    const timer = setTimeout(() => killGroup(this.child), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Passes bytes through unchanged, showing `tap` each complete line. */
function lineTap(tap: LineTap): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let pending = "";
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      pending += decoder.decode(chunk, { stream: true });
      let end = pending.indexOf("\n");
      while (end >= 0) {
        tap(pending.slice(0, end).replace(/\r$/, ""));
        pending = pending.slice(end + 1);
        end = pending.indexOf("\n");
      }
    },
  });
}

/** A writable that shows `tap` each line, then writes it on to `target`. */
function tapped(tap: LineTap, target: WritableStream<Uint8Array>): WritableStream<Uint8Array> {
  const through = lineTap(tap);
  void through.readable.pipeTo(target).catch(() => undefined);
  return through.writable;
}
