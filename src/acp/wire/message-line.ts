// Turns a message the SDK hands the agent's output into one line of JSON, whatever it holds. The
// SDK echoes a message it cannot read into its error's `data`, so that is cut to a small size; a
// message that still cannot be written (a cycle, a BigInt, nesting too deep for JSON.stringify) is
// replaced by a small error or dropped, and said so, instead of throwing: a throw here would end the
// connection.

import { type AnyMessage, type JsonRpcId, RequestError } from "@agentclientprotocol/sdk";
import { errorMessage } from "../../errors/error-message.js";

/** The most characters of JSON an error's `data` keeps; more is replaced by a preview of it. */
export const MAX_ERROR_DATA_CHARS = 8 * 1024;
const PREVIEW_CHARS = 1024;
/** Deeper `data` is cut: nothing the agent means to send nests this deep. */
const MAX_DATA_DEPTH = 64;

export interface MessageLine {
  /** The line to write, with its newline; absent when the message was dropped. */
  line?: string | undefined;
  /** What was changed or dropped, for the log. */
  note?: { level: "debug" | "error"; message: string } | undefined;
  /** The id of the agent's own request that was dropped: it will never be answered. */
  unsent?: JsonRpcId | undefined;
}

export function messageLine(message: AnyMessage, maxDataChars = MAX_ERROR_DATA_CHARS): MessageLine {
  let outgoing: unknown = message;
  let note: MessageLine["note"];
  const error = "error" in message ? (message.error as { data?: unknown } | undefined) : undefined;
  if (error && typeof error === "object" && error.data !== undefined) {
    const data = boundedData(error.data, maxDataChars);
    if (data !== error.data) {
      outgoing = { ...message, error: { ...error, data } };
      note = { level: "debug", message: `An error's data was cut to a preview (more than ${maxDataChars} characters of JSON, or not JSON).` };
    }
  }
  let failure: string;
  try {
    const text = JSON.stringify(outgoing);
    if (typeof text === "string") {
      return note ? { line: `${text}\n`, note } : { line: `${text}\n` };
    }
    failure = "it is not a JSON value";
  } catch (error) {
    failure = errorMessage(error);
  }
  const id = "id" in message ? safeId(message.id) : undefined;
  if ("method" in message) {
    const what = id === undefined ? "notification" : "request";
    const dropped: MessageLine = { note: { level: "error", message: `The agent's ${what} ${String(message.method)} could not be written as JSON (${failure}); it was not sent.` } };
    if (id !== undefined) {
      dropped.unsent = id;
    }
    return dropped;
  }
  // An answer to the editor's request: the request still gets exactly one answer, an error.
  const answer = { jsonrpc: "2.0", id: id ?? null, error: RequestError.internalError(undefined, "the agent's answer could not be written as JSON").toErrorResponse() };
  return { line: `${JSON.stringify(answer)}\n`, note: { level: "error", message: `The agent's answer to request ${JSON.stringify(id ?? null)} could not be written as JSON (${failure}); an error was sent instead.` } };
}

/** `data` itself when its JSON fits in `maxChars`; otherwise a small description of it. */
export function boundedData(data: unknown, maxChars: number): unknown {
  const full = jsonPreview(data, maxChars);
  if (full.complete) {
    return data;
  }
  return { truncated: true, preview: full.failed ? full.failed : jsonPreview(data, PREVIEW_CHARS).text };
}

interface Preview {
  /** JSON text, cut off once it reaches the budget. */
  text: string;
  /** Whether `text` is the whole of the value's JSON. */
  complete: boolean;
  /** Why the value cannot be JSON at all (a cycle, a BigInt), if it cannot. */
  failed?: string | undefined;
}

/**
 * Writes a value as JSON as JSON.stringify would, stopping once the text reaches `budget`
 * characters or `MAX_DATA_DEPTH` levels: its cost is bounded by the budget, not by the value.
 */
export function jsonPreview(value: unknown, budget: number): Preview {
  const parts: string[] = [];
  let length = 0;
  let steps = 0;
  let complete = true;
  let failed: string | undefined;
  const ancestors = new Set<object>();
  const emit = (text: string): boolean => {
    if (length + text.length > budget) {
      parts.push(text.slice(0, budget - length));
      length = budget;
      complete = false;
      return false;
    }
    parts.push(text);
    length += text.length;
    return true;
  };
  // Returns false once writing must stop.
  const write = (item: unknown, key: string, depth: number): boolean => {
    steps += 1;
    if (steps > budget) {
      complete = false;
      return false;
    }
    let current = item;
    if (typeof current === "object" && current !== null && typeof (current as { toJSON?: unknown }).toJSON === "function") {
      try {
        current = (current as { toJSON(key: string): unknown }).toJSON(key);
      } catch (error) {
        failed = `toJSON failed: ${errorMessage(error)}`;
        return false;
      }
    }
    switch (typeof current) {
      case "string":
        // A string longer than the budget cannot fit: only as much of it as could is written.
        return emit(JSON.stringify(current.length > budget ? current.slice(0, budget) : current));
      case "number":
        return emit(Number.isFinite(current) ? String(current) : "null");
      case "boolean":
        return emit(String(current));
      case "bigint":
        failed = "a BigInt cannot be written as JSON";
        return false;
      case "undefined":
      case "function":
      case "symbol":
        return emit("null");
      default:
    }
    if (current === null) {
      return emit("null");
    }
    const object = current as object;
    if (ancestors.has(object)) {
      failed = "it refers to itself";
      return false;
    }
    if (depth >= MAX_DATA_DEPTH) {
      complete = false;
      emit("…");
      return false;
    }
    ancestors.add(object);
    let going: boolean;
    if (Array.isArray(object)) {
      going = emit("[");
      for (let index = 0; going && index < object.length; index += 1) {
        going = (index === 0 || emit(",")) && write(object[index], String(index), depth + 1);
      }
      going = going && emit("]");
    } else {
      going = emit("{");
      let first = true;
      const record = object as Record<string, unknown>;
      for (const name of Object.keys(record)) {
        if (!going) {
          break;
        }
        const member = record[name];
        if (member === undefined || typeof member === "function" || typeof member === "symbol") {
          continue;
        }
        going = (first || emit(",")) && emit(`${JSON.stringify(name)}:`) && write(member, name, depth + 1);
        first = false;
      }
      going = going && emit("}");
    }
    ancestors.delete(object);
    return going;
  };
  if (!write(value, "", 0)) {
    complete = false;
  }
  const preview: Preview = { text: parts.join(""), complete };
  if (failed !== undefined) {
    preview.failed = failed;
  }
  return preview;
}

function safeId(id: unknown): JsonRpcId {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}
