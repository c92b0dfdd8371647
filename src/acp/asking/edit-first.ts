// "Edit first": a permission option that lets the person change a tool call's input before it
// runs. The form is the tool's input schema, filled in with the call's input; it is offered only
// when the editor shows forms and that schema is a flat object of plain fields with no secret in it
// (form-schema.ts). The tool then runs with the edited input, and the model is told so with the
// call's result (see ToolResultPart.editedInput).

import type { ElicitationSchema } from "@agentclientprotocol/sdk";

import type { ToolApprovalRequest } from "../../agent/tool-approval.js";
import type { JsonObject } from "../../types/json.js";
import { formSchema } from "./form-schema.js";

/** The form to edit an approval's input in, or undefined when it cannot be edited in one. */
export function editFirstForm(request: ToolApprovalRequest): ElicitationSchema | undefined {
  const input = request.input;
  if (!request.inputSchema || input === null || typeof input !== "object" || Array.isArray(input)) {
    return undefined;
  }
  const result = formSchema(request.inputSchema, input);
  return "form" in result && Object.keys(result.form.properties ?? {}).length > 0 ? result.form : undefined;
}

/**
 * The input the call runs with: the form's fields as the person left them (a field they cleared is
 * left out), and anything else the call's input had that the form did not show.
 */
export function editedInput(input: JsonObject, form: ElicitationSchema, content: JsonObject): JsonObject {
  const fields = new Set(Object.keys(form.properties ?? {}));
  const kept = Object.fromEntries(Object.entries(input).filter(([name]) => !fields.has(name)));
  return { ...kept, ...content };
}
