// Why an ACP connection ended when it did not end cleanly: the editor's stream failed, the agent's
// output could not be written, or the connection itself failed. An agent's process says why and
// exits non-zero.

import { WeftError } from "../../errors/weft-error.js";

export type AcpConnectionErrorCode = "input_failed" | "output_failed" | "connection_failed";

export class AcpConnectionError extends WeftError {
  static override readonly errorName = "AcpConnectionError";

  constructor(
    override readonly code: AcpConnectionErrorCode,
    message: string,
    options: { cause: unknown },
  ) {
    super(code, `${message}: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
  }
}
