// The ACP schema the SDK ships (v1, stable), and what each message an agent writes must validate
// as: a request's params and a notification's params by method, a response's result by the method
// of the request it answers. Validated with ajv: the SDK's zod schemas are not exported, and they
// are lenient on purpose (a wrong optional field is dropped, not refused), so they cannot judge a line.

import { createRequire } from "node:module";

import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";

// Not `require`: a bundler would copy the 250 kB schema into the bundle instead of reading the SDK's.
const load = createRequire(import.meta.url);
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

/** The validator of the schema's `definition`, or of the whole schema (any ACP message) without one; compiled on first use. */
function validatorOf(definition: string | undefined): ValidateFunction {
  const key = definition ?? "";
  let validate = validators.get(key);
  if (!validate) {
    if (!ajv) {
      // Formats (uint16, uri …) are not checked, as the SDK's own schema tests do not check them.
      ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
      ajv.addSchema({ ...(load("@agentclientprotocol/sdk/schema/v1/schema.json") as object), $id: "acp" });
    }
    validate = ajv.compile(definition === undefined ? { $ref: "acp" } : { $ref: `acp#/$defs/${definition}` });
    validators.set(key, validate);
  }
  return validate;
}

/** The problems of `value` as `definition` in words, the most telling first; empty when it is valid. */
function problems(definition: string | undefined, value: unknown): string[] {
  const validate = validatorOf(definition);
  return validate(value) ? [] : telling(validate.errors ?? []);
}

/**
 * A few of ajv's errors, in words. A union that matched no branch reports every branch's errors;
 * the ones deepest in the value are the branch that got furthest (for a tagged update, the branch
 * its tag names), so those are kept and the union's own summary is dropped.
 */
function telling(errors: readonly ErrorObject[]): string[] {
  const specific = errors.filter((error) => error.keyword !== "anyOf" && error.keyword !== "oneOf");
  const pool = specific.length > 0 ? specific : errors;
  const depth = (error: ErrorObject) => error.instancePath.split("/").length;
  const deepest = Math.max(...pool.map(depth));
  const words = pool.filter((error) => depth(error) === deepest && !tagMismatch(error, pool)).map((error) => `${error.instancePath || "the message"} ${error.message ?? "is not valid"}`);
  return [...new Set(words.length > 0 ? words : pool.map((error) => `${error.instancePath || "the message"} ${error.message ?? "is not valid"}`))].slice(0, 3);
}

/** A branch of a tagged union whose tag did not match, when other errors say more. */
function tagMismatch(error: ErrorObject, all: readonly ErrorObject[]): boolean {
  return error.keyword === "const" && all.some((other) => other.keyword !== "const" && other.instancePath !== error.instancePath);
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
  const issues = problems(definition, value);
  return issues.length === 0 ? [] : [issues.join("; ")];
}

/** What is wrong with `value` as the schema's `definition` (such as `InitializeResponse`), as text; undefined when nothing is. */
export function definitionProblem(definition: string, value: unknown): string | undefined {
  const issues = problems(definition, value);
  return issues.length === 0 ? undefined : `${definition}: ${issues.join("; ")}`;
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
  const issues = problems(undefined, record);
  if (issues.length > 0) {
    return `not an ACP message: ${issues.join("; ")}`;
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
