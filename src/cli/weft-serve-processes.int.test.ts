// Two `weft serve` processes on one store: a load on the process that already has the session open
// (in another of its connections) shows the turns the other process ran, and carries on a turn
// that was cut there when it was killed.

import { once } from "node:events";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";

import { cleanUpStores, storesUnderTest } from "../../test/support/servers.js";
import { type Cleanups, connectRemote, type RemoteClient, startWeftServe } from "../../test/support/weft-serve.js";
import { type ChatRequest, FakeModelServer } from "../testing/fake-model-server.js";

const home = realpathSync(mkdtempSync(join(tmpdir(), "weft-serve-processes-")));
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

/** The last user text a chat request carries. */
function lastUserText(request: ChatRequest): string {
  const last = [...request.messages].reverse().find((message) => message.role === "user");
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
}

/** The texts of the prompts a client was shown in a session, in order. */
function promptsShown(client: RemoteClient, sessionId: string): string[] {
  return client.updates.flatMap(({ sessionId: id, update }) => (id === sessionId && update.sessionUpdate === "user_message_chunk" && update.content.type === "text" ? [update.content.text] : []));
}

describe.each(storesUnderTest(() => home))("two weft serve processes on $name", ({ skip, spec }) => {
  it.skipIf(skip)("a load where the session is already open shows the other process's turns, and carries on a turn cut there", async () => {
    const sessions = spec();
    cleanups.push(() => cleanUpStores([sessions]));
    let cut = false;
    const model = await FakeModelServer.start((request) => {
      if (!request.tools?.length) {
        return { text: "A title" };
      }
      const said = lastUserText(request);
      if (said === "three" && !cut) {
        // Streams until the process running it is killed.
        return { text: ["partly ", "said ", "and ", "then "], beforeChunk: (index) => (index === 3 ? new Promise<void>(() => undefined) : undefined) };
      }
      return { text: `reply to ${said}` };
    });
    cleanups.push(() => model.close());
    const env = { WEFT_TOKENS: "t-ann:ann", WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_SESSIONS: sessions };
    const [one, two] = await Promise.all([startWeftServe({ home, args: ["--root", home], env, cleanups }), startWeftServe({ home, args: ["--root", home], env, cleanups })]);

    // The session is made on the first process, and stays open there in this connection.
    const keeper = await connectRemote(one.url, "http", "t-ann", cleanups);
    const { sessionId } = await keeper.agent.request(acp.methods.agent.session.new, { cwd: home, mcpServers: [] });
    await keeper.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "one" }] });

    // A turn on the second process.
    const elsewhere = await connectRemote(two.url, "http", "t-ann", cleanups);
    await elsewhere.agent.request(acp.methods.agent.session.load, { sessionId, cwd: home, mcpServers: [] });
    await elsewhere.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "two" }] });

    // Loaded on the first process again, in a new connection: the second turn is there.
    const again = await connectRemote(one.url, "http", "t-ann", cleanups);
    await again.agent.request(acp.methods.agent.session.load, { sessionId, cwd: home, mcpServers: [] });
    await expect.poll(() => promptsShown(again, sessionId)).toEqual(["one", "two"]);
    await expect.poll(() => again.text(sessionId)).toBe("reply to onereply to two");

    // A turn on the second process, which is killed while the reply streams.
    void elsewhere.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "three" }] }).catch(() => undefined);
    await expect.poll(() => elsewhere.text(sessionId)).toContain("partly");
    cut = true;
    const gone = once(two.child, "exit");
    two.child.kill("SIGKILL");
    await gone;

    // A load on the first process carries that turn on, and answers when it has ended.
    const carried = await connectRemote(one.url, "http", "t-ann", cleanups);
    await carried.agent.request(acp.methods.agent.session.load, { sessionId, cwd: home, mcpServers: [] });
    await expect.poll(() => carried.text(sessionId)).toContain("reply to three");
    expect(promptsShown(carried, sessionId)).toEqual(["one", "two", "three"]);
    // And the connection that had it open all along goes on from there.
    const next = await keeper.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "four" }] });
    expect(next.stopReason).toBe("end_turn");
    await expect.poll(() => keeper.text(sessionId)).toContain("reply to four");
    const sent = model.requests.filter((request) => request.tools?.length).map(lastUserText);
    // The model saw "three" twice (cut, then carried on) and each other prompt once.
    expect(sent).toEqual(["one", "two", "three", "three", "four"]);
  });
});
