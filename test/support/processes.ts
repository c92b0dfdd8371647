// Whether a process is still running, for tests that check what a command left behind.

import { existsSync, readFileSync } from "node:fs";

/**
 * True while a process exists and is not a zombie. A killed command whose parent died with it is
 * reaped by init in its own time; until then it is a zombie, which has stopped running.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
  return !/^\d+ \(.*\) Z/.test(stat);
}
