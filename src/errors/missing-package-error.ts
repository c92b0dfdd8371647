// The error for a feature whose package is not installed. Some dependencies are optional peers
// (pg, ioredis, the MCP SDK) so that an install carries only what most people use.

import { hasMarker, WeftError } from "./weft-error.js";

const missingPackageErrorMarker = Symbol.for("weft.error.MissingPackageError");

/** `feature` needs `packageName`, which is not installed. */
export class MissingPackageError extends WeftError {
  readonly [missingPackageErrorMarker] = true;

  static override isInstance(error: unknown): error is MissingPackageError {
    return hasMarker(error, missingPackageErrorMarker);
  }

  constructor(
    readonly packageName: string,
    readonly feature: string,
    options: { cause?: unknown; advice?: string | undefined } = {},
  ) {
    super(
      "missing_package",
      `${feature} need the package ${packageName}, which is not installed: install it next to weftjs (npm install ${packageName}).${options.advice ? ` ${options.advice}` : ""}`,
      { cause: options.cause },
    );
    this.name = "MissingPackageError";
  }

  /** Whether `error` is the failure to import `packageName` itself (not a module it imports in turn). */
  static isMissing(error: unknown, packageName: string): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : "";
    return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && (message.includes(`'${packageName}'`) || message.includes(`'${packageName}/`));
  }
}
