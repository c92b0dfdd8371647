// Asking for a form over the SDK's own in-memory connection: the request's scope and schema, what
// each answer means, content that does not fit, a failed request, and a withdrawn one.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { sdkPairsClosedAfterEach } from "../../../test/support/sdk-pair.js";
import { type FormOutcome, type FormRequest, requestForm } from "./elicitation.js";

const schema: acp.ElicitationSchema = { type: "object", properties: { colour: { type: "string", enum: ["red", "blue"] } }, required: ["colour"] };

const sdkPair = sdkPairsClosedAfterEach();

/** An editor that answers every form with `answer`, noting what it was asked and what was withdrawn. */
function editor(answer: (request: acp.CreateElicitationRequest) => acp.CreateElicitationResponse | Promise<acp.CreateElicitationResponse>) {
  const asked: acp.CreateElicitationRequest[] = [];
  const withdrawn: string[] = [];
  const pair = sdkPair((app) =>
    app.onRequest(acp.methods.client.elicitation.create, async ({ params, signal }) => {
      asked.push(params);
      signal.addEventListener("abort", () => withdrawn.push(params.message));
      return answer(params);
    }),
  );
  const ask = (form: Partial<FormRequest> = {}, signal = new AbortController().signal): Promise<FormOutcome> =>
    requestForm(pair.agent.client, "sess_1", { message: "Which colour?", schema, ...form }, signal);
  return { asked, withdrawn, ask };
}

describe("requestForm", () => {
  it("asks in form mode for the session, and for the tool call when one asks", async () => {
    const { asked, ask } = editor(() => ({ action: "accept", content: { colour: "red" } }));
    await ask();
    await ask({ toolCallId: "call_1" });
    expect(asked).toEqual([
      { sessionId: "sess_1", mode: "form", message: "Which colour?", requestedSchema: schema },
      { sessionId: "sess_1", toolCallId: "call_1", mode: "form", message: "Which colour?", requestedSchema: schema },
    ]);
  });

  it("reads accept with its content, decline and cancel", async () => {
    expect(await editor(() => ({ action: "accept", content: { colour: "blue", other: "dropped" } })).ask()).toEqual({ action: "accept", content: { colour: "blue" } });
    expect(await editor(() => ({ action: "decline" })).ask()).toEqual({ action: "decline" });
    expect(await editor(() => ({ action: "cancel" })).ask()).toEqual({ action: "cancel" });
  });

  it("reads an answer that does not fit the form, or an action it does not know, as failed", async () => {
    expect(await editor(() => ({ action: "accept", content: { colour: "green" } })).ask()).toEqual({
      action: "failed",
      error: "The form's answer does not fit it: field colour is not one of its choices.",
    });
    expect(await editor(() => ({ action: "accept" })).ask()).toEqual({ action: "failed", error: "The form's answer does not fit it: required field colour is missing." });
    expect(await editor(() => ({ action: "_later" })).ask()).toEqual({ action: "failed", error: 'The editor answered the form with an unknown action, "_later".' });
  });

  it("reads a request the editor fails as failed, with its message", async () => {
    const outcome = await editor(() => {
      throw acp.RequestError.invalidParams(undefined, "no forms here");
    }).ask();
    expect(outcome).toMatchObject({ action: "failed", error: expect.stringContaining("no forms here") });
  });

  it("when the turn is cancelled, withdraws the request and resolves withdrawn without waiting for the editor", async () => {
    const { asked, withdrawn, ask } = editor(() => new Promise<acp.CreateElicitationResponse>(() => undefined));
    const turn = new AbortController();
    const outcome = ask({}, turn.signal);
    await expect.poll(() => asked.length).toBe(1);
    turn.abort();
    expect(await outcome).toEqual({ action: "withdrawn" });
    await expect.poll(() => withdrawn).toEqual(["Which colour?"]);
  });
});
