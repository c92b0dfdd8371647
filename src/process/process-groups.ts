// Commands run for an agent or a person start in a process group of their own, so stopping one
// stops everything it started (a test runner's workers, a dev server's children). This module
// starts them and remembers the groups still running, so a process that is told to stop (SIGTERM,
// SIGHUP, SIGINT) can kill every one of them before it exits. A process killed outright (SIGKILL,
// the out-of-memory killer) can do nothing, so on POSIX each group also watches its parent: a small
// shell runs the command and kills the group when the parent's end of a pipe closes.

import { type ChildProcess, type IOType, spawn, type SpawnOptions } from "node:child_process";
import type { Socket } from "node:net";

/** What each of a command's stdin, stdout and stderr is. */
export type StdioTriple = [IOType | "ignore", IOType | "ignore", IOType | "ignore"];

const running = new Set<ChildProcess>();

/**
 * Runs `"$@"` with fd 3 closed, and alongside it a watcher that reads fd 3 (a pipe whose other end
 * only the parent holds) and kills the whole group when it reaches end of file, that is when the
 * parent is gone. The command's own exit status, or the signal that killed it, is passed on.
 */
const WATCHDOG = `(exec "$@") 3<&- &
command=$!
(read -r _ <&3; kill -KILL 0) &
watcher=$!
exec 3<&-
wait "$command"
status=$?
kill "$watcher" 2>/dev/null
if [ "$status" -gt 128 ]; then
  kill -s "$(kill -l "$status")" "$$"
fi
exit "$status"`;

/**
 * Spawns a command as the leader of a new process group (on Windows, a plain child) and keeps it
 * in the set of running groups until it exits. On POSIX the group dies with this process, however
 * this process ends. `options.stdio` must be an array of three (or omitted, for three pipes).
 */
export function spawnGroup(command: string, args: readonly string[], options: Omit<SpawnOptions, "detached" | "stdio"> & { stdio?: StdioTriple | undefined }): ChildProcess {
  const stdio = options.stdio ?? ["pipe", "pipe", "pipe"];
  const child =
    process.platform === "win32"
      ? spawn(command, args, { ...options, stdio })
      : spawn("/bin/sh", ["-c", WATCHDOG, "weft-command", command, ...args], { ...options, stdio: [...stdio, "pipe"], detached: true });
  // The watcher's pipe carries nothing; it only has to stay open while this process lives.
  (child.stdio[3] as Socket | null | undefined)?.on("error", () => undefined);
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
