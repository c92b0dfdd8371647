// bwrapArguments(): the namespaces a sandbox gets, and its mounts in the order that makes a deeper
// path show over a shallower one: writable roots inside hidden directories, hidden files inside roots.

import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { bwrapArguments, type BwrapPlan } from "./bwrap-arguments.js";

let base: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "weft-bwrap-")));
  for (const directory of ["home/.ssh", "home/project", "state/weft", "state/work", "elsewhere"]) {
    mkdirSync(join(base, directory), { recursive: true });
  }
  writeFileSync(join(base, "home/tokens.txt"), "t-ann ann\n");
  writeFileSync(join(base, "state/weft/sessions.db"), "");
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

function plan(extra: Partial<BwrapPlan>): BwrapPlan {
  // The test's directories are in the temporary directory, which the sandbox's scratch /tmp would hide.
  return { command: "/bin/sh", args: ["-c", "make test"], cwd: join(base, "home/project"), writable: [join(base, "home")], hidden: [], scratch: [], ...extra };
}

/** The mounts, as [flag, destination] pairs, after the three every sandbox starts with. */
function mounts(args: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let index = 0; index < args.length; index++) {
    const flag = args[index] as string;
    if (flag === "--bind" || flag === "--ro-bind") {
      pairs.push([flag === "--ro-bind" && args[index + 1] === "/dev/null" ? "hide-file" : flag, args[index + 2] as string]);
      index += 2;
    } else if (flag === "--tmpfs") {
      pairs.push([flag, args[index + 1] as string]);
      index += 1;
    } else if (flag === "--") {
      break;
    }
  }
  return pairs.slice(1);
}

describe("bwrapArguments", () => {
  it("gives the sandbox every namespace, no capabilities, a session of its own, and a life tied to bwrap's", () => {
    const args = bwrapArguments(plan({}));
    expect(args.slice(0, 6)).toEqual(["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--ro-bind"]);
    expect(args).not.toContain("--share-net");
    expect(args.slice(5, 12)).toEqual(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
    expect(args.slice(-6)).toEqual(["--chdir", join(base, "home/project"), "--", "/bin/sh", "-c", "make test"]);
  });

  it("shares the network only when asked", () => {
    expect(bwrapArguments(plan({ network: true })).slice(0, 2)).toEqual(["--unshare-all", "--share-net"]);
  });

  it("makes /tmp, /var/tmp and /run empty by default, and binds a root inside /tmp over it", () => {
    const args = bwrapArguments({ ...plan({}), scratch: undefined });
    expect(mounts(args).slice(0, 3)).toEqual([["--tmpfs", "/run"], ["--tmpfs", "/tmp"], ["--tmpfs", "/var/tmp"]]);
    expect(mounts(args).at(-1)).toEqual(["--bind", join(base, "home")]);
  });

  it("binds the roots, then hides what lies inside them: a directory as an empty one, a file as one that cannot be opened", () => {
    const args = bwrapArguments(plan({ hidden: [join(base, "home/.ssh"), join(base, "home/tokens.txt")] }));
    expect(mounts(args)).toEqual([["--bind", join(base, "home")], ["--tmpfs", join(base, "home/.ssh")], ["hide-file", join(base, "home/tokens.txt")]]);
  });

  it("binds a root that lies inside a hidden directory again over it, and a hidden file inside that root stays hidden", () => {
    writeFileSync(join(base, "state/work/secret"), "");
    const args = bwrapArguments(plan({ writable: [join(base, "home"), join(base, "state/work")], hidden: [join(base, "state"), join(base, "state/work/secret")] }));
    expect(mounts(args)).toEqual([
      ["--bind", join(base, "home")],
      ["--tmpfs", join(base, "state")],
      ["--bind", join(base, "state/work")],
      ["hide-file", join(base, "state/work/secret")],
    ]);
  });

  it("leaves out paths that do not exist, ones already hidden by a directory around them, and roots inside roots", () => {
    const args = bwrapArguments(
      plan({
        writable: [join(base, "home"), join(base, "home/project")],
        hidden: [join(base, "missing"), join(base, "state"), join(base, "state/weft/sessions.db"), join(base, "state/weft")],
      }),
    );
    expect(mounts(args)).toEqual([["--bind", join(base, "home")], ["--tmpfs", join(base, "state")]]);
  });

  it("lets a root win over a hidden path that is the same directory", () => {
    const args = bwrapArguments(plan({ hidden: [join(base, "home")] }));
    expect(mounts(args)).toEqual([["--bind", join(base, "home")]]);
  });

  it("follows links, so a root or a hidden path reached through one is mounted where it really is", () => {
    symlinkSync(join(base, "home"), join(base, "link-to-home"));
    symlinkSync(join(base, "state"), join(base, "link-to-state"));
    const args = bwrapArguments(plan({ writable: [join(base, "link-to-home")], hidden: [join(base, "link-to-state")] }));
    expect(mounts(args)).toEqual([["--bind", join(base, "home")], ["--tmpfs", join(base, "state")]]);
  });

  it("shows a readable path inside a hidden directory read-only", () => {
    writeFileSync(join(base, "state/resolv.conf"), "nameserver 127.0.0.53\n");
    const args = bwrapArguments(plan({ hidden: [join(base, "state")], readable: [join(base, "state/resolv.conf"), join(base, "elsewhere")] }));
    expect(mounts(args)).toEqual([["--bind", join(base, "home")], ["--tmpfs", join(base, "state")], ["--ro-bind", join(base, "state/resolv.conf")]]);
  });
});
