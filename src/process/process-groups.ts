// Commands run for an agent or a person start in a process group of their own, so stopping one
// stops everything it started (a test runner's workers, a dev server's children). This module
// starts them and remembers the groups still running, so a process that is told to stop (SIGTERM,
// SIGHUP, SIGINT) can kill every one of them before it exits.

import { type ChildProcess, spawn, type SpawnOptions } from "node:child_process";

const running = new Set<ChildProcess>();

/**
 * Spawns a command as the leader of a new process group (on Windows, a plain child) and keeps it
 * in the set of running groups until it exits.
 */
export function spawnGroup(command: string, args: readonly string[], options: Omit<SpawnOptions, "detached">): ChildProcess {
  const child = spawn(command, args, { ...options, detached: process.platform !== "win32" });
  running.add(child);
  const forget = () => running.delete(child);
  child.once("exit", forget);
  child.once("error", forget);
  return child;
}

/** Kills a child's whole process group with SIGKILL. A group that has already gone is not an error. */
export function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) {
      process.kill(process.platform === "win32" ? child.pid : -child.pid, "SIGKILL");
    }
  } catch {
    child.kill("SIGKILL");
  }
}

/**
 * Kills every process group still running, at once. For a process about to exit: the children's
 * exit events are not waited for, and listeners that would report their exit are removed first, so
 * work waiting on a command does not go on to record that it was killed.
 */
export function killAllGroups(): number {
  const children = [...running];
  for (const child of children) {
    const ignore = () => undefined;
    child.removeAllListeners("exit");
    child.removeAllListeners("close");
    child.removeAllListeners("error");
    child.on("error", ignore);
    // A killed child's pipes still close; nothing may read a half-finished output as a result.
    for (const stream of [child.stdout, child.stderr]) {
      stream?.removeAllListeners();
      stream?.on("error", ignore);
    }
    killGroup(child);
  }
  running.clear();
  return children.length;
}
