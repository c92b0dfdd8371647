// `weft serve` as a person runs it: refused beyond loopback without authentication, a turn for
// `weft chat --url`, and two processes on one Postgres: a session started on one is prompted on
// the other, and when the one running a turn is killed, the other carries the turn on.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";

import { repoRoot } from "../../test/support/agent-process.js";
import { cleanUpStores, postgresSkip, storesUnderTest } from "../../test/support/servers.js";
import { type Cleanups, connectRemote, serveEnvironment, startWeftServe } from "../../test/support/weft-serve.js";
import { FakeModelServer, type FakeScript } from "../testing/fake-model-server.js";

const weft = join(repoRoot, "bin/weft.js");
const home = realpathSync(mkdtempSync(join(tmpdir(), "weft-serve-")));
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

/** Starts `weft serve --root <home>` with `extra` in its environment. */
function serve(args: string[], extra: Record<string, string | undefined>) {
  return startWeftServe({ home, args: ["--root", home, ...args], env: extra, cleanups });
}

async function fakeModel(script: FakeScript): Promise<FakeModelServer> {
  const model = await FakeModelServer.start(script);
  cleanups.push(() => model.close());
  return model;
}

const connect = (url: string, token: string) => connectRemote(url, "http", token, cleanups);

function run(args: string[], extra: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [weft, ...args], { env: serveEnvironment(home, extra), stdio: ["ignore", "pipe", "pipe"], cwd: home });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

describe("weft serve", () => {
  it("will not listen beyond loopback without authentication, and says how to add it", async () => {
    const result = await run(["serve", "--listen", "0.0.0.0:0"], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("without authentication");
    expect(result.stderr).toContain("--tokens-file");
  });

  it("serves the coding agent to weft chat --url, which needs the token", async () => {
    const model = await fakeModel(() => ({ text: ["served ", "remotely"] }));
    const served = await serve([], { WEFT_TOKENS: "secret-token:ann", WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_SESSIONS: "memory" });
    const ok = await run(["chat", "--url", served.url, "-p", "hello"], { WEFT_TOKEN: "secret-token" });
    expect(ok.stdout).toContain("served remotely");
    expect(ok.code).toBe(0);
    const refused = await run(["chat", "--url", served.url, "-p", "hello"], { WEFT_TOKEN: "wrong" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("401");
  });

  describe.skipIf(postgresSkip)("two processes on one Postgres", () => {
    const postgres = storesUnderTest(() => home).find((store) => store.name === "postgres");

    it("prompts on one a session started on the other, and carries on a turn whose process was killed", async () => {
      const sessions = postgres?.spec() as string;
      cleanups.push(() => cleanUpStores([sessions]));
      let calls = 0;
      let slow = false;
      const model = await fakeModel(() => {
        calls++;
        // While `slow`, the reply streams for long enough to kill the process in the middle of it.
        return slow ? { text: Array.from({ length: 200 }, (_, index) => `w${index} `), chunkDelayMs: 20 } : { text: `reply ${calls}` };
      });
      const shared = { WEFT_TOKENS: "t-ann:ann", WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_SESSIONS: sessions };
      const [one, two] = await Promise.all([serve([], shared), serve([], shared)]);

      const onOne = await connect(one.url, "t-ann");
      const { sessionId } = await onOne.agent.request(acp.methods.agent.session.new, { cwd: home, mcpServers: [] });
      await onOne.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "first" }] });
      expect(onOne.text(sessionId)).toBe("reply 1");

      const onTwo = await connect(two.url, "t-ann");
      await onTwo.agent.request(acp.methods.agent.session.load, { sessionId, cwd: home, mcpServers: [] });
      const answer = await onTwo.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "second" }] });
      expect(answer.stopReason).toBe("end_turn");
      expect(onTwo.text(sessionId)).toContain("reply 2");
      await onTwo.close();

      // A turn on the first process, killed while the reply streams.
      slow = true;
      const onOneAgain = await connect(one.url, "t-ann");
      await onOneAgain.agent.request(acp.methods.agent.session.load, { sessionId, cwd: home, mcpServers: [] });
      void onOneAgain.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "third" }] }).catch(() => undefined);
      await expect.poll(() => onOneAgain.text(sessionId).includes("w3 "), { timeout: 10_000 }).toBe(true);
      const gone = once(one.child, "exit");
      one.child.kill("SIGKILL");
      // Until its parent reaps it, a killed process still answers kill(pid, 0) and its lease looks held.
      await gone;
      slow = false;

      const carried = await connect(two.url, "t-ann");
      await carried.agent.request(acp.methods.agent.session.load, { sessionId, cwd: home, mcpServers: [] });
      // The load carried the turn on (the model was asked again) and answered when it ended.
      expect(carried.text(sessionId)).toContain(`reply ${calls}`);
      const prompts = carried.updates.filter(({ update }) => update.sessionUpdate === "user_message_chunk").map(({ update }) => (update.sessionUpdate === "user_message_chunk" && update.content.type === "text" ? update.content.text : ""));
      expect(prompts).toEqual(["first", "second", "third"]);
      const next = await carried.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "fourth" }] });
      expect(next.stopReason).toBe("end_turn");
      expect(carried.text(sessionId)).toContain(`reply ${calls}`);
    });
  });
});
