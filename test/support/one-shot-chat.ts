// One-shot `weft chat` as a script runs it, for the tests that need it: a fresh state directory and
// project, a fake OpenAI-compatible model, and the built command run to its end as a child process.
// `runWeftChat` and `chatEnv` serve the tests that bring an agent (or a server) of their own.

import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

import { FakeModelServer, type FakeScript } from "../../src/testing/fake-model-server.js";
import { repoRoot } from "./agent-process.js";
import { type Cleanups, temporaryDirectory } from "./cleanups.js";

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

/** Sets up a one-shot chat whose model plays `script`, undone at cleanup. */
export async function oneShotChat(script: FakeScript, cleanups: Cleanups): Promise<OneShotChat> {
  const home = temporaryDirectory("weft-home-", cleanups);
  const project = temporaryDirectory("weft-script-", cleanups);
  const model = await FakeModelServer.start(script);
  cleanups.push(() => model.close());
  const env = chatEnv(home, { WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_LOG: "silent", WEFT_MODELS: undefined, WEFT_SESSIONS: undefined });
  const weft = (args: string[], input = "", watch?: ChatWatch, extra: Record<string, string | undefined> = {}): Promise<ChatRun> => runWeftChat(project, args, { ...env, ...extra }, input, watch);
  return { model, project, home, env, weft };
}

/**
 * The environment of a test's `weft chat`: the test's own, with `home` for state and config (under
 * `home/config`) and no colour; `settings` go over it, and one mapped to undefined is removed.
 */
export function chatEnv(home: string, settings: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: home, XDG_CONFIG_HOME: join(home, "config"), NO_COLOR: "1" };
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) {
      delete env[name];
    } else {
      env[name] = value;
    }
  }
  return env;
}

/** Runs `weft chat --cwd <project> …args` in `env` to its end, with `input` on its stdin (then closed); `watch` sees stdout as it grows. */
export function runWeftChat(project: string, args: string[], env: NodeJS.ProcessEnv, input = "", watch?: ChatWatch): Promise<ChatRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, "bin/weft.js"), "chat", "--cwd", project, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
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
}
