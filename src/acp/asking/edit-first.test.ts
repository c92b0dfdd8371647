// "Edit first": which approvals can be edited in a form (a flat input schema, an object input),
// the form starts with the call's input, and the edited input keeps what the form did not show.

import { describe, expect, it } from "vitest";

import type { ToolApprovalRequest } from "../../agent/tool-approval.js";
import { editedInput, editFirstForm } from "./edit-first.js";

const request = (extra: Partial<ToolApprovalRequest> = {}): ToolApprovalRequest => ({
  kind: "tool-approval",
  toolCallId: "c1",
  toolName: "run_command",
  input: { command: "npm test", timeout_ms: 1000 },
  inputSchema: { type: "object", properties: { command: { type: "string", minLength: 1 }, timeout_ms: { type: "integer", exclusiveMinimum: 0 } }, required: ["command"] },
  ...extra,
});

describe("editFirstForm", () => {
  it("is the input schema as a form, filled in with the call's input", () => {
    expect(editFirstForm(request())).toEqual({
      type: "object",
      properties: { command: { type: "string", minLength: 1, default: "npm test" }, timeout_ms: { type: "integer", minimum: 1, default: 1000 } },
      required: ["command"],
    });
  });

  it("is nothing without a schema, for an input that is not an object, or a form with no fields", () => {
    expect(editFirstForm(request({ inputSchema: undefined }))).toBeUndefined();
    expect(editFirstForm(request({ input: "npm test" }))).toBeUndefined();
    expect(editFirstForm(request({ input: null }))).toBeUndefined();
    expect(editFirstForm(request({ input: {}, inputSchema: { type: "object", properties: {} } }))).toBeUndefined();
  });
});

describe("editedInput", () => {
  it("takes the form's fields as the person left them, and keeps what the form did not show", () => {
    const form = editFirstForm(request({ input: { command: "npm test", timeout_ms: 1000, note: "kept" } }));
    expect(form).toBeDefined();
    // The person changed the command and cleared the timeout.
    expect(editedInput({ command: "npm test", timeout_ms: 1000, note: "kept" }, form ?? {}, { command: "npm run lint" })).toEqual({ note: "kept", command: "npm run lint" });
  });
});
