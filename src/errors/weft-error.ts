// The base of weft's local errors: ones that never cross the wire as they are. Each has a code from
// WeftErrorCode and structured fields; a protocol server maps them to wire errors itself (for ACP,
// toRequestError() in src/acp/server/wire-errors.ts).
//
// Every class is recognisable across copies of the package (a bundled command and the library, two
// versions in one install), where `instanceof` fails: each error carries a marker per class it is
// of, a `Symbol.for` key that every copy shares, and `static isInstance` looks for its class's.
// A subclass only names itself (`errorName`) and words its message; the base does the rest.

/** Every code a weft error carries, grouped by the layer that raises it. */
export type WeftErrorCode =
  // Graphs and their runs.
  | "graph_definition"
  | "thread_busy"
  | "unknown_interrupt"
  | "invalid_answer"
  | "node_failed"
  | "lease_lost"
  | "nothing_to_continue"
  | "unknown_node"
  | "unknown_channel"
  | "run_failed"
  // Agents and models.
  | "invalid_option"
  | "invalid_model"
  | "model_call_failed"
  | "model_list_failed"
  | "model_key_unreadable"
  | "invalid_api_key"
  | "context_overflow"
  // Stores, and packages that are optional.
  | "invalid_namespace"
  | "store_unavailable"
  | "store_busy"
  | "sqlite_unavailable"
  | "missing_package"
  // The ACP connection and its sessions.
  | "input_failed"
  | "output_failed"
  | "connection_failed"
  | "session_not_found"
  | "session_busy"
  | "session_conflict"
  | "turn_failed"
  | "turn_in_progress"
  | "prompt_too_large"
  | "invalid_cwd"
  | "invalid_directory"
  | "directory_not_allowed"
  | "invalid_cursor"
  | "invalid_config_value"
  | "command_failed"
  | "secret_in_form"
  | "corrupt_ledger"
  // Serving ACP over HTTP: who is calling.
  | "unauthenticated"
  | "forbidden"
  | "invalid_tokens"
  // The editor's files, terminals and paths.
  | "editor_error"
  | "no_session"
  | "not_attached"
  | "path_outside"
  | "path_loop"
  | "path_changed"
  | "not_a_file";

const marker = Symbol.for("weft.error");

/** The marker of the errors of the class named `errorName`. */
function markerOf(errorName: string): symbol {
  return Symbol.for(`weft.error.${errorName}`);
}

export interface WeftErrorOptions {
  cause?: unknown;
}

/** A weft error, recognisable across copies of the package by `WeftError.isInstance`. */
export class WeftError extends Error {
  /**
   * The `name` of this class's errors, and the key of their marker. Each subclass sets its own as a
   * string: a class's own name does not survive the bundled command's minifying.
   */
  static readonly errorName: string = "WeftError";

  readonly [marker] = true;

  constructor(
    /** A stable, machine-readable reason, such as `thread_busy`. */
    readonly code: WeftErrorCode,
    message: string,
    options?: WeftErrorOptions,
  ) {
    super(message, options);
    const kind = new.target as typeof WeftError;
    this.name = kind.errorName;
    for (let each = kind; each !== WeftError; each = Object.getPrototypeOf(each) as typeof WeftError) {
      (this as unknown as Record<symbol, boolean>)[markerOf(each.errorName)] = true;
    }
  }

  /** Whether `error` is one of this class's errors, made by any copy of the package. */
  static isInstance<E extends WeftError>(this: { readonly errorName: string; readonly prototype: E }, error: unknown): error is E {
    return hasMarker(error, Object.is(this, WeftError) ? marker : markerOf(this.errorName));
  }
}

/** Whether `error` carries `marker`, the key set on the errors of one class. */
function hasMarker(error: unknown, marker: symbol): boolean {
  return typeof error === "object" && error !== null && (error as { [key: symbol]: unknown })[marker] === true;
}
