// The base of weft's local errors: ones that never cross the wire as they are. Each has a string
// `code` and structured fields; a protocol server maps them to wire errors itself.

const marker = Symbol.for("weft.error");

export interface WeftErrorOptions {
  cause?: unknown;
}

/** A weft error, recognisable across copies of the package by `WeftError.isInstance`. */
export class WeftError extends Error {
  readonly [marker] = true;

  constructor(
    /** A stable, machine-readable reason, such as `thread_busy`. */
    readonly code: string,
    message: string,
    options?: WeftErrorOptions,
  ) {
    super(message, options);
    this.name = "WeftError";
  }

  static isInstance(error: unknown): error is WeftError {
    return typeof error === "object" && error !== null && marker in error;
  }
}
