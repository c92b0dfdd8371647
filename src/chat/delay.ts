// A wait, for chat's retries and for the moment it gives a closing connection to say how it ended.

/** Resolves after `milliseconds`. */
export function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
