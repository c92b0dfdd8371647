// Errors a store raises for requests no driver can honour.

import { hasMarker, WeftError } from "./weft-error.js";
import { errorMessage } from "./error-message.js";

const invalidNamespaceErrorMarker = Symbol.for("weft.error.InvalidNamespaceError");

/** A namespace or key that breaks the store contract's rules (empty label, NUL, not a string). */
export class InvalidNamespaceError extends WeftError {
  readonly [invalidNamespaceErrorMarker] = true;

  static override isInstance(error: unknown): error is InvalidNamespaceError {
    return hasMarker(error, invalidNamespaceErrorMarker);
  }

  constructor(
    readonly namespace: readonly unknown[],
    reason: string,
  ) {
    super("invalid_namespace", `Invalid namespace ${JSON.stringify(namespace)}: ${reason}`);
    this.name = "InvalidNamespaceError";
  }
}

const storeUnavailableErrorMarker = Symbol.for("weft.error.StoreUnavailableError");

/** The store's server could not be reached or failed to answer. */
export class StoreUnavailableError extends WeftError {
  readonly [storeUnavailableErrorMarker] = true;

  static override isInstance(error: unknown): error is StoreUnavailableError {
    return hasMarker(error, storeUnavailableErrorMarker);
  }

  constructor(
    readonly driver: string,
    options: { cause: unknown; detail?: string | undefined },
  ) {
    super("store_unavailable", `The ${driver} store is unavailable: ${options.detail ?? describeCause(options.cause)}`, { cause: options.cause });
    this.name = "StoreUnavailableError";
  }
}

const storeBusyErrorMarker = Symbol.for("weft.error.StoreBusyError");

/**
 * The store is there but another connection holds the lock the call needs, and still did when
 * the driver stopped waiting (SQLite's busy timeout). Nothing was written; the same call may work
 * once the other writer is done. Not an outage: the store answered.
 */
export class StoreBusyError extends WeftError {
  readonly [storeBusyErrorMarker] = true;

  static override isInstance(error: unknown): error is StoreBusyError {
    return hasMarker(error, storeBusyErrorMarker);
  }

  constructor(
    readonly driver: string,
    options: { cause: unknown; detail: string },
  ) {
    super("store_busy", `The ${driver} store is busy: ${options.detail}`, { cause: options.cause });
    this.name = "StoreBusyError";
  }
}

function describeCause(cause: unknown): string {
  return errorMessage(cause);
}
