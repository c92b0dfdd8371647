// Runs a command in a pseudo-terminal (through util-linux `script`), so a test can type at an
// interactive program, press Ctrl-C, and read what the program shows.

import { spawn, type ChildProcess } from "node:child_process";

import { ChangeWaiters } from "./change-waiters.js";
import { playOutput } from "./screen.js";

export class PtyProcess {
  output = "";
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly waiters = new ChangeWaiters();

  /** The terminal's width: 0 (the default) is a terminal that reports no size. */
  readonly columns: number;

  constructor(command: string, options: { env?: Record<string, string | undefined>; cwd?: string; columns?: number } = {}) {
    this.columns = options.columns ?? 0;
    // stty sets the size the program reads (and is told of) before it starts.
    const sized = this.columns > 0 ? `stty cols ${this.columns} rows 40; exec ${command}` : command;
    this.child = spawn("script", ["-qfec", sized, "/dev/null"], { cwd: options.cwd, env: { ...process.env, ...options.env, TERM: "xterm" }, stdio: ["pipe", "pipe", "pipe"] });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
    const take = (chunk: Buffer) => {
      this.output += chunk.toString("utf8");
      this.waiters.changed();
    };
    this.child.stdout?.on("data", take);
    this.child.stderr?.on("data", take);
  }

  /** What the terminal shows, without colour and cursor codes. */
  get text(): string {
    // eslint-disable-next-line no-control-regex -- removing terminal escape sequences
    return this.output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
  }

  /** What the screen shows now, line by line (the whole scrollback), as a terminal this wide would draw it. */
  get screen(): string {
    return playOutput(this.output, this.columns).lines.join("\n");
  }

  /** Resolves when the screen (see `screen`), from line `fromLine` on, matches `pattern`. */
  waitForScreen(pattern: RegExp, fromLine = 0, timeoutMs = 20_000): Promise<void> {
    return this.waiters.until(() => pattern.test(this.screenFrom(fromLine)), timeoutMs, () => `Timed out waiting for ${pattern} on the screen. It shows:\n${this.screen}\n(as JSON: ${JSON.stringify(this.screen.slice(-300))})`);
  }

  /** The screen's lines from `fromLine` on. */
  screenFrom(fromLine: number): string {
    return playOutput(this.output, this.columns).lines.slice(fromLine).join("\n");
  }

  /** How many lines the screen has now: a mark for waitForScreen. */
  get screenLines(): number {
    return playOutput(this.output, this.columns).lines.length;
  }

  type(text: string): void {
    this.child.stdin?.write(text);
  }

  /** Resolves when the screen text after `from` matches `pattern`. */
  waitFor(pattern: RegExp, from = 0, timeoutMs = 20_000): Promise<void> {
    return this.waiters.until(() => pattern.test(this.text.slice(from)), timeoutMs, () => `Timed out waiting for ${pattern}. The terminal shows:\n${this.text}`);
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }
}
