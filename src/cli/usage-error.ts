// The error for a flag, variable or config file the command cannot use: `weft` says why and exits 2.

/** A flag, variable or config file with a value the command cannot use. Exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
