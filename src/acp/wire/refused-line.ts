// Lines the agent answers itself instead of handing them to the SDK.
//
// A line over its limits, which it never parses, is answered on what the line's top level showed,
// as JSON-RPC says for a message it could not read: a request gets one error with its id, a line
// whose id cannot be told gets one with `id: null`, a notification gets none, and an answer to one
// of the agent's own requests is replaced by an error for that request, so that whatever waits for
// it is not left waiting.
//
// A request whose id is a number with a fraction is not an ACP request (ids are strings, integers
// or null), and echoing that id would not be an ACP answer: it gets -32600 with `id: null`.

import { type AnyResponse, type JsonRpcId, RequestError } from "@agentclientprotocol/sdk";

import { parseJson } from "../../store-core/parse-json.js";

import type { AcceptedLine, LineLimits, RefusedLine } from "./line-limits.js";

export interface RefusedLineOutcome {
  /** The error to write to the editor, if the line gets an answer. */
  answer?: AnyResponse | undefined;
  /** For a line that answered one of the agent's requests: the error that answers it instead. */
  replacement?: AnyResponse | undefined;
  /** What was refused and why, for the log. */
  description: string;
}

export function refusedLineOutcome(line: RefusedLine, limits: LineLimits): RefusedLineOutcome {
  const limit = line.reason === "too_long" ? `longer than ${limits.maxBytes} bytes` : `nested deeper than ${limits.maxDepth} levels`;
  const data = line.reason === "too_long" ? { maxBytes: limits.maxBytes } : { maxDepth: limits.maxDepth };
  const error = (id: JsonRpcId, what: string): AnyResponse => ({
    jsonrpc: "2.0",
    id,
    error: (line.shape === "malformed" ? RequestError.parseError(data, `${what} is ${limit}, and not JSON`) : RequestError.invalidRequest(data, `${what} is ${limit}`)).toErrorResponse(),
  });
  if (line.shape === "blank") {
    return { description: `A blank line ${limit} was ignored.` };
  }
  if (line.shape !== "object") {
    return { answer: error(null, "the line"), description: `A line ${limit} was refused.` };
  }
  const jsonrpc = scalar(line.members.get("jsonrpc"));
  const method = scalar(line.members.get("method"));
  const id = line.members.has("id") ? scalar(line.members.get("id")) : undefined;
  const validId = isId(id);
  if (jsonrpc === "2.0" && typeof method === "string") {
    if (!line.members.has("id")) {
      return { description: `The notification ${method} is ${limit}; it was ignored.` };
    }
    return { answer: error(validId ? id : null, "the request"), description: `The request ${method} (id ${JSON.stringify(validId ? id : null)}) is ${limit}; it was answered with an error.` };
  }
  if (!line.members.has("method") && (line.members.has("id") || line.members.has("result") || line.members.has("error"))) {
    if (validId && id !== null) {
      return { replacement: error(id, "the editor's answer"), description: `The editor's answer to request ${JSON.stringify(id)} is ${limit}; the request failed.` };
    }
    return { description: `An answer from the editor is ${limit}; it was ignored.` };
  }
  return { answer: error(null, "the message"), description: `A message ${limit} was refused.` };
}

/**
 * The answer to a line within the limits that is a request with an id ACP does not allow (a number
 * with a fraction), or undefined for every other line. Only such a line is parsed here.
 */
export function unusableIdAnswer(line: AcceptedLine): AnyResponse | undefined {
  const id = line.id === undefined ? undefined : scalar(line.id);
  if (typeof id !== "number" || Number.isInteger(id) || !Number.isFinite(id)) {
    return undefined;
  }
  // As the SDK reads it: decoded (which drops a byte order mark) and trimmed.
  const record = parseJson(new TextDecoder().decode(line.bytes).trim()) as Record<string, unknown> | null | undefined;
  if (typeof record !== "object" || record === null || Array.isArray(record) || record.jsonrpc !== "2.0" || typeof record.method !== "string" || record.id !== id) {
    return undefined;
  }
  return { jsonrpc: "2.0", id: null, error: RequestError.invalidRequest({ id }, "an id must be a string, an integer or null").toErrorResponse() };
}

/** The value of a member's raw JSON text, or undefined when it was not a short scalar. */
function scalar(raw: string | null | undefined): unknown {
  return raw === null || raw === undefined ? undefined : parseJson(raw);
}

/** An id ACP allows: a string, an integer or null. */
function isId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === "string" || Number.isInteger(value);
}
