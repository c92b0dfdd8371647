// `weft setup` run more than once, through stdin as a script would: each server keeps its own key
// and its own models (two servers may serve the same model id), setting a server up again replaces
// what it had, a config file written before keys were kept per server goes on working, and a
// placeholder key is refused. Then weft acp offering one model id from two servers as two choices.

import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { weftAcpHarness } from "../../test/support/weft-acp-harness.js";
import type { FakeModelServer } from "../testing/fake-model-server.js";

const harness = weftAcpHarness();

interface ConfigEntry {
  model: string;
  id?: string;
  name?: string;
  baseURL?: string;
  apiKeyFile?: string;
  listServerModels?: boolean;
}

/** A fake server that lists `models` and answers every request with the model it was asked for. */
async function echoServer(models: readonly string[]): Promise<FakeModelServer> {
  const { model } = await harness.fakeModel((request) => ({ text: `I am ${request.model}.` }), { models });
  return model;
}

/** `weft setup` with `input` on its stdin, without blocking this process (the fake servers run here). */
/** Runs `weft setup` with `input` as the person's answers. */
const setup = (input: string) => harness.run(["setup"], {}, input);

function configDirectory(): string {
  return join(harness.configHome, "weft");
}

function readConfig(): { models: ConfigEntry[]; default?: string } {
  return JSON.parse(readFileSync(join(configDirectory(), "config.json"), "utf8")) as { models: ConfigEntry[]; default?: string };
}

function key(file: string | undefined): string {
  return readFileSync(join(configDirectory(), file ?? "no key file"), "utf8").trim();
}

function modelValues(response: { configOptions?: acp.SessionConfigOption[] | null | undefined }): string[] {
  const picker = response.configOptions?.find((option) => option.id === "model");
  if (picker?.type !== "select") {
    return [];
  }
  return picker.options.flatMap((entry) => ("group" in entry ? entry.options : [entry])).map((choice) => choice.value);
}

describe("weft setup, run again", () => {
  it("keeps a key and a model for each of two OpenAI-compatible servers, even when both serve the same model id", async () => {
    const first = await echoServer(["llama"]);
    const second = await echoServer(["llama"]);
    // Provider 4 (OpenAI-compatible), the base URL, the key, then the model the server lists.
    expect((await setup(`4\n${first.url}\nsk-first\n\n`)).status).toBe(0);
    const again = await setup(`4\n${second.url}\nsk-second\n\n`);
    expect(again.stderr).toBe("");
    expect(again.status).toBe(0);

    const config = readConfig();
    expect(config.models).toHaveLength(2);
    const [newest, older] = config.models as [ConfigEntry, ConfigEntry];
    expect(older).toMatchObject({ model: "openai-compatible:llama", baseURL: first.url });
    expect(newest).toMatchObject({ model: "openai-compatible:llama", baseURL: second.url });
    // The second server's entry has an id of its own, which the picker and `default` use.
    expect(newest.id).toBeDefined();
    expect(newest.id).not.toBe(older.id ?? older.model);
    expect(config.default).toBe(newest.id);
    expect(again.stdout).toContain(`weft acp now starts with ${newest.id as string}`);
    expect(newest.apiKeyFile).not.toBe(older.apiKeyFile);
    expect(key(older.apiKeyFile)).toBe("sk-first");
    expect(key(newest.apiKeyFile)).toBe("sk-second");
    expect(statSync(join(configDirectory(), newest.apiKeyFile as string)).mode & 0o777).toBe(0o600);

    const agent = harness.start();
    await agent.initialize();
    const created = await agent.agent.request(acp.methods.agent.session.new, { cwd: harness.project, mcpServers: [] });
    expect(modelValues(created)).toEqual([newest.id, older.id ?? older.model]);
    await agent.prompt(created.sessionId, "who are you?");
    expect(second.requests).toHaveLength(1);
    expect(second.requestHeaders.at(-1)?.authorization).toBe("Bearer sk-second");
    await agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: older.id ?? older.model });
    await agent.prompt(created.sessionId, "and you?");
    expect(first.requests).toHaveLength(1);
    expect(first.requestHeaders.at(-1)?.authorization).toBe("Bearer sk-first");
    expect(second.requests).toHaveLength(1);
  });

  it("replaces a server's key and its entry for the model, keeps the entry's other fields, and leaves other servers' keys alone, in a config written before keys were per server", async () => {
    const first = await echoServer(["small"]);
    const second = await echoServer(["big"]);
    // What an earlier weft setup wrote for two servers: one key file for both.
    mkdirSync(join(configDirectory(), "keys"), { recursive: true });
    writeFileSync(join(configDirectory(), "keys", "openai-compatible.key"), "sk-older\n", { mode: 0o600 });
    writeFileSync(
      join(configDirectory(), "config.json"),
      JSON.stringify({
        models: [
          { model: "openai-compatible:small", name: "Small", baseURL: first.url, apiKeyFile: "keys/openai-compatible.key" },
          { model: "openai-compatible:big", baseURL: second.url, apiKeyFile: "keys/openai-compatible.key" },
          { model: "openai-compatible:tiny", baseURL: first.url, apiKeyFile: "keys/openai-compatible.key", listServerModels: false },
        ],
        default: "openai-compatible:big",
      }),
    );

    expect((await setup(`4\n${first.url}\nsk-first-new\nsmall\n`)).status).toBe(0);
    const config = readConfig();
    expect(config.models).toHaveLength(3);
    const small = config.models.find((entry) => entry.model === "openai-compatible:small");
    const big = config.models.find((entry) => entry.model === "openai-compatible:big");
    expect(small).toMatchObject({ name: "Small", baseURL: first.url });
    expect(small?.id).toBeUndefined();
    expect(small?.apiKeyFile).not.toBe("keys/openai-compatible.key");
    expect(key(small?.apiKeyFile)).toBe("sk-first-new");
    expect(big).toEqual({ model: "openai-compatible:big", baseURL: second.url, apiKeyFile: "keys/openai-compatible.key" });
    expect(key(big?.apiKeyFile)).toBe("sk-older");
    // The key is the server's: its other models use the new one too.
    expect(config.models.find((entry) => entry.model === "openai-compatible:tiny")).toEqual({ model: "openai-compatible:tiny", baseURL: first.url, apiKeyFile: small?.apiKeyFile, listServerModels: false });
    expect(config.default).toBe("openai-compatible:small");

    const agent = harness.start();
    await agent.initialize();
    const created = await agent.agent.request(acp.methods.agent.session.new, { cwd: harness.project, mcpServers: [] });
    await agent.prompt(created.sessionId, "hello");
    expect(first.requestHeaders.at(-1)?.authorization).toBe("Bearer sk-first-new");
    await agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: "openai-compatible:big" });
    await agent.prompt(created.sessionId, "hello again");
    expect(second.requestHeaders.at(-1)?.authorization).toBe("Bearer sk-older");
    await agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: "openai-compatible:tiny" });
    await agent.prompt(created.sessionId, "and once more");
    expect(first.requests.at(-1)?.model).toBe("tiny");
    expect(first.requestHeaders.at(-1)?.authorization).toBe("Bearer sk-first-new");
  });
});

