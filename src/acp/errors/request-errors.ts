// The local errors for requests the agent will not serve as they were sent: a directory (the cwd or
// another of the session's) that is not absolute, a cursor it never gave, a prompt over the size limit, a load of a session whose turn is
// still running, a config value the session does not offer. wire-errors.ts answers them as invalid
// params or an invalid request.

import { WeftError } from "../../errors/weft-error.js";

/** A session's directory that is not an absolute path. */
export class InvalidCwdError extends WeftError {
  static override readonly errorName = "InvalidCwdError";

  constructor(readonly cwd: string) {
    super("invalid_cwd", `cwd must be an absolute path, not ${JSON.stringify(cwd)}.`);
  }
}

/** One of a session's `additionalDirectories` that is not an absolute path. */
export class InvalidDirectoryError extends WeftError {
  static override readonly errorName = "InvalidDirectoryError";

  constructor(readonly directory: string) {
    super("invalid_directory", `additionalDirectories must be absolute paths, not ${JSON.stringify(directory)}.`);
  }
}

/** A session's directory outside the roots the server allows the person who asked; it names those roots. */
export class DirectoryNotAllowedError extends WeftError {
  static override readonly errorName = "DirectoryNotAllowedError";

  /** `allowed`: the directories the server does let this person open sessions in (its roots for them). */
  constructor(
    readonly directory: string,
    readonly allowed: readonly string[] = [],
  ) {
    super(
      "directory_not_allowed",
      `${JSON.stringify(directory)} is outside the directories this server lets you open sessions in${allowed.length > 0 ? `: ${allowed.join(", ")}` : ""}.`,
    );
  }
}

/** A `session/list` cursor this agent did not give. */
export class InvalidCursorError extends WeftError {
  static override readonly errorName = "InvalidCursorError";

  constructor(readonly cursor: string) {
    super("invalid_cursor", "Unknown cursor.");
  }
}

/** A prompt larger than the agent accepts, in bytes of JSON. */
export class PromptTooLargeError extends WeftError {
  static override readonly errorName = "PromptTooLargeError";

  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super("prompt_too_large", `The prompt is ${megabytes(size)}; this agent accepts prompts up to ${megabytes(limit)}.`);
  }
}

/** A load or resume of a session whose turn is running in this process. */
export class TurnInProgressError extends WeftError {
  static override readonly errorName = "TurnInProgressError";

  constructor(readonly sessionId: string) {
    super("turn_in_progress", `Session ${sessionId} has a turn in progress; cancel it first.`);
  }
}

/**
 * A config option or mode set to something the session does not offer: an option it does not
 * have, a value not among the option's, or a value of the wrong type. The message says which.
 */
export class InvalidConfigValueError extends WeftError {
  static override readonly errorName = "InvalidConfigValueError";

  constructor(
    /** The option asked for (`mode` for a mode). */
    readonly configId: string,
    /** The value it was to be set to. */
    readonly value: unknown,
    message: string,
  ) {
    super("invalid_config_value", message);
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
