// What `weft chat` tells the person about its agent, as the built command shows it: the agent's log
// on stderr when WEFT_LOG asks for it, a missing model said at start with the config file this run
// reads, and an API key with a character no key has named as such, not as a header error.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { cleanupsAfterEach, temporaryDirectory } from "../../test/support/cleanups.js";
import { type ChatRun, chatEnv, runWeftChat } from "../../test/support/one-shot-chat.js";
import { PtyProcess } from "../../test/support/pty.js";
import { chatCommand, leaveChat } from "../../test/support/pty-chat.js";
import { FakeModelServer } from "../testing/fake-model-server.js";

const cleanup = cleanupsAfterEach();

/** A fresh home (state and config) and project; `weft` runs `weft chat --cwd <project> …args` there. */
function setUp(): { configHome: string; project: string; environment: NodeJS.ProcessEnv; weft: (args: string[], env: Record<string, string | undefined>) => Promise<ChatRun> } {
  const home = temporaryDirectory("weft-home-", cleanup);
  const project = temporaryDirectory("weft-diagnostics-", cleanup);
  const configHome = join(home, "config");
  const unset = ["WEFT_MODEL", "WEFT_MODELS", "WEFT_BASE_URL", "WEFT_API_KEY", "WEFT_SESSIONS", "WEFT_LOG", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"];
  const environment = chatEnv(home, Object.fromEntries(unset.map((name) => [name, undefined])));
  const weft = (args: string[], env: Record<string, string | undefined>): Promise<ChatRun> => runWeftChat(project, args, { ...environment, ...env });
  return { configHome, project, environment, weft };
}

async function fakeModel(): Promise<FakeModelServer> {
  const model = await FakeModelServer.start(() => ({ text: "Hello." }));
  cleanup.push(() => model.close());
  return model;
}

describe("weft chat's diagnostics", () => {
  it("shows the agent's log on stderr when WEFT_LOG asks for it, and not otherwise", async () => {
    const { weft } = setUp();
    const model = await fakeModel();
    const env = { WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url };
    const logged = await weft(["-p", "hi"], { ...env, WEFT_LOG: "info" });
    expect(logged.stdout).toContain("Hello.");
    expect(logged.stderr).toMatch(/^weft info: Session started \{"method":"session\/new"/m);
    expect(logged.stderr).toMatch(/^weft info: Turn ended \{.*"stopReason":"end_turn"/m);
    const quiet = await weft(["-p", "hi"], env);
    expect(quiet.stdout).toContain("Hello.");
    expect(quiet.stderr).toBe("");
  });

  it("says at start that no model is configured, naming the config file under XDG_CONFIG_HOME", async () => {
    const { configHome, weft } = setUp();
    const configFile = join(configHome, "weft", "config.json");
    const run = await weft(["-p", "hi"], {});
    expect(run.stderr).toContain(`weft chat: no model is configured, so the agent cannot answer yet: run weft setup, list models in ${configFile}, or set WEFT_MODEL (or pass --model).`);
    // The agent's answer names the same file, not ~/.config's.
    expect(run.stdout).toContain(`list models in ${configFile}`);
    expect(run.stdout).not.toContain("~/.config");
  });

  it("says so in the terminal before the first prompt", async () => {
    const { configHome, project, environment } = setUp();
    const chat = new PtyProcess(chatCommand(project), { env: environment });
    cleanup.push(() => chat.kill());
    await chat.waitFor(/you › $/);
    expect(chat.text).toContain(`no model is configured, so the agent cannot answer yet: run weft setup, list models in ${join(configHome, "weft", "config.json")}`);
    await leaveChat(chat);
  });

  it("names a placeholder API key as the problem, wherever the key comes from", async () => {
    const { configHome, weft } = setUp();
    const model = await fakeModel();
    const placeholder = "sk-…";
    const problem = 'has "…" (U+2026) at character 4, and API keys are plain ASCII letters, digits and punctuation; it looks like a placeholder from an example, not a key';

    // The provider's own variable: the turn says which variable and what is wrong with it.
    const fromVariable = await weft(["-p", "hi"], { WEFT_MODEL: "openai:gpt-4.1", OPENAI_API_KEY: placeholder });
    expect(fromVariable.stdout + fromVariable.stderr).toContain(`The API key in OPENAI_API_KEY ${problem}`);
    expect(fromVariable.stdout + fromVariable.stderr).not.toContain("ByteString");

    // WEFT_API_KEY is checked with the other settings, before anything starts.
    const fromWeft = await weft(["-p", "hi"], { WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_API_KEY: placeholder });
    expect(fromWeft.status).toBe(2);
    expect(fromWeft.stderr).toContain(`WEFT_API_KEY ${problem}`);

    // A key file the config file names: the turn names the file.
    const keyFile = join(configHome, "weft", "keys", "server.key");
    mkdirSync(join(configHome, "weft", "keys"), { recursive: true });
    writeFileSync(keyFile, `${placeholder}\n`);
    writeFileSync(join(configHome, "weft", "config.json"), JSON.stringify({ models: [{ model: "openai-compatible:fake-model", baseURL: model.url, apiKeyFile: "keys/server.key", listServerModels: false }] }));
    const fromFile = await weft(["-p", "hi"], {});
    expect(fromFile.stdout + fromFile.stderr).toContain(`The API key of openai-compatible:fake-model in ${keyFile} ${problem}`);
    expect(fromFile.stdout + fromFile.stderr).not.toContain("ByteString");
    expect(model.requests).toEqual([]);
  });
});
