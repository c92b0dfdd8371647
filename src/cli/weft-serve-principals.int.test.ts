// `weft serve` between principals: Bob, with a valid token of his own and Ann's connection id
// (which her server's answers carry), can do nothing with Ann's connection, over any transport
// she opened it with and any he tries it with: no prompt runs, no pending permission is answered,
// no stream is read, the connection is not ended.

import { existsSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";

import { http2Fetch } from "../../test/support/http2-fetch.js";
import { type Cleanups, connectRemote, type RemoteTransport, startWeftServe } from "../../test/support/weft-serve.js";
import { FakeModelServer } from "../testing/fake-model-server.js";

const home = realpathSync(mkdtempSync(join(tmpdir(), "weft-serve-principals-")));
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

/** A request Bob sends by hand, over HTTP/1.1 or h2c. */
type Send = (init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Response>;

function sender(url: string, over: "http" | "h2c"): Send {
  if (over === "http") {
    return (init) => fetch(url, init);
  }
  const h2 = http2Fetch();
  cleanups.push(() => h2.close());
  return (init) => h2.fetch(url, init);
}

describe.each<RemoteTransport>(["ws", "http", "h2c"])("Ann's connection over %s", (transport) => {
  it.each<"http" | "h2c">(["http", "h2c"])("is unknown to Bob over %s: his prompt, permission answers, stream and delete are all 404, and nothing happens", async (over) => {
    const target = join(home, `${transport}-${over}.txt`);
    let calls = 0;
    const model = await FakeModelServer.start(() => {
      calls++;
      return calls === 1 ? { toolCalls: [{ id: "call_1", name: "write_file", arguments: { path: target, content: "Bob was here\n" } }] } : { text: `reply ${calls}` };
    });
    cleanups.push(() => model.close());
    const served = await startWeftServe({
      home,
      args: ["--root", home],
      cleanups,
      env: { WEFT_TOKENS: "t-ann:ann,t-bob:bob", WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_SESSIONS: "memory" },
    });
    let answer!: (response: acp.RequestPermissionResponse) => void;
    const answered = new Promise<acp.RequestPermissionResponse>((resolve) => (answer = resolve));
    const ann = await connectRemote(served.url, transport, "t-ann", cleanups, { permission: () => answered });
    const { sessionId } = await ann.agent.request(acp.methods.agent.session.new, { cwd: home, mcpServers: [] });
    const turn = ann.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "write it" }] });
    await expect.poll(() => ann.permissions.length).toBe(1);

    const send = sender(served.url, over);
    const connectionId = ann.connectionId();
    const asBob = { authorization: "Bearer t-bob", "acp-connection-id": connectionId };
    const json = { ...asBob, "content-type": "application/json", accept: "application/json, text/event-stream" };
    const statuses: Record<string, number> = {};
    const prompt = { jsonrpc: "2.0", id: 99, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "as Bob" }] } };
    statuses.prompt = (await send({ method: "POST", headers: { ...json, "acp-session-id": sessionId }, body: JSON.stringify(prompt) })).status;
    // The agent's requests are numbered from 0; Bob tries each id it could have given the permission request.
    for (let id = 0; id < 8; id++) {
      const response = { jsonrpc: "2.0", id, result: { outcome: { outcome: "selected", optionId: "allow_once" } } };
      statuses[`response ${id}`] = (await send({ method: "POST", headers: { ...json, "acp-session-id": sessionId }, body: JSON.stringify(response) })).status;
    }
    statuses.stream = (await send({ method: "GET", headers: { ...asBob, accept: "text/event-stream" } })).status;
    statuses["session stream"] = (await send({ method: "GET", headers: { ...asBob, accept: "text/event-stream", "acp-session-id": sessionId } })).status;
    statuses.delete = (await send({ method: "DELETE", headers: asBob })).status;
    expect(statuses).toEqual(Object.fromEntries(Object.keys(statuses).map((key) => [key, 404])));

    // Nothing of it reached Ann's session: the write still waits for her, the model was not asked
    // again, and her connection works.
    expect(existsSync(target)).toBe(false);
    expect(calls).toBe(1);
    answer({ outcome: { outcome: "selected", optionId: "reject_once" } });
    expect((await turn).stopReason).toBe("end_turn");
    expect(existsSync(target)).toBe(false);
    expect(ann.permissions).toHaveLength(1);
    const next = await ann.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "still there?" }] });
    expect(next.stopReason).toBe("end_turn");
    expect(ann.text(sessionId)).toContain(`reply ${calls}`);
    expect(ann.updates.some(({ update }) => update.sessionUpdate === "user_message_chunk" && update.content.type === "text" && update.content.text === "as Bob")).toBe(false);
  });
});

describe("a WebSocket connection", () => {
  it("takes no HTTP request at all, even from its own principal", async () => {
    const model = await FakeModelServer.start(() => ({ text: "hi" }));
    cleanups.push(() => model.close());
    const served = await startWeftServe({ home, args: ["--root", home], cleanups, env: { WEFT_TOKENS: "t-ann:ann", WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_SESSIONS: "memory" } });
    const ann = await connectRemote(served.url, "ws", "t-ann", cleanups);
    const headers = { authorization: "Bearer t-ann", "acp-connection-id": ann.connectionId(), "content-type": "application/json" };
    const list = await fetch(served.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "session/list", params: {} }) });
    expect(list.status).toBe(404);
    expect((await fetch(served.url, { method: "DELETE", headers })).status).toBe(404);
    // The socket is still hers and still works.
    expect((await ann.agent.request(acp.methods.agent.session.list, {})).sessions).toEqual([]);
  });
});
