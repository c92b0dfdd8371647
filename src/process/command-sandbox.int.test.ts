// CommandSandbox with the real bwrap: what a confined command can write, read, reach and see of
// the server's environment, that killing its process group kills all it started, and the refusal
// when bwrap is missing.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { bwrapSkip } from "../../test/support/bwrap.js";
import { CommandSandbox, type SandboxPlace } from "./command-sandbox.js";
import { killGroup, spawnGroup } from "./process-groups.js";

let base: string;
let home: string;
let project: string;
let place: SandboxPlace;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "weft-sandbox-")));
  home = join(base, "home");
  project = join(home, "project");
  for (const directory of [join(home, ".ssh"), project, join(base, "outside")]) {
    mkdirSync(directory, { recursive: true });
  }
  writeFileSync(join(home, ".ssh/id_test"), "PRIVATE KEY\n");
  writeFileSync(join(home, "tokens.txt"), "t-secret ann\n");
  place = { cwd: project, writable: [project] };
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync("/etc/weft-sandbox-probe", { force: true });
});

const serverEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: home, LANG: "C.UTF-8", WEFT_TOKENS: "t-secret:ann", OPENAI_API_KEY: "sk-secret", WEFT_SESSIONS: "postgres://root@127.0.0.1/test" });

/** Runs `command` confined, and resolves with its exit code and output. */
async function run(sandbox: CommandSandbox, command: string, where: SandboxPlace = place): Promise<{ code: number | null; output: string }> {
  const confined = await sandbox.confine("/bin/sh", ["-c", command], where);
  if (!confined.ok) {
    throw new Error(confined.reason);
  }
  const child = spawnGroup(confined.command.command, confined.command.args, { cwd: where.cwd, env: confined.command.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

/** The host's processes running exactly `argv`. */
function processesRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join("\0")}\0`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (/^\d+$/.test(entry)) {
      try {
        if (readFileSync(`/proc/${entry}/cmdline`, "utf8") === wanted) {
          found.push(Number(entry));
        }
      } catch {
        // Gone while we looked.
      }
    }
  }
  return found;
}

describe.skipIf(bwrapSkip)("CommandSandbox", () => {
  it("lets a command write in its directories only, and read none of the server's secrets", async () => {
    const sandbox = new CommandSandbox({ hide: [join(home, "tokens.txt")] }, serverEnv());
    const wrote = await run(sandbox, "echo made > made.txt && echo escaped > ../escaped.txt; echo out > " + join(base, "outside/x.txt") + "; touch /etc/weft-sandbox-probe; echo done");
    expect(wrote.output).toContain("done");
    expect(readFileSync(join(project, "made.txt"), "utf8")).toBe("made\n");
    expect(existsSync(join(home, "escaped.txt"))).toBe(false);
    expect(existsSync(join(base, "outside/x.txt"))).toBe(false);
    expect(existsSync("/etc/weft-sandbox-probe")).toBe(false);

    const read = await run(sandbox, `cat ${join(home, "tokens.txt")}; echo "[tokens $?]"; cat ~/.ssh/id_test; echo "[key $?]"; ls ${join(home, ".ssh")} | wc -l; env`);
    expect(read.output).toContain("[tokens 1]");
    expect(read.output).toContain("[key 1]");
    expect(read.output).not.toContain("t-secret");
    expect(read.output).not.toContain("PRIVATE KEY");
    expect(read.output).not.toContain("sk-secret");
    expect(read.output).not.toContain("WEFT_SESSIONS");
    expect(read.output).toContain(`HOME=${home}`);
    expect(read.output).toContain("TMPDIR=/tmp");
  });

  it("has no network unless given it, loopback included", async () => {
    const listener: Server = createServer((socket) => socket.end("hello from the host\n"));
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = listener.address() as { port: number };
      const probe = `${JSON.stringify(process.execPath)} -e "require('net').connect(${port}, '127.0.0.1').on('data', (d) => process.stdout.write(String(d))).on('error', (e) => console.log('refused', e.code))"`;
      expect((await run(new CommandSandbox({}, serverEnv()), probe)).output).toMatch(/^refused E/);
      expect((await run(new CommandSandbox({ network: true }, serverEnv()), probe)).output).toBe("hello from the host\n");
    } finally {
      listener.close();
    }
  });

  it("dies with everything it started when its process group is killed", async () => {
    const marker = `${86_000 + Math.floor(Math.random() * 1000)}.${Date.now() % 1000}`;
    const confined = await new CommandSandbox({}, serverEnv()).confine("/bin/sh", ["-c", `sleep ${marker} & sleep ${marker} & echo started; wait`], place);
    if (!confined.ok) {
      throw new Error(confined.reason);
    }
    const child = spawnGroup(confined.command.command, confined.command.args, { cwd: project, env: confined.command.env, stdio: ["ignore", "pipe", "pipe"] });
    await new Promise<void>((resolve) => child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("started") && resolve()));
    await expect.poll(() => processesRunning(["sleep", marker]).length, { timeout: 5_000 }).toBe(2);
    const closed = new Promise((resolve) => child.on("close", resolve));
    killGroup(child);
    await closed;
    await expect.poll(() => processesRunning(["sleep", marker]), { timeout: 5_000 }).toEqual([]);
  });
});

describe("CommandSandbox without bwrap", () => {
  it("refuses to confine, saying that bwrap is missing and where it looked", async () => {
    const sandbox = new CommandSandbox({ bwrap: join(base, "no/bwrap") }, serverEnv());
    expect(await sandbox.confine("/bin/sh", ["-c", "true"], place)).toEqual({ ok: false, reason: `bwrap was not found at ${join(base, "no/bwrap")}` });
    const onPath = new CommandSandbox({}, { ...serverEnv(), PATH: join(base, "outside") });
    expect(await onPath.check()).toEqual({ ok: false, reason: "bwrap (bubblewrap) was not found on PATH" });
  });
});
