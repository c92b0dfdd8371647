// run_command: runs a shell command in the session's directory, in the editor's terminal when it
// offers terminals (the tool call then shows the live terminal), else as a local child process,
// confined by a CommandSandbox when given one. Either way the output kept is capped, a timeout
// stops it, and a cancel kills it. Its approval shows the whole command, the directory it runs
// in, and where (terminal, local process, or confined local process).

import type { TerminalExitStatus } from "@agentclientprotocol/sdk";
import { z } from "zod";

import { defineTool, type Tool, type ToolOutput } from "../../agent/tool.js";
import { inSeconds } from "../../errors/in-seconds.js";
import type { CommandSandbox } from "../../process/command-sandbox.js";
import { killGroup, spawnGroup } from "../../process/process-groups.js";
import { boundText } from "../mapping/tool-calls.js";
import { commandApprovalScope } from "./command-scope.js";
import type { EditorAccess } from "./editor-access.js";
import { isWindowsPath } from "../../files/session-paths.js";

/** How run_command is set up: whether it asks first, and the sandbox its local commands run in (none: as they are). */
export interface CommandToolOptions {
  ask: boolean;
  sandbox?: CommandSandbox | undefined;
}

export function commandTool(access: EditorAccess, options: CommandToolOptions): Tool<unknown> {
  const { sandbox } = options;
  const confinedNote = !sandbox
    ? ""
    : ` Unless the editor runs it, the command runs in a sandbox: only the session's directories and /tmp can be written, the server's secrets are hidden${sandbox.network ? "" : ", and there is no network"}.`;
  return defineTool({
    name: "run_command",
    description: `Run a shell command in the project directory and return its output and exit code. Use it to build, test, or inspect the project. Long-running commands are stopped after the timeout.${confinedNote}`,
    input: z.object({
      command: z.string().min(1),
      timeout_ms: z.number().int().positive().optional().describe("Stop the command after this many milliseconds."),
    }),
    needsApproval: options.ask,
    title: ({ command }) => `Run ${command.length > 60 ? `${command.slice(0, 59)}…` : command}`,
    describeApproval: ({ command, timeout_ms: timeoutMs }, { threadId }) => {
      const cwd = access.cwd(threadId);
      const timeout = Math.min(timeoutMs ?? access.limits.commandTimeoutMs, access.limits.commandTimeoutMs);
      const where = access.hasTerminal()
        ? "in the editor's terminal"
        : sandbox
          ? `as a process on the agent's machine, confined to the session's directories${sandbox.network ? "" : " and without network"}`
          : "as a process on the agent's machine";
      const text = `$ ${command}\n\nRuns in ${cwd}, ${where}, for at most ${inSeconds(timeout)}.`;
      return { title: `Run ${command.length > 120 ? `${command.slice(0, 119)}…` : command}`, display: [{ type: "text", text }] };
    },
    approvalScope: ({ command }) => commandApprovalScope(command),
    execute: async ({ command, timeout_ms: timeoutMs }, context) => {
      const cwd = await access.commandCwd(context.threadId);
      const timeout = Math.min(timeoutMs ?? access.limits.commandTimeoutMs, access.limits.commandTimeoutMs);
      const shell = isWindowsPath(cwd) ? { command: "cmd.exe", args: ["/d", "/s", "/c", command] } : { command: "/bin/sh", args: ["-c", command] };
      let local: { command: string; args: string[]; env?: Record<string, string> | undefined } = shell;
      if (!access.hasTerminal() && sandbox) {
        const confined = await sandbox.confine(shell.command, shell.args, { cwd, writable: await access.writableRoots(context.threadId) });
        if (!confined.ok) {
          return {
            output: `Refused: run_command is not available here. This server runs commands confined to the session's directories, and ${confined.reason}. Its operator can ${sandbox.advice}.`,
            isError: true,
          };
        }
        local = confined.command;
      }
      const result = access.hasTerminal()
        ? await inTerminal(access, context.threadId, cwd, shell, timeout, context.signal, (terminalId) => context.report({ display: [{ type: "terminal", terminalId }] }))
        : await locally(cwd, local, timeout, access.limits.commandOutputBytes, context.signal);
      const status = result.timedOut
        ? `Stopped after ${timeout} ms (timeout).`
        : result.status.signal
          ? `Killed by ${result.status.signal}.`
          : `Exit code ${result.status.exitCode ?? "unknown"}.`;
      const output: ToolOutput = {
        output: `${status}\n${result.truncated ? "[The start of the output was cut; the end was kept.]\n" : ""}${boundText(result.output, access.limits.modelChars)}`,
        isError: result.timedOut || Boolean(result.status.signal) || (result.status.exitCode ?? 0) !== 0,
      };
      if (result.terminalId) {
        output.display = [{ type: "terminal", terminalId: result.terminalId }];
      }
      return output;
    },
  }) as Tool<unknown>;
}

