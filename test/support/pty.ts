// Runs a command in a pseudo-terminal (through util-linux `script`), so a test can type at an
// interactive program, press Ctrl-C, and read what the program shows.

import { spawn, type ChildProcess } from "node:child_process";

export class PtyProcess {
  output = "";
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();

  constructor(command: string, options: { env?: Record<string, string | undefined>; cwd?: string } = {}) {
    this.child = spawn("script", ["-qfec", command, "/dev/null"], { cwd: options.cwd, env: { ...process.env, ...options.env, TERM: "xterm" }, stdio: ["pipe", "pipe", "pipe"] });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
    const take = (chunk: Buffer) => {
      this.output += chunk.toString("utf8");
      for (const waiter of [...this.waiters]) {
        waiter();
      }
    };
    this.child.stdout?.on("data", take);
    this.child.stderr?.on("data", take);
  }

  /** What the terminal shows, without colour and cursor codes. */
  get text(): string {
    // eslint-disable-next-line no-control-regex -- removing terminal escape sequences
    return this.output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
  }

  type(text: string): void {
    this.child.stdin?.write(text);
  }

  /** Resolves when the screen text after `from` matches `pattern`. */
  waitFor(pattern: RegExp, from = 0, timeoutMs = 20_000): Promise<void> {
    const matches = () => pattern.test(this.text.slice(from));
    if (matches()) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`Timed out waiting for ${pattern}. The terminal shows:\n${this.text}`));
      }, timeoutMs);
      const check = () => {
        if (matches()) {
          clearTimeout(timer);
          this.waiters.delete(check);
          resolve();
        }
      };
      this.waiters.add(check);
    });
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }
}
