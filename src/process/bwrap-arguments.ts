// The bubblewrap (bwrap) command line that confines one command: the whole machine read-only, a
// few directories writable, some paths hidden, its own /tmp, /dev and /proc, and no network.

import { realpathSync, statSync } from "node:fs";
import { sep } from "node:path";

/** What one confined command may do and see. */
export interface BwrapPlan {
  /** The program to run inside the sandbox and its arguments (such as `/bin/sh -c "…"`). */
  command: string;
  args: readonly string[];
  /** The directory it starts in. */
  cwd: string;
  /** The only directories of the machine it may write to, with everything inside them. */
  writable: readonly string[];
  /**
   * Paths it must not see: a directory shows as an empty one, a file as one that cannot be read.
   * A writable directory inside a hidden one shows all the same; a hidden path inside a writable
   * one stays hidden. Paths that do not exist are left out.
   */
  hidden: readonly string[];
  /** Paths shown read-only even inside a hidden directory (such as the resolver's file under /run). */
  readable?: readonly string[] | undefined;
  /** Share this machine's network, loopback included. Default false: a network of its own with nothing on it. */
  network?: boolean | undefined;
  /** Directories the command gets empty and writable, its own. Default SANDBOX_SCRATCH. */
  scratch?: readonly string[] | undefined;
}

/** The directories a sandbox gets empty and its own by default: scratch space, and /run with the sockets of the machine's services. */
export const SANDBOX_SCRATCH: readonly string[] = ["/tmp", "/var/tmp", "/run", "/var/run"];

type Kind = "hidden" | "readable" | "writable";

/** Which of two mounts on one path wins: a writable one over a readable one over a hidden one. */
const STRENGTH: Record<Kind, number> = { hidden: 0, readable: 1, writable: 2 };

interface Mount {
  path: string;
  kind: Kind;
  directory: boolean;
}

/**
 * The arguments after `bwrap` that run the plan's command. The sandbox has every namespace of its
 * own (no network unless `network`, no other process to see, no capabilities even for root), is
 * a session of its own (so it cannot type into a terminal), and dies when the bwrap that started
 * it does (so killing bwrap's process group kills everything the command started). Mounts go from
 * the shallowest path to the deepest, so a deeper one shows over a shallower one.
 */
export function bwrapArguments(plan: BwrapPlan): string[] {
  const args = ["--unshare-all", ...(plan.network ? ["--share-net"] : []), "--die-with-parent", "--new-session", "--cap-drop", "ALL"];
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  for (const mount of layered([
    ...[...(plan.scratch ?? SANDBOX_SCRATCH), ...plan.hidden].map((path) => ({ path, kind: "hidden" as const })),
    ...(plan.readable ?? []).map((path) => ({ path, kind: "readable" as const })),
    ...plan.writable.map((path) => ({ path, kind: "writable" as const })),
  ])) {
    switch (mount.kind) {
      case "writable":
        args.push("--bind", mount.path, mount.path);
        break;
      case "readable":
        args.push("--ro-bind", mount.path, mount.path);
        break;
      case "hidden":
        // A device on a mount without devices cannot be opened: the file reads as nothing at all.
        args.push(...(mount.directory ? ["--tmpfs", mount.path] : ["--ro-bind", "/dev/null", mount.path]));
        break;
    }
  }
  args.push("--chdir", plan.cwd, "--", plan.command, ...plan.args);
  return args;
}

/**
 * The mounts to make, in order: each path that exists, with links followed, once (the strongest
 * kind on it), shallowest first; a mount that changes nothing (a hidden path inside a hidden
 * directory, a writable one inside a writable one, a readable one where all is readable) is left out.
 */
function layered(requests: ReadonlyArray<{ path: string; kind: Kind }>): Mount[] {
  const byPath = new Map<string, Mount>();
  for (const request of requests) {
    const found = existing(request.path);
    if (!found || (request.kind === "writable" && !found.directory)) {
      continue;
    }
    const known = byPath.get(found.path);
    if (!known || STRENGTH[request.kind] > STRENGTH[known.kind]) {
      byPath.set(found.path, { ...found, kind: request.kind });
    }
  }
  const mounts = [...byPath.values()].sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));
  return mounts.filter((mount) => {
    const around = mounts.filter((other) => other !== mount && inside(mount.path, other.path)).sort((a, b) => depth(b.path) - depth(a.path))[0];
    return (around?.kind ?? "readable") !== mount.kind;
  });
}

function existing(path: string): { path: string; directory: boolean } | undefined {
  try {
    const real = realpathSync(path);
    return { path: real, directory: statSync(real).isDirectory() };
  } catch {
    return undefined;
  }
}

function depth(path: string): number {
  return path === sep ? 0 : path.split(sep).length - 1;
}

/** True when `path` lies inside `directory` (and is not it). */
function inside(path: string, directory: string): boolean {
  return directory === sep ? path !== sep : path.startsWith(directory + sep);
}
