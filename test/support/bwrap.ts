// Whether bubblewrap can confine commands on this machine, for the tests that need it. Without it
// they are skipped, saying why and how to run them.

import { spawnSync } from "node:child_process";

function whyNoBwrap(): string | undefined {
  if (process.platform !== "linux") {
    return "bubblewrap confines commands on Linux only";
  }
  const probe = spawnSync("bwrap", ["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "/bin/sh", "-c", ":"], { encoding: "utf8" });
  if (probe.error) {
    return "bwrap is not installed: install the bubblewrap package (bash .ci/run does, as root with apt-get)";
  }
  if (probe.status !== 0) {
    return `bwrap cannot make a sandbox here (${probe.stderr.trim() || `exit ${probe.status}`}): it needs user namespaces`;
  }
  return undefined;
}

export const bwrapSkip = whyNoBwrap();
