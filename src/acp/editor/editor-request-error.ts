// An editor's answer to one of the agent's requests (fs/*, terminal/*) that was a JSON-RPC error,
// kept with the editor's own words: its message and the details in its `data`, so a tool's error
// says why the editor refused ("Permission denied …") rather than only "Internal error".

import { RequestError } from "@agentclientprotocol/sdk";

import { WeftError } from "../../errors/weft-error.js";

/** The most characters of the editor's message, and of its details, kept. */
const MESSAGE_CHARS = 500;
const DETAILS_CHARS = 1_000;

export class EditorRequestError extends WeftError {
  static override readonly errorName = "EditorRequestError";

  constructor(
    /** The request the editor refused, such as `fs/read_text_file`. */
    readonly method: string,
    /** The JSON-RPC error code the editor answered with. */
    readonly wireCode: number,
    /** The editor's message, bounded. */
    readonly wireMessage: string,
    /** `data.details` when the editor sent it, else its `data` as short JSON; bounded. */
    readonly details: string | undefined,
    options?: { cause?: unknown },
  ) {
    super("editor_error", `The editor refused ${method}: ${wireMessage}${details === undefined || wireMessage.includes(details) ? "" : ` (${details})`}`, options);
  }

  /** The error for a failed request: a JSON-RPC error becomes an EditorRequestError, anything else is kept. */
  static from(method: string, error: unknown): unknown {
    if (!(error instanceof RequestError)) {
      return error;
    }
    return new EditorRequestError(method, error.code, cut(error.message, MESSAGE_CHARS), detailsOf(error.data), { cause: error });
  }
}

function detailsOf(data: unknown): string | undefined {
  if (data === undefined || data === null) {
    return undefined;
  }
  if (typeof data === "string") {
    return cut(data, DETAILS_CHARS);
  }
  const details = (data as { details?: unknown }).details;
  if (typeof details === "string") {
    return cut(details, DETAILS_CHARS);
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch {
    json = undefined;
  }
  return json === undefined || json === "{}" ? undefined : cut(json, DETAILS_CHARS);
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
