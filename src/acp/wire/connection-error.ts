// Why an ACP connection ended when it did not end cleanly: the editor's stream failed, the agent's
// output could not be written, or the connection itself failed. An agent's process says why and
// exits non-zero.

import { hasMarker, WeftError } from "../../errors/weft-error.js";

export type AcpConnectionErrorCode = "input_failed" | "output_failed" | "connection_failed";

const acpConnectionErrorMarker = Symbol.for("weft.error.AcpConnectionError");

export class AcpConnectionError extends WeftError {
  readonly [acpConnectionErrorMarker] = true;

  static override isInstance(error: unknown): error is AcpConnectionError {
    return hasMarker(error, acpConnectionErrorMarker);
  }

  constructor(
    override readonly code: AcpConnectionErrorCode,
    message: string,
    options: { cause: unknown },
  ) {
    super(code, `${message}: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
    this.name = "AcpConnectionError";
  }
}
