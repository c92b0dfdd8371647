// Asking the person before a tool runs, over the SDK's own in-memory connection: the four options,
// what each answer means, and that anything but an explicit allow counts as no.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { sdkPairsClosedAfterEach } from "../../../test/support/sdk-pair.js";
import { type PermissionChoice, type PermissionOffer, requestPermission } from "./permissions.js";

const toolCall: acp.ToolCallUpdate = { toolCallId: "call_1", title: "write_file src/a.ts", kind: "edit", status: "pending", rawInput: { path: "src/a.ts" } };

const sdkPair = sdkPairsClosedAfterEach();

/** An editor that answers every permission request with `answer`, noting what it was asked. */
function editor(answer: (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>) {
  const asked: acp.RequestPermissionRequest[] = [];
  const cancelled: unknown[] = [];
  const pair = sdkPair((app) =>
    app.onRequest(acp.methods.client.session.requestPermission, async ({ params, signal }) => {
      asked.push(params);
      // The SDK aborts a handler's signal when the agent withdraws the request ($/cancel_request).
      signal.addEventListener("abort", () => cancelled.push(params.toolCall.toolCallId));
      return answer(params);
    }),
  );
  const ask = (signal = new AbortController().signal, offer: PermissionOffer = {}): Promise<PermissionChoice> =>
    requestPermission(pair.agent.client, "sess_1", toolCall, "write_file", signal, offer);
  return { asked, cancelled, ask };
}

const selected = (optionId: string): acp.RequestPermissionResponse => ({ outcome: { outcome: "selected", optionId } });

describe("requestPermission", () => {
  it("offers allow once, allow always, reject once and reject always for the tool call", async () => {
    const { asked, ask } = editor(() => selected("allow_once"));
    await ask();
    expect(asked).toEqual([
      {
        sessionId: "sess_1",
        toolCall,
        options: [
          { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
          { optionId: "allow_always", name: "Always allow write_file", kind: "allow_always" },
          { optionId: "reject_once", name: "Reject", kind: "reject_once" },
          { optionId: "reject_always", name: "Always reject write_file", kind: "reject_always" },
        ],
      },
    ]);
  });

  it("a rejection a client's policy gave (POLICY_META) says so, in the policy's words; an allow and a plain rejection do not", async () => {
    const byPolicy = editor(() => ({ ...selected("reject_once"), _meta: { "weftjs/policy": "weft chat --approve reads answered." } }));
    expect(await byPolicy.ask()).toEqual({ decision: "reject", always: false, policy: "weft chat --approve reads answered." });
    const allowed = editor(() => ({ ...selected("allow_once"), _meta: { "weftjs/policy": "weft chat --approve all answered." } }));
    expect(await allowed.ask()).toEqual({ decision: "allow", always: false });
    const blank = editor(() => ({ ...selected("reject_once"), _meta: { "weftjs/policy": 7 } }));
    expect(await blank.ask()).toEqual({ decision: "reject", always: false });
  });

  it("names the scope an always answer covers, and offers no always option for a call that can have none (an always answer to it is a plain rejection)", async () => {
    const scoped = editor(() => selected("allow_always"));
    expect(await scoped.ask(undefined, { always: "edits in `src/`" })).toEqual({ decision: "allow", always: true });
    expect(scoped.asked[0]?.options.map((option) => option.name)).toEqual(["Allow once", "Always allow edits in `src/`", "Reject", "Always reject edits in `src/`"]);
    const none = editor(() => selected("allow_always"));
    expect(await none.ask(undefined, { always: false })).toEqual({ decision: "reject", always: false });
    expect(none.asked[0]?.options.map((option) => option.kind)).toEqual(["allow_once", "reject_once"]);
    expect(await editor(() => selected("reject_always")).ask(undefined, { always: false })).toEqual({ decision: "reject", always: false });
  });

  it("reads each option as its choice, and an option it did not offer as a rejection", async () => {
    const choices: PermissionChoice[] = [];
    for (const optionId of ["allow_once", "allow_always", "reject_once", "reject_always", "maybe"]) {
      choices.push(await editor(() => selected(optionId)).ask());
    }
    expect(choices).toEqual([
      { decision: "allow", always: false },
      { decision: "allow", always: true },
      { decision: "reject", always: false },
      { decision: "reject", always: true },
      { decision: "reject", always: false },
    ]);
  });

  it("offers edit first right after allow once when asked to, and reads it only then", async () => {
    const offered = editor(() => selected("edit_first"));
    expect(await offered.ask(undefined, { editFirst: true })).toEqual({ decision: "edit" });
    expect(offered.asked[0]?.options.map((option) => [option.optionId, option.kind])).toEqual([
      ["allow_once", "allow_once"],
      ["edit_first", "allow_once"],
      ["allow_always", "allow_always"],
      ["reject_once", "reject_once"],
      ["reject_always", "reject_always"],
    ]);
    // Not offered: an editor that answers it anyway is refused.
    expect(await editor(() => selected("edit_first")).ask()).toEqual({ decision: "reject", always: false });
  });

  it("reads the editor's cancelled outcome as the turn cancelled", async () => {
    expect(await editor(() => ({ outcome: { outcome: "cancelled" } })).ask()).toEqual({ decision: "cancelled" });
  });

  it("reads the editor's answer that the request was cancelled (-32800) as the turn cancelled, not as a failure", async () => {
    const choice = await editor(() => {
      throw new acp.RequestError(-32800, "Request cancelled");
    }).ask();
    expect(choice).toEqual({ decision: "cancelled" });
  });

  it("reads a request the editor fails as failed, with its message", async () => {
    const choice = await editor(() => {
      throw acp.RequestError.internalError(undefined, "the dialog crashed");
    }).ask();
    expect(choice).toEqual({ decision: "failed", error: "Internal error: the dialog crashed" });
  });

  it("when the turn is cancelled, withdraws the request and resolves cancelled without waiting for the editor", async () => {
    const { asked, cancelled, ask } = editor(() => new Promise<acp.RequestPermissionResponse>(() => undefined));
    const turn = new AbortController();
    const choice = ask(turn.signal);
    await expect.poll(() => asked.length).toBe(1);
    turn.abort();
    expect(await choice).toEqual({ decision: "cancelled" });
    await expect.poll(() => cancelled).toEqual(["call_1"]);
  });
});
