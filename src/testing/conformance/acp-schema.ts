// The ACP schema the SDK ships (v1, stable), and what each message an agent writes must validate
// as: a request's params and a notification's params by method, a response's result by the method
// of the request it answers.

import { createRequire } from "node:module";

import { issuesText, JsonSchema } from "./json-schema.js";

// Not `require`: a bundler would copy the 250 kB schema into the bundle instead of reading the SDK's.
const load = createRequire(import.meta.url);
let schema: JsonSchema | undefined;

/** The SDK's schema, read on first use. */
function acpSchema(): JsonSchema {
  schema ??= new JsonSchema(load("@agentclientprotocol/sdk/schema/v1/schema.json") as { $defs: Record<string, unknown> });
  return schema;
}

/** The definition a request's params validate as, by the method of an agent's request to its client. */
export const REQUEST_PARAMS: Readonly<Record<string, string>> = {
  "session/request_permission": "RequestPermissionRequest",
  "fs/read_text_file": "ReadTextFileRequest",
  "fs/write_text_file": "WriteTextFileRequest",
  "terminal/create": "CreateTerminalRequest",
  "terminal/output": "TerminalOutputRequest",
  "terminal/release": "ReleaseTerminalRequest",
  "terminal/wait_for_exit": "WaitForTerminalExitRequest",
  "terminal/kill": "KillTerminalRequest",
  "elicitation/create": "CreateElicitationRequest",
};
/** The definition a notification's params validate as, by the method of an agent's notification. */
export const NOTIFICATION_PARAMS: Readonly<Record<string, string>> = {
  "session/update": "SessionNotification",
  "elicitation/complete": "CompleteElicitationNotification",
  "$/cancel_request": "CancelRequestNotification",
};
/** The definition an answer's result validates as, by the method of the client's request it answers. */
export const RESPONSE_RESULTS: Readonly<Record<string, string>> = {
  initialize: "InitializeResponse",
  authenticate: "AuthenticateResponse",
  logout: "LogoutResponse",
  "session/new": "NewSessionResponse",
  "session/load": "LoadSessionResponse",
  "session/list": "ListSessionsResponse",
  "session/delete": "DeleteSessionResponse",
  "session/resume": "ResumeSessionResponse",
  "session/close": "CloseSessionResponse",
  "session/prompt": "PromptResponse",
  "session/set_config_option": "SetSessionConfigOptionResponse",
  "session/set_mode": "SetSessionModeResponse",
};

/** What is wrong with `value` as the schema's `definition` (or as any ACP message, without one), one text each; empty when nothing is. */
export function schemaIssues(definition: string | undefined, value: unknown): string[] {
  const issues = acpSchema().problems(value, definition);
  return issues.length === 0 ? [] : [issuesText(issues)];
}

/** What is wrong with `value` as the schema's `definition` (such as `InitializeResponse`), as text; undefined when nothing is. */
export function definitionProblem(definition: string, value: unknown): string | undefined {
  const issues = acpSchema().problems(value, definition);
  return issues.length === 0 ? undefined : `${definition}: ${issuesText(issues)}`;
}

/**
 * What is wrong with one line the agent wrote, as text; undefined when it is a valid ACP message.
 * `answered` gives the method of the client's request with an id, for a response.
 */
export function agentLineProblem(line: string, answered: (id: unknown) => string | undefined): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return "not JSON (stdout must carry only ACP messages; logs go to stderr)";
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return "not a JSON-RPC message object";
  }
  const record = message as Record<string, unknown>;
  if (record.jsonrpc !== "2.0") {
    return 'missing "jsonrpc": "2.0"';
  }
  const issues = acpSchema().problems(record);
  if (issues.length > 0) {
    return `not an ACP message: ${issuesText(issues)}`;
  }
  if (typeof record.method === "string") {
    const definition = "id" in record ? REQUEST_PARAMS[record.method] : NOTIFICATION_PARAMS[record.method];
    if (definition === undefined) {
      return record.method.startsWith("_") ? undefined : `the agent sent unknown method ${record.method}`;
    }
    return definitionProblem(definition, record.params);
  }
  if ("error" in record) {
    return definitionProblem("Error", record.error);
  }
  const method = answered(record.id);
  const definition = method === undefined ? undefined : RESPONSE_RESULTS[method];
  return definition === undefined ? undefined : definitionProblem(definition, record.result);
}
