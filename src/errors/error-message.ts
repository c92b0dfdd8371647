// What a caught value says: an Error's message, or anything else as a string. JavaScript can
// throw anything, and messages shown to people and logs want text.

/** The message of an Error, or the value itself as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
