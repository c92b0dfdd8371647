// The few styles `weft chat` writes with (dim, bold, colours), as ANSI codes on a terminal that
// takes colour and as plain text otherwise.

export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  green(text: string): string;
  red(text: string): string;
  cyan(text: string): string;
  yellow(text: string): string;
}

export function terminalStyle(color: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) => (color ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return { dim: wrap(2, 22), bold: wrap(1, 22), green: wrap(32, 39), red: wrap(31, 39), cyan: wrap(36, 39), yellow: wrap(33, 39) };
}
