// Errors a store raises for requests no driver can honour.

import { WeftError } from "./weft-error.js";
import { errorMessage } from "./error-message.js";

/** A namespace or key that breaks the store contract's rules (empty label, NUL, not a string). */
export class InvalidNamespaceError extends WeftError {
  static override readonly errorName = "InvalidNamespaceError";

  constructor(
    readonly namespace: readonly unknown[],
    reason: string,
  ) {
    super("invalid_namespace", `Invalid namespace ${JSON.stringify(namespace)}: ${reason}`);
  }
}

/** The store's server could not be reached or failed to answer. */
export class StoreUnavailableError extends WeftError {
  static override readonly errorName = "StoreUnavailableError";

  constructor(
    readonly driver: string,
    options: { cause: unknown; detail?: string | undefined },
  ) {
    super("store_unavailable", `The ${driver} store is unavailable: ${options.detail ?? describeCause(options.cause)}`, { cause: options.cause });
  }
}

/**
 * The store is there but another connection holds the lock the call needs, and still did when
 * the driver stopped waiting (SQLite's busy timeout). Nothing was written; the same call may work
 * once the other writer is done. Not an outage: the store answered.
 */
export class StoreBusyError extends WeftError {
  static override readonly errorName = "StoreBusyError";

  constructor(
    readonly driver: string,
    options: { cause: unknown; detail: string },
  ) {
    super("store_busy", `The ${driver} store is busy: ${options.detail}`, { cause: options.cause });
  }
}

function describeCause(cause: unknown): string {
  return errorMessage(cause);
}
