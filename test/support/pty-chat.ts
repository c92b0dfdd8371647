// Interactive `weft chat` in a pseudo-terminal (pty.ts), as a person at the keyboard sees it, for
// the tests that type at it: by default with weft's own agent on the fake OpenAI-compatible model,
// in a fresh state directory and project.

import { join } from "node:path";

import { expect } from "vitest";

import { FakeModelServer, type FakeScript } from "../../src/testing/fake-model-server.js";
import { repoRoot } from "./agent-process.js";
import { type Cleanups, temporaryDirectory } from "./cleanups.js";
import { PtyProcess } from "./pty.js";

/** The built `weft` command. */
export const weftBin = join(repoRoot, "bin/weft.js");

/** The command line of `weft chat --cwd <project>`, then `args`. */
export function chatCommand(project: string, args = ""): string {
  return `${process.execPath} ${weftBin} chat --cwd ${project}${args === "" ? "" : ` ${args}`}`;
}

export interface PtyChat {
  chat: PtyProcess;
  model: FakeModelServer;
  /** The state directory (`XDG_STATE_HOME`). */
  home: string;
  /** The chat's `--cwd`. */
  project: string;
  /** What the chat runs in (over the test's own environment): the fake model, the state directory, no colour, no logs. */
  env: Record<string, string | undefined>;
  /** The chat's command line without `args`, to start another chat in the same place. */
  command: string;
}

export interface PtyChatOptions {
  /** After `weft chat --cwd <project>`. */
  args?: string | undefined;
  /** The terminal's width (see PtyProcess); 0, the default, reports none. */
  columns?: number | undefined;
  /** Over the chat's environment (undefined: taken out of it). */
  env?: Record<string, string | undefined> | undefined;
}

/** Starts `weft chat` with weft's own agent, whose model plays `script`; all of it undone at cleanup. */
export async function ptyChat(script: FakeScript, cleanups: Cleanups, options: PtyChatOptions = {}): Promise<PtyChat> {
  const home = temporaryDirectory("weft-home-", cleanups);
  const project = temporaryDirectory("weft-chat-", cleanups);
  const model = await FakeModelServer.start(script);
  cleanups.push(() => model.close());
  const env = { XDG_STATE_HOME: home, WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, NO_COLOR: "1", WEFT_LOG: "silent", ...options.env };
  const command = chatCommand(project);
  const chat = new PtyProcess(options.args ? `${command} ${options.args}` : command, { env, columns: options.columns ?? 0 });
  cleanups.push(() => chat.kill());
  return { chat, model, home, project, env, command };
}

/** Leaves `chat` with Ctrl-D, as a person does, and expects it to exit 0. */
export async function leaveChat(chat: PtyProcess): Promise<void> {
  chat.type("\u0004");
  expect(await chat.exited).toBe(0);
}