interface CommandResult {
  status: TerminalExitStatus;
  output: string;
  truncated: boolean;
  timedOut: boolean;
  terminalId?: string | undefined;
}

async function inTerminal(
  access: EditorAccess,
  sessionId: string,
  cwd: string,
  shell: { command: string; args: string[] },
  timeout: number,
  signal: AbortSignal,
  onCreated: (terminalId: string) => void,
): Promise<CommandResult> {
  const { terminalId } = await access.request(
    "terminal/create",
    { sessionId, command: shell.command, args: shell.args, cwd, outputByteLimit: access.limits.commandOutputBytes },
    signal,
  );
  onCreated(terminalId);
  let timedOut = false;
  try {
    const exited = access.request("terminal/wait_for_exit", { sessionId, terminalId });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<"timeout" | "cancel">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeout);
      onAbort = () => resolve("cancel");
      signal.addEventListener("abort", onAbort, { once: true });
    });
    const first = await Promise.race([exited.then(() => "exited" as const), stopped]);
    clearTimeout(timer);
    if (onAbort) {
      signal.removeEventListener("abort", onAbort);
    }
    if (first !== "exited") {
      timedOut = first === "timeout";
      await access.request("terminal/kill", { sessionId, terminalId }).catch(() => undefined);
    }
    if (first === "cancel") {
      throw signal.reason ?? new Error("cancelled");
    }
    const output = await access.request("terminal/output", { sessionId, terminalId });
    const status = output.exitStatus ?? (await exited.catch(() => ({})));
    return { status, output: output.output, truncated: output.truncated, timedOut, terminalId };
  } finally {
    // Every terminal is released, whatever happened; the editor keeps showing its output.
    await access.request("terminal/release", { sessionId, terminalId }).catch(() => undefined);
  }
}

/** Runs a program (the shell, or bwrap running it) in `cwd`, with `env` as its whole environment if given. */
function locally(
  cwd: string,
  program: { command: string; args: string[]; env?: Record<string, string> | undefined },
  timeout: number,
  maxBytes: number,
  signal: AbortSignal,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawnGroup(program.command, program.args, { cwd, stdio: ["ignore", "pipe", "pipe"], ...(program.env ? { env: program.env } : {}) });
    const output = new CappedOutput(maxBytes);
    child.stdout?.on("data", (chunk: Buffer) => output.add(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.add(chunk));
    let timedOut = false;
    // The command runs in its own process group: kill the group, so its children go too (bwrap
    // is in the group, and what it confines dies with it).
    const kill = () => killGroup(child);
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeout);
    const onAbort = () => kill();
    signal.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (exitCode, exitSignal) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (signal.aborted) {
        reject(signal.reason ?? new Error("cancelled"));
        return;
      }
      // The capped text marks its own cut in the middle.
      resolve({ status: { exitCode, signal: exitSignal }, output: output.text(), truncated: false, timedOut });
    });
  });
}

/** Keeps the first and the last part of a stream of bytes, up to a total. */
class CappedOutput {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    const half = Math.floor(this.limit / 2);
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) {
      return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > half && this.tail.length > 0) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailBytes - half;
      this.truncated = true;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    return this.truncated ? `${head}\n… [output cut] …\n${tail}` : head + tail;
  }
}
