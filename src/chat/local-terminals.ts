// The client side of ACP terminals, run on this machine: what `weft chat` (and the tests' editor)
// does when an agent asks for terminal/create, output, wait_for_exit, kill and release. Output is
// kept up to the byte limit the agent asked for, dropping the oldest bytes first.

import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";

import type * as acp from "@agentclientprotocol/sdk";

import { killGroup, spawnGroup } from "../process/process-groups.js";

interface Terminal {
  child: ChildProcess;
  output: Buffer;
  truncated: boolean;
  limit: number;
  exit: Promise<acp.TerminalExitStatus>;
  status: acp.TerminalExitStatus | undefined;
}

/** Told of each command's output as it arrives and of its exit (how `weft chat` shows it live). */
export interface TerminalListener {
  output(terminalId: string, text: string): void;
  exit(terminalId: string, status: acp.TerminalExitStatus): void;
}

export class LocalTerminals {
  private readonly terminals = new Map<string, Terminal>();
  /** Ids of terminals the agent killed, in order (tests read it). */
  readonly killed: string[] = [];
  /** Ids of terminals the agent released, in order. */
  readonly released: string[] = [];

  constructor(
    private readonly defaultCwd: string,
    private readonly listener?: TerminalListener | undefined,
  ) {}

  create(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    const terminalId = `term_${randomUUID().slice(0, 8)}`;
    const env = { ...process.env, ...Object.fromEntries((params.env ?? []).map((variable) => [variable.name, variable.value])) };
    const child = spawnGroup(params.command, params.args ?? [], { cwd: params.cwd ?? this.defaultCwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const terminal: Terminal = {
      child,
      output: Buffer.alloc(0),
      truncated: false,
      limit: params.outputByteLimit ?? 1024 * 1024,
      status: undefined,
      exit: new Promise((resolve) => {
        child.on("error", (error) => {
          terminal.output = Buffer.concat([terminal.output, Buffer.from(`${error.message}\n`)]);
          resolve({ exitCode: 127, signal: null });
        });
        child.on("close", (exitCode, signal) => resolve({ exitCode, signal }));
      }),
    };
    const append = (chunk: Buffer) => {
      this.listener?.output(terminalId, chunk.toString("utf8"));
      terminal.output = Buffer.concat([terminal.output, chunk]);
      if (terminal.output.length > terminal.limit) {
        terminal.output = terminal.output.subarray(terminal.output.length - terminal.limit);
        terminal.truncated = true;
      }
    };
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    void terminal.exit.then((status) => {
      terminal.status = status;
      this.listener?.exit(terminalId, status);
    });
    this.terminals.set(terminalId, terminal);
    return { terminalId };
  }

  output(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
    const terminal = this.get(params.terminalId);
    const response: acp.TerminalOutputResponse = { output: terminal.output.toString("utf8"), truncated: terminal.truncated };
    if (terminal.status) {
      response.exitStatus = terminal.status;
    }
    return response;
  }

  async waitForExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    return this.get(params.terminalId).exit;
  }

  kill(params: acp.KillTerminalRequest): acp.KillTerminalResponse {
    const terminal = this.get(params.terminalId);
    this.killed.push(params.terminalId);
    killGroup(terminal.child);
    return {};
  }

  release(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse {
    const terminal = this.get(params.terminalId);
    this.released.push(params.terminalId);
    if (!terminal.status) {
      killGroup(terminal.child);
    }
    this.terminals.delete(params.terminalId);
    return {};
  }

  /** Kills every terminal still running. */
  dispose(): void {
    for (const terminal of this.terminals.values()) {
      if (!terminal.status) {
        killGroup(terminal.child);
      }
    }
    this.terminals.clear();
  }

  private get(terminalId: string): Terminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) {
      throw new Error(`No terminal ${terminalId}.`);
    }
    return terminal;
  }
}
