// `weft serve` killed (SIGKILL) in a session's first turn, at several points of it, then started
// again on the same store: `session/load` answers, shows the prompt, and carries the cut turn on
// to its end, as `weft acp` does over stdio.

import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";

import { cleanUpStores, storesUnderTest } from "../../test/support/servers.js";
import { type Cleanups, connectRemote, startWeftServe } from "../../test/support/weft-serve.js";
import { type ChatRequest, FakeModelServer } from "../testing/fake-model-server.js";

const home = realpathSync(mkdtempSync(join(tmpdir(), "weft-serve-restart-")));
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

/** Where in the first turn the process is killed. */
type KillPoint = "before the model answers" | "while the reply streams" | "while a permission is asked";

const KILL_POINTS: KillPoint[] = ["before the model answers", "while the reply streams", "while a permission is asked"];

/** The last user text a chat request carries. */
function lastUserText(request: ChatRequest): string {
  const last = [...request.messages].reverse().find((message) => message.role === "user");
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
}

describe.each(storesUnderTest(() => home))("weft serve killed in a session's first turn, on $name", ({ skip, spec }) => {
  it.skipIf(skip).each(KILL_POINTS)("is loaded again after a kill %s, and the turn is carried on", async (point) => {
    const sessions = spec();
    cleanups.push(() => cleanUpStores([sessions]));
    const target = join(home, `${point.replaceAll(" ", "-")}-${Math.random().toString(36).slice(2)}.txt`);
    let killed = false;
    let hold: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => (hold = resolve));
    const model = await FakeModelServer.start((request) => {
      if (!request.tools?.length) {
        return { text: "A title" };
      }
      const toolDone = request.messages.some((message) => message.role === "tool");
      if (!killed) {
        // The first process: held at the chosen point until it is killed.
        if (point === "before the model answers") {
          hold?.();
          return { neverAnswer: true };
        }
        if (point === "while the reply streams") {
          return { text: ["first ", "words ", "then ", "more"], beforeChunk: (index) => (index === 2 ? (hold?.(), new Promise<void>(() => undefined)) : undefined) };
        }
        if (!toolDone) {
          return { toolCalls: [{ id: "call_1", name: "write_file", arguments: { path: target, content: "kept\n" } }] };
        }
      }
      if (point === "while a permission is asked" && !toolDone) {
        return { toolCalls: [{ id: "call_1", name: "write_file", arguments: { path: target, content: "kept\n" } }] };
      }
      return { text: `carried on after "${lastUserText(request)}"` };
    });
    cleanups.push(() => model.close());
    const env = { WEFT_TOKENS: "t-ann:ann", WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_SESSIONS: sessions };

    const first = await startWeftServe({ home, args: ["--root", home], env, cleanups });
    const ann = await connectRemote(first.url, "http", "t-ann", cleanups, {
      permission: () => {
        hold?.();
        return new Promise(() => undefined);
      },
    });
    const { sessionId } = await ann.agent.request(acp.methods.agent.session.new, { cwd: home, mcpServers: [] });
    void ann.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "the first prompt" }] }).catch(() => undefined);
    await reached;
    killed = true;
    const gone = once(first.child, "exit");
    first.child.kill("SIGKILL");
    await gone;
    await ann.close();

    const second = await startWeftServe({ home, args: ["--root", home], env, cleanups });
    const again = await connectRemote(second.url, "http", "t-ann", cleanups);
    const loaded = await again.agent.request(acp.methods.agent.session.load, { sessionId, cwd: home, mcpServers: [] });
    expect(loaded).toBeDefined();
    await expect.poll(() => again.text(sessionId)).toContain('carried on after "the first prompt"');
    const prompts = again.updates.filter(({ update }) => update.sessionUpdate === "user_message_chunk");
    expect(prompts).toHaveLength(1);
    if (point === "while a permission is asked") {
      // The question is asked again in the new process, and answered "allow once" this time.
      expect(again.permissions).toHaveLength(1);
      expect(existsSync(target) && readFileSync(target, "utf8")).toBe("kept\n");
    }
    const next = await again.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "and then" }] });
    expect(next.stopReason).toBe("end_turn");
    await expect.poll(() => again.text(sessionId)).toContain('carried on after "and then"');
  });
});
