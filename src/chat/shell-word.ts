// A word as a POSIX shell reads it, for the commands chat suggests (`weft chat --cwd … --resume …`),
// so that one copied from a message runs as shown.

/** `text` as one shell word: as it is when no character in it means anything to a shell, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
