// One-shot `weft chat` as a script runs it, for the tests that need it: a fresh state directory and
// project, a fake OpenAI-compatible model, and the built command run to its end as a child process.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { FakeModelServer, type FakeScript } from "../../src/testing/fake-model-server.js";
import { repoRoot } from "./agent-process.js";

/** How a run of `weft chat` ended. */
export interface ChatRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Sees a run's stdout each time it grows, with the child process (to signal it, say). */
export type ChatWatch = (child: ChildProcess, stdout: string) => void;

export interface OneShotChat {
  model: FakeModelServer;
  /** The project directory, the run's `--cwd`. */
  project: string;
  /** The state directory (`XDG_STATE_HOME`): weft's sessions file and chat's sessions list. */
  home: string;
  /** The environment every run gets: the fake model, the state directory, no colour, no logs. */
  env: NodeJS.ProcessEnv;
  /**
   * Runs `weft chat --cwd <project> …args` to its end, with `input` on its stdin (then closed);
   * `watch` sees stdout as it grows; `env` adds to (or, mapped to undefined, removes from) the
   * environment.
   */
  weft(args: string[], input?: string, watch?: ChatWatch, env?: Record<string, string | undefined>): Promise<ChatRun>;
}

/** Sets up a one-shot chat whose model plays `script`; `cleanup` is given what to undo after the test. */
export async function oneShotChat(script: FakeScript, cleanup: (step: () => Promise<void> | void) => void): Promise<OneShotChat> {
  const home = mkdtempSync(join(tmpdir(), "weft-home-"));
  const project = mkdtempSync(join(tmpdir(), "weft-script-"));
  const model = await FakeModelServer.start(script);
  cleanup(() => rmSync(home, { recursive: true, force: true }));
  cleanup(() => rmSync(project, { recursive: true, force: true }));
  cleanup(() => model.close());
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: home, XDG_CONFIG_HOME: join(home, "config"), WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, NO_COLOR: "1", WEFT_LOG: "silent" };
  delete env.WEFT_MODELS;
  delete env.WEFT_SESSIONS;
  const weft = (args: string[], input = "", watch?: ChatWatch, extra: Record<string, string | undefined> = {}): Promise<ChatRun> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(repoRoot, "bin/weft.js"), "chat", "--cwd", project, ...args], { env: { ...env, ...extra }, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        stdout += text;
        watch?.(child, stdout);
      });
      child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
      child.on("error", reject);
      child.on("close", (status) => resolve({ status, stdout, stderr }));
      child.stdin.end(input);
    });
  return { model, project, home, env, weft };
}
