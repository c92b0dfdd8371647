// The title side call against the fake model server: what it sends, how a reply becomes a title,
// and that a call that never answers gives up (title() throws, so the prompt's words stay).

import { afterEach, describe, expect, it } from "vitest";

import { resolveModel } from "../models/resolve-model.js";
import { FakeModelServer } from "../testing/fake-model-server.js";
import type { FakeReply } from "../testing/fake-reply.js";
import { modelSessionTitle } from "./session-title-model.js";

let server: FakeModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function title(reply: FakeReply, timeoutMs?: number) {
  server = await FakeModelServer.start([], { sideCalls: [reply] });
  const model = await resolveModel("openai-compatible:fake-model", { baseURL: server.url });
  const make = modelSessionTitle({ model: () => model, timeoutMs });
  return make({ prompt: "users cannot sign in", session: { id: "s", cwd: "/tmp", mcpServers: [] }, config: {}, signal: new AbortController().signal });
}

describe("the title side call", () => {
  it("makes the first line of the reply a title, without quotes, a heading mark or a full stop", async () => {
    expect(await title({ text: '## "Fix sign-in."\nThis session is about…' })).toBe("Fix sign-in");
    expect(server?.requests).toEqual([]);
    expect(server?.sideRequests[0]?.stream).not.toBe(true);
  });

  it("gives no title for an empty reply", async () => {
    expect(await title({ text: "  \n" })).toBeUndefined();
  });

  it("gives up on a model that never answers", async () => {
    await expect(title({ neverAnswer: true }, 200)).rejects.toThrow();
  });
});
