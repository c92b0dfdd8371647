// The error for a list of bearer tokens that cannot be used: a malformed line of a tokens file, a
// token given twice, an empty one. It names where, never the token, which is a secret.

import { WeftError } from "../../../errors/weft-error.js";

/** A token list that weft refuses, and where in it: `source` is the file or variable, `line` the line or entry (from 1). */
export class InvalidTokensError extends WeftError {
  static override readonly errorName = "InvalidTokensError";

  readonly source: string | undefined;
  readonly line: number | undefined;

  constructor(message: string, options: { source?: string | undefined; line?: number | undefined; cause?: unknown } = {}) {
    super("invalid_tokens", message, { cause: options.cause });
    this.source = options.source;
    this.line = options.line;
  }
}