describe("weft setup's keys", () => {
  it("keeps a server's saved key when its key is left empty, and drops it on \"-\"", async () => {
    const server = await echoServer(["one", "two"]);
    expect((await setup(`4\n${server.url}\nsk-saved\none\n`)).status).toBe(0);
    const kept = await setup(`4\n${server.url}\n\ntwo\n`);
    expect(kept.stdout).toContain('empty keeps the saved one, "-" for none');
    expect(kept.stdout).toContain("The server lists: one, two");
    const config = readConfig();
    expect(config.models.map((entry) => entry.model)).toEqual(["openai-compatible:two", "openai-compatible:one"]);
    const [two, one] = config.models as [ConfigEntry, ConfigEntry];
    expect(two.apiKeyFile).toBe(one.apiKeyFile);
    expect(key(two.apiKeyFile)).toBe("sk-saved");

    expect((await setup(`4\n${server.url}\n-\none\n`)).status).toBe(0);
    expect(readConfig().models).toEqual([
      { model: "openai-compatible:one", baseURL: server.url },
      { model: "openai-compatible:two", baseURL: server.url },
    ]);
  });

  it("refuses a placeholder key with a message that says what is wrong with it, and asks again", async () => {
    const result = await setup("1\nsk-…\nsk-real-key\n\n");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('That key has "…" (U+2026) at character 4, and API keys are plain ASCII letters, digits and punctuation; it looks like a placeholder from an example, not a key.');
    expect(result.stdout).not.toContain("ByteString");
    expect(key(readConfig().models[0]?.apiKeyFile)).toBe("sk-real-key");
  });
});

describe("weft acp with one model id on two servers", () => {
  it("offers a model that a second server lists too as a choice of its own, which calls that server", async () => {
    const first = await echoServer(["llama"]);
    const second = await echoServer(["llama", "extra"]);
    mkdirSync(configDirectory(), { recursive: true });
    writeFileSync(
      join(configDirectory(), "config.json"),
      JSON.stringify({
        models: [
          { model: "openai-compatible:llama", baseURL: first.url },
          { model: "openai-compatible:other", baseURL: second.url },
        ],
      }),
    );
    const agent = harness.start();
    await agent.initialize();
    const created = await agent.agent.request(acp.methods.agent.session.new, { cwd: harness.project, mcpServers: [] });
    const secondLlama = `openai-compatible:llama@${new URL(second.url).host}`;
    expect(modelValues(created)).toEqual(["openai-compatible:llama", "openai-compatible:other", secondLlama, "openai-compatible:extra"]);
    await agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: secondLlama });
    await agent.prompt(created.sessionId, "who are you?");
    expect(second.requests.map((request) => request.model)).toEqual(["llama"]);
    expect(first.requests).toEqual([]);
  });
});
