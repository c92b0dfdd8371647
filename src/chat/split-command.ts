// Splits a command line given as one string (`--agent "npx my-agent --flag 'a b'"`) into words,
// honouring single and double quotes and backslash escapes, as a shell would for simple commands.

export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let started = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < line.length; index++) {
    const character = line[index] as string;
    if (quote) {
      if (character === quote) {
        quote = undefined;
      } else if (character === "\\" && quote === '"' && index + 1 < line.length) {
        word += line[++index];
      } else {
        word += character;
      }
    } else if (character === '"' || character === "'") {
      quote = character;
      started = true;
    } else if (character === "\\" && index + 1 < line.length) {
      word += line[++index];
      started = true;
    } else if (/\s/.test(character)) {
      if (started) {
        words.push(word);
        word = "";
        started = false;
      }
    } else {
      word += character;
      started = true;
    }
  }
  if (quote) {
    throw new Error(`Unclosed ${quote} quote in ${JSON.stringify(line)}.`);
  }
  if (started) {
    words.push(word);
  }
  return words;
}
