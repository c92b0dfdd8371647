// The error for a machine where no SQLite driver loads: Node without node:sqlite (before 22.13)
// and better-sqlite3 missing or never built. It says what failed and what to do, in plain words.

import { WeftError } from "../../errors/weft-error.js";
import type { SqliteDriverName } from "./sqlite-connection.js";
import { errorMessage } from "../../errors/error-message.js";

/** Why one driver could not load. */
export interface SqliteDriverFailure {
  driver: SqliteDriverName;
  /** A sentence for people. */
  reason: string;
  /** What the driver threw. */
  error: unknown;
}

/** No SQLite driver could load here, so no SQLite store can open. */
export class SqliteUnavailableError extends WeftError {
  static override readonly errorName = "SqliteUnavailableError";

  constructor(
    readonly failures: readonly SqliteDriverFailure[],
    options: {
      /** A further way out, added to the message (the `weft` command names `--sessions memory`). */
      advice?: string | undefined;
    } = {},
  ) {
    const reasons = failures.map((failure) => `${failure.driver}: ${failure.reason}.`).join(" ");
    const fixes = failures.map((failure) => fixFor(failure.driver)).join(", or ");
    const message = `No SQLite driver could load. ${reasons} To use SQLite, ${fixes}.${options.advice ? ` ${options.advice}` : ""}`;
    super("sqlite_unavailable", message, { cause: failures.length === 1 ? failures[0]?.error : new AggregateError(failures.map((failure) => failure.error)) });
  }
}

function fixFor(driver: SqliteDriverName): string {
  return driver === "node:sqlite"
    ? "run on Node 22.13 or later"
    : "let better-sqlite3 build its addon (npm rebuild better-sqlite3, or npm install better-sqlite3, with install scripts allowed; where no prebuilt binary downloads, that needs a C++ compiler)";
}

/** Puts what a driver threw while loading into a sentence. */
export function describeLoadFailure(driver: SqliteDriverName, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = errorMessage(error);
  if (driver === "node:sqlite" && (code === "ERR_UNKNOWN_BUILTIN_MODULE" || /No such built-in module/.test(message))) {
    return `Node ${process.versions.node} does not have it (it comes with Node 22.13 and later)`;
  }
  if (driver === "better-sqlite3") {
    if ((code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") && message.includes("'better-sqlite3'")) {
      return "not installed (it is an optional dependency)";
    }
    if (message.includes("Could not locate the bindings file")) {
      return "installed, but its native addon was never built, as happens when install scripts are skipped (npm --ignore-scripts, pnpm)";
    }
    if (message.includes("NODE_MODULE_VERSION")) {
      return `its native addon was built for another Node version than this one (${process.versions.node})`;
    }
    if (code === "ERR_DLOPEN_FAILED") {
      return `its native addon does not load: ${firstLine(message)}`;
    }
  }
  return firstLine(message);
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}
