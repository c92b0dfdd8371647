// Errors a store raises for requests no driver can honour.

import { WeftError } from "./weft-error.js";

/** A namespace or key that breaks the store contract's rules (empty label, NUL, not a string). */
export class InvalidNamespaceError extends WeftError {
  constructor(
    readonly namespace: readonly unknown[],
    reason: string,
  ) {
    super("invalid_namespace", `Invalid namespace ${JSON.stringify(namespace)}: ${reason}`);
    this.name = "InvalidNamespaceError";
  }
}

/** The store's server could not be reached or failed to answer. */
export class StoreUnavailableError extends WeftError {
  constructor(
    readonly driver: string,
    options: { cause: unknown; detail?: string | undefined },
  ) {
    super("store_unavailable", `The ${driver} store is unavailable: ${options.detail ?? describeCause(options.cause)}`, { cause: options.cause });
    this.name = "StoreUnavailableError";
  }
}

function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
