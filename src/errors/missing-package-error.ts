// The error for a feature whose package is not installed. Some dependencies are optional peers
// (pg, ioredis, the MCP SDK) so that an install carries only what most people use.

import { WeftError } from "./weft-error.js";

/** `feature` needs `packageName`, which is not installed. */
export class MissingPackageError extends WeftError {
  static override readonly errorName = "MissingPackageError";

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
  }

  /** Whether `error` is the failure to import `packageName` itself (not a module it imports in turn). */
  static isMissing(error: unknown, packageName: string): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : "";
    return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && (message.includes(`'${packageName}'`) || message.includes(`'${packageName}/`));
  }
}
