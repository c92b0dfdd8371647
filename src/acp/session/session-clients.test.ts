// The connections a session is open in: updates reach all of them, a request goes to the newest
// and is asked again when it goes away or another joins first, and a joiner mid-turn can be given
// the turn so far.

import type * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { type ConnectionLink, SessionClients } from "./session-clients.js";

interface Asked {
  method: string;
  answer(value: unknown): void;
  signal: AbortSignal | undefined;
}

/** A connection whose editor records what it is sent and answers requests when told to. */
function editor(): { link: ConnectionLink; notified: unknown[]; asked: Asked[]; end(): void } {
  const ending = new AbortController();
  const notified: unknown[] = [];
  const asked: Asked[] = [];
  const client = {
    notify: (_method: string, params: unknown) => {
      notified.push(params);
      return Promise.resolve();
    },
    request: (method: string, _params: unknown, options?: acp.SendRequestOptions) =>
      new Promise((resolve, reject) => {
        const signal = options?.cancellationSignal;
        asked.push({ method, answer: resolve, signal });
        signal?.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
        ending.signal.addEventListener("abort", () => reject(new Error("ACP connection closed")), { once: true });
      }),
  } as unknown as acp.AgentContext;
  return {
    link: { client, capabilities: () => ({ terminal: true }), booleanOptions: () => true, signal: ending.signal },
    notified,
    asked,
    end: () => ending.abort(),
  };
}

const update = (text: string): acp.SessionUpdate => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });

describe("SessionClients", () => {
  it("sends updates to every connection, and keeps a turn's updates for one that joins", async () => {
    const clients = new SessionClients("s1", true);
    const [one, two] = [editor(), editor()];
    clients.attach(one.link);
    clients.beginTurn([{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" } }], (link) => link === one.link);
    await clients.notify("session/update", { sessionId: "s1", update: update("a") });
    clients.attach(two.link);
    await clients.notify("session/update", { sessionId: "s1", update: update("b") });
    expect(one.notified).toEqual([
      { sessionId: "s1", update: update("a") },
      { sessionId: "s1", update: update("b") },
    ]);
    expect(two.notified).toEqual([{ sessionId: "s1", update: update("b") }]);
    expect(clients.turnSoFar()).toEqual([{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" } }, update("a"), update("b")]);
    clients.endTurn();
    expect(clients.turnSoFar()).toBeUndefined();
  });

  it("asks the newest connection, and asks again the one that joins before it answers", async () => {
    const clients = new SessionClients("s1", true);
    const [one, two] = [editor(), editor()];
    clients.attach(one.link);
    const answer = clients.request("session/request_permission", {});
    await Promise.resolve();
    expect(one.asked).toHaveLength(1);
    clients.attach(two.link);
    await expect.poll(() => two.asked.length).toBe(1);
    expect(one.asked[0]?.signal?.aborted).toBe(true);
    two.asked[0]?.answer({ outcome: "yes" });
    expect(await answer).toEqual({ outcome: "yes" });
  });

  it("served remotely, waits for a connection when the one asked goes away, and asks it", async () => {
    const clients = new SessionClients("s1", true);
    const one = editor();
    clients.attach(one.link);
    const answer = clients.request("session/request_permission", {});
    await Promise.resolve();
    one.end();
    clients.detach(one.link);
    const two = editor();
    clients.attach(two.link);
    await expect.poll(() => two.asked.length).toBe(1);
    two.asked[0]?.answer("later");
    expect(await answer).toBe("later");
    expect(clients.capabilities()).toEqual({ terminal: true });
  });

  it("over stdio, fails a request whose connection went away, and one made with none", async () => {
    const clients = new SessionClients("s1", false);
    const one = editor();
    clients.attach(one.link);
    const answer = clients.request("session/request_permission", {});
    await Promise.resolve();
    one.end();
    await expect(answer).rejects.toThrow("closed");
    await expect(clients.request("fs/read_text_file", {})).rejects.toThrow("closed before it answered");
    // No connection can join over stdio, so a turn's updates are not kept.
    clients.beginTurn([update("prompt")], () => true);
    await clients.notify("session/update", { sessionId: "s1", update: update("a") });
    expect(clients.turnSoFar()).toBeUndefined();
  });

  it("stops asking when the person cancels, wherever it waits", async () => {
    const clients = new SessionClients("s1", true);
    const cancel = new AbortController();
    const waiting = clients.request("session/request_permission", {}, { cancellationSignal: cancel.signal });
    cancel.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    expect(clients.size).toBe(0);
  });
});
