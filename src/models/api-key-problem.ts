// Checks an API key before it goes into a request header, where a character no key has (the "…"
// of a placeholder copied from an example, a space, a line break) would fail with a cryptic error.

/**
 * What is wrong with `key` as an API key, in words that finish "The key …", or undefined when it
 * is plain printable ASCII, as every provider's keys are. Names the first character that is not,
 * and its place, so the person can find it.
 */
export function apiKeyProblem(key: string): string | undefined {
  if (key === "") {
    return "is empty";
  }
  const characters = [...key];
  const index = characters.findIndex((character) => !/^[\x21-\x7e]$/.test(character));
  if (index < 0) {
    return undefined;
  }
  const character = characters[index] as string;
  const code = `U+${(character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`;
  const what = /\s/.test(character) ? (character === " " ? "a space" : `white space (${code})`) : /[\p{Cc}\p{Cf}]/u.test(character) ? `a control character (${code})` : `"${character}" (${code})`;
  const placeholder = character === "…" || /[<>]/.test(key) ? "; it looks like a placeholder from an example, not a key" : "";
  return `has ${what} at character ${index + 1}, and API keys are plain ASCII letters, digits and punctuation${placeholder}`;
}
